// The two seams of the desktop driver. An ElementBackend reads one window's controls and performs
// the few acts on one control that are not keystrokes (UI Automation, the Win32 window tree with
// MSAA, SAP GUI Scripting, in-memory fakes). A DesktopSurface is what surrounds the backend: the
// windows it shows, how input reaches them and what it does besides (a Windows desktop's
// foreground and real input; a SAP GUI session's transactions, virtual keys and status bar).
// Resolution, checks, counts, masks, the scene and the debug snapshot are the driver's, written
// once for every surface. Types only.
import type {
  Attempt,
  Capability,
  DebugSnapshot,
  Expectation,
  KeyModifier,
  PointerOptions,
  RawFrame,
  Reading,
  Rect,
  SceneInventory,
  Selector,
} from "../../src/plugins/api.ts";
import type { DesktopElement, SurfaceWindow, WindowElements } from "./element.ts";
import type { Want } from "./match.ts";

/** Element discovery and the acts that are not keystrokes, for one backend. */
export interface ElementBackend {
  /** Written into the trace (`app.backend`) on surfaces that record it: which backend resolved the steps. */
  readonly name: string;
  /** Whether this backend can search `w`'s controls (UIA under Wine cannot). */
  canSearch(w: SurfaceWindow): Promise<boolean>;
  /** Every control under `w`, in tree order (depth first), hidden ones included. */
  elements(w: SurfaceWindow): Promise<readonly DesktopElement[]>;
  /** Gives `el` the keyboard focus. */
  focus(el: DesktopElement): Promise<void>;
  /** Selects all of an edit's text (so typing replaces it). */
  selectAll(el: DesktopElement): Promise<void>;
  /** Presses a button (its default action); toggles a check box; selects a tab. */
  invoke(el: DesktopElement): Promise<void>;
  /** Selects the items with these texts in a combo or list box; answers what went wrong, or undefined. */
  select(el: DesktopElement, values: readonly string[]): Promise<string | undefined>;

  // ---- optional: a backend whose controls are read rather than reported (text read off pixels) ----

  /**
   * The backend's own rule for which controls a rung names, in its own tiers (OCR lines: exact,
   * then the start of a line, each then ignoring case), in place of the kit's `matchRung`. The
   * elements answered may be made for the match (a line's first words, the input box a label
   * names); a failure says why the rung names nothing (a label found, its field not) and ends the
   * resolution. Undefined leaves the rung to the kit's rule.
   */
  matchRung?(elements: readonly DesktopElement[], rung: Selector, want: Want): readonly DesktopElement[] | Failure | undefined;
  /** How messages name one of its controls (`"Pay"`), in place of the kit's `describeElement` (`button "Pay" (id 7)`). */
  describe?(el: DesktopElement): string;
  /** A miss's message (and kind), in place of the driver's `no control in … matches`: e.g. what is at the rung's recorded place now. */
  missed?(ladder: readonly Selector[], elements: readonly DesktopElement[]): Failure | undefined;
  /** Asked before every act on a resolved control: a failure (retryable, `stable`) while it is not ready to be acted on, e.g. not yet read the same twice. */
  ready?(found: Found): Promise<Failure | undefined>;
  /** The rungs recorded ahead of a passing step's own, in place of the driver's `native_id`/`structural` ones (e.g. a text with the box it was read at). */
  recordedRungs?(found: Found): readonly Selector[] | undefined;
  /** The control checks it can answer (`enabled`, `checked`, …); the others are refused for good. Every kind when absent. */
  readonly reads?: ReadonlySet<Expectation["kind"]>;
  /**
   * Rectangles (screen pixels) to mask, in place of the driver's reading of controls' texts: where
   * a secret typed on this surface shows (`typed`), or any of the run's secrets (`shown`), found
   * the backend's way (allowing OCR's misreadings). Password fields are masked besides.
   */
  secretRects?(target: { readonly typed: true } | { readonly shown: readonly string[] }): Promise<readonly Rect[]>;
  /** What the windows show as one text (`page shows`), in place of the kit's `pageText` (the title and every control's texts). */
  shownText?(main: SurfaceWindow, groups: readonly WindowElements[]): string;
  /** The scene inventory, in place of the kit's `sceneOf`. */
  scene?(main: SurfaceWindow, groups: readonly WindowElements[]): SceneInventory | Promise<SceneInventory>;
  /** The debug snapshot, in place of the kit's `windowSnapshot` (e.g. OCR confidences, the field each label names). */
  snapshot?(groups: readonly WindowElements[], redact: (text: string) => string): DebugSnapshot;
}

/** What an action needs of its target (see match.ts). */
export type { Want };

/** An attempt that failed. */
export type Failure = Extract<Attempt, { ok: false }>;

/** A control one rung of a ladder named: the control, the window holding it, and the rung's tier. */
export interface Found {
  readonly ok: true;
  readonly el: DesktopElement;
  readonly window: SurfaceWindow;
  readonly tier: string;
  /** The rung that named it. */
  readonly rung?: Selector;
}

/** What a surface's acts may ask of the driver: the same resolution and reads its checks use. */
export interface ElementView {
  /** The one control the ladder names (first rung that names any); never the first of several. */
  resolve(ladder: readonly Selector[], want: Want): Promise<Found | Failure>;
  /** The control again, read now (by its ref); undefined when it is gone. */
  reread(el: DesktopElement): Promise<DesktopElement | undefined>;
  /** The control that has the keyboard focus now, if the surface shows one. */
  focused(): Promise<DesktopElement | undefined>;
  /** Records what was typed into the control `ref`: a secret keeps it masked in every frame until other text replaces it. */
  typedInto(ref: string, secret: boolean): void;
}

/** The windows a surface shows now. */
export interface SurfaceWindows {
  /** The main window (its title is the surface's title). */
  readonly main: SurfaceWindow;
  /** The windows to search, in order: the one holding the keyboard first (a dialog), the main window among them. */
  readonly shown: readonly SurfaceWindow[];
}

/** The acts and facts of one desktop surface around its element backend. Every method is one attempt. */
export interface DesktopSurface {
  readonly capabilities: ReadonlySet<Capability>;
  /** How messages name what the surface is (`a Windows app`, `SAP GUI`). */
  readonly what: string;
  /** How a step names one control natively (`id:<AutomationId>`), for the refusal of a css target. */
  readonly nativeIdHint: string;
  /** The payload key a recorded native rung uses (`automation_id`, `id`). */
  readonly recordedIdKey: "automation_id" | "id";
  /** The surface's windows now; undefined once its main window is gone (named by `goneTitle`). */
  windows(): Promise<SurfaceWindows | undefined>;
  /** The main window's title when the surface started, for messages once it is gone. */
  readonly goneTitle: string;

  click(found: Found, options: PointerOptions, view: ElementView): Promise<Attempt>;
  /** Replaces a field's text with `text` (the driver resolved an editable target). */
  fill(found: Found, text: string, secret: boolean, view: ElementView): Promise<Attempt>;
  /** Appends `text` to whatever has the keyboard. */
  typeFocused(text: string, secret: boolean, view: ElementView): Promise<Attempt>;
  pressKey(key: string, modifiers: readonly KeyModifier[], view: ElementView): Promise<Attempt>;
  select(found: Found, values: readonly string[], view: ElementView): Promise<Attempt>;
  setChecked(found: Found, checked: boolean, view: ElementView): Promise<Attempt>;
  navigate(url: string, view: ElementView): Promise<Attempt>;
  reload(): Promise<Attempt>;
  /** Hovers what the ladder names (`view.resolve` finds it), or refuses. */
  hover(ladder: readonly Selector[], view: ElementView): Promise<Attempt>;
  /** A `page url` check: the surface's address (a SAP screen's transaction); undefined when it has none. */
  checkAddress?(op: "equals" | "contains", value: string): Promise<Reading>;
  /** What the scene reports as the surface's address and load state. */
  sceneFacts?(): Promise<{ readonly url: string; readonly loaded: boolean }>;
  /** Messages the surface reported so far, oldest first (a SAP status bar's): the debug snapshot's console. */
  messages?(): readonly string[];

  captureFrame(): Promise<RawFrame>;
  /** Where the frame's top-left corner is on the screen: rectangles are answered relative to it. */
  frameOrigin(): Promise<{ readonly x: number; readonly y: number }>;
  environment(): Promise<{ os: string; resolution: [number, number] }>;
  /** Facts for the trace header's app entry. */
  appInfo?(): Readonly<Record<string, unknown>>;
  /** Brings the surface to the front (a multi-surface block starting on it). */
  bringToFront?(): Promise<Attempt>;
  /** Resolves once the surface was closed from outside. */
  untilClosed?(): Promise<void>;
  close(): Promise<void>;
}
