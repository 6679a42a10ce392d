// The screen of this platform: X11 on Linux, Win32 on Windows, an unsupported-platform error
// elsewhere. Each platform's bindings are imported only here, only on their platform.
import { UnsupportedPlatformError } from "../desktop/platform.ts";
import type { Screen } from "./screen.ts";

/** Options for the platform's screen; `display` is the X display (default: DISPLAY). */
export interface ScreenOptions {
  readonly display?: string;
}

/**
 * The screen of this platform. The platform's bindings are imported only here, only on their
 * platform, so no other platform ever opens libX11 or user32.
 */
export async function openScreen(options: ScreenOptions = {}, platform: string = process.platform): Promise<Screen> {
  if (platform === "linux") {
    const { openX11Screen } = await import("./x11/screen.ts");
    return openX11Screen(options.display ?? process.env["DISPLAY"]);
  }
  if (platform === "win32") {
    const { openWin32Screen } = await import("./win32/screen.ts");
    return openWin32Screen();
  }
  throw new UnsupportedPlatformError({
    kind: "vision",
    verb: "reads windows through",
    needs: "X11 (Linux) or Win32 (Windows)",
    platform,
    hint: "run this flow on Linux with an X display (DISPLAY set) or on Windows",
  });
}
