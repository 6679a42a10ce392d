// The desktop kit, `flowproof/desktop`: what the built-in desktop surfaces (Windows through UI
// Automation or Win32, SAP GUI Scripting, a window read as pixels) are made of, for a project's
// own. A project adds an element backend (a Java Swing app through the Java Access Bridge, a
// terminal's screen buffer) to the one desktop driver: it implements ElementBackend (what controls
// a window holds, the acts that are not keystrokes) and DesktopSurface (the windows, input,
// frames), and `createDesktopDriver` gives it resolution, checks, counts, masks, the scene and
// the debug snapshot, the same as every built-in's. Whatever a built-in desktop surface imports
// from plugins/desktop is exported here (src/plugins/desktop-kit.test.ts holds that).
import type { AppDriver } from "./api.ts";
import { DesktopDriver, type DesktopDriverOptions } from "../../plugins/desktop/driver.ts";

// The two seams and what the driver hands a surface's acts.
export type { DesktopSurface, ElementBackend, ElementView, Failure, Found, SurfaceWindows, Want } from "../../plugins/desktop/backend.ts";
// The element model: windows and their controls as plain data, in one vocabulary.
export type { CellPlace, ControlType, DesktopElement, SurfaceWindow, WindowElements } from "../../plugins/desktop/element.ts";
export { anchorsOf, describeElement, isEditable, plainLabel } from "../../plugins/desktop/element.ts";
// The one driver.
export { DesktopDriver, PASSWORD_UNREAD, type DesktopDriverOptions } from "../../plugins/desktop/driver.ts";
// Which controls a rung names, and what a miss reports: the nearest texts, the closest id.
export {
  cellMiss,
  cellsAt,
  clip,
  closestId,
  labelPath,
  matchRung,
  nearestTexts,
  STATUS_BAR_LABEL,
  textOf,
  wantedId,
  wantedText,
} from "../../plugins/desktop/match.ts";
// Text as every desktop surface compares it (`page shows`: as written, else ignoring case).
export { collapse, occurrences, ordinal, readNumber, shows, showsAny, showsTimes } from "../../plugins/desktop/text.ts";
// Checks the same on every desktop surface: of the whole surface (its title, what it shows), of a control's text.
export { checkShown, checkText, type ShownSurface } from "../../plugins/desktop/surface-check.ts";
// The scene (model authoring) and the debug snapshot (a failed step's files).
export { pageText, SCENE_CAP, sceneOf, type SceneFacts } from "../../plugins/desktop/scene.ts";
export { anchorTexts, windowSnapshot } from "../../plugins/desktop/snapshot.ts";
// The refusal on a machine the surface cannot drive.
export { UnsupportedPlatformError, type UnsupportedPlatform } from "../../plugins/desktop/platform.ts";
// An in-memory surface and backend in one, for a backend's own unit tests.
export { FakeSurface, fakeElement, type FakeElement } from "../../plugins/desktop/fake.ts";

/**
 * The one desktop driver over a project's surface and element backend: the AppDriver its
 * adapter's session returns from `launch`. Masks (password fields, fields a secret was typed into,
 * controls showing a secret of the run) come from the backend's `password` flags and the surface's
 * `view.typedInto` calls.
 */
export function createDesktopDriver(options: DesktopDriverOptions): AppDriver & Pick<DesktopDriver, "backendName" | "appInfo"> {
  return new DesktopDriver(options);
}
