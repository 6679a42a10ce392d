// An in-memory desktop for tests: windows with controls, a foreground, keystrokes that land in
// the focused control of the foreground window (or in another window's log when focus was
// stolen), programs that start or fail. Implements both Desktop and ElementBackend.
import type { Rect } from "../../../src/plugins/api.ts";
import type { Desktop, Launched, MouseButton, TopWindow } from "../backend.ts";
import type { ElementBackend } from "../../desktop/backend.ts";
import type { CellPlace, ControlType, DesktopElement } from "../../desktop/element.ts";

export interface FakeControl {
  ref: string;
  name: string;
  controlType: ControlType;
  automationId: string;
  rect: Rect;
  enabled: boolean;
  visible: boolean;
  password: boolean;
  checked?: boolean;
  value?: string;
  items?: string[];
  selected?: string[];
  itemSelected?: boolean;
  expanded?: boolean;
  cell?: CellPlace;
  /** What a press of it does (a button's effect). */
  onInvoke?: () => void;
  /** What a real click on it does (a tab's or an item's effect); `count` 2 for a double-click. */
  onClick?: (count: number, button: MouseButton) => void;
}

export interface FakeWindow {
  handle: string;
  title: string;
  className: string;
  pid: number;
  visible: boolean;
  owner?: string;
  rect: Rect;
  controls: FakeControl[];
  /** Keystrokes that reached this window while it had no focused control. */
  typed: string;
}

/** How a fake program behaves when launched. */
export interface FakeProgram {
  /** Windows it opens (after `delayMs`). */
  readonly windows?: readonly Omit<FakeWindow, "pid" | "typed">[];
  readonly delayMs?: number;
  /** Exits at once with this code and stderr instead. */
  readonly exit?: { readonly code: number; readonly stderr: string };
}

let nextRef = 1;

/** A control with defaults (visible, enabled, not a password). */
export function control(c: Partial<FakeControl> & Pick<FakeControl, "name" | "controlType">): FakeControl {
  return { ref: `c${nextRef++}`, automationId: "", rect: { x: 10, y: 10, width: 80, height: 20 }, enabled: true, visible: true, password: false, ...c };
}

export class FakeDesktop implements Desktop, ElementBackend {
  readonly name = "fake" as const;
  readonly windows: FakeWindow[] = [];
  readonly programs = new Map<string, FakeProgram>();
  /** Launch calls as received: [exe, args]. */
  readonly launches: [string, string][] = [];
  /** Per launch: whether it was a hand-off (not tied to this process). */
  readonly handOffs: boolean[] = [];
  readonly killed: number[] = [];
  foregroundHandle: string | undefined;
  focusedRef: string | undefined;
  /** When set, bringToFront does nothing (another program holds the foreground). */
  foregroundLocked = false;
  /** Keys pressed: `ctrl+a`, `F4`. */
  readonly keys: string[] = [];
  /** Clicks at screen points. */
  readonly clicks: { x: number; y: number; button: MouseButton; count: number }[] = [];
  #pid = 1000;

  addWindow(w: Partial<FakeWindow> & Pick<FakeWindow, "title">): FakeWindow {
    const win: FakeWindow = {
      handle: String(100 + this.windows.length),
      className: "FakeWindow",
      pid: 1,
      visible: true,
      rect: { x: 0, y: 0, width: 400, height: 300 },
      controls: [],
      typed: "",
      ...w,
    };
    this.windows.push(win);
    return win;
  }

  #top(w: FakeWindow): TopWindow {
    return { handle: w.handle, title: w.title, className: w.className, pid: w.pid, visible: w.visible, ...(w.owner !== undefined ? { owner: w.owner } : {}) };
  }

  #win(handle: string): FakeWindow | undefined {
    return this.windows.find((w) => w.handle === handle);
  }

  #control(ref: string): FakeControl | undefined {
    return this.windows.flatMap((w) => w.controls).find((c) => c.ref === ref);
  }

  // ---- Desktop -------------------------------------------------------------------------------

  launch(exe: string, args: string, options: { readonly handOff?: boolean; readonly program?: string } = {}): Launched {
    this.launches.push([exe, args]);
    this.handOffs.push(options.handOff === true);
    const program = this.programs.get(exe);
    const pid = this.#pid++;
    let resolveExit: (v: { code: number; stderr: string }) => void = () => undefined;
    const exited = new Promise<{ code: number; stderr: string }>((r) => {
      resolveExit = r;
    });
    if (!program) {
      resolveExit({ code: 1, stderr: `'${exe}' is not recognized as a program` });
    } else if (program.exit) {
      resolveExit(program.exit);
    } else {
      const open = () => {
        for (const w of program.windows ?? []) {
          this.windows.push({ ...structuredClone(w), pid, typed: "", controls: w.controls.map((c) => ({ ...c })) });
          this.foregroundHandle = w.handle;
        }
      };
      if (program.delayMs) setTimeout(open, program.delayMs);
      else open();
    }
    const kill = () => {
      this.killed.push(pid);
      for (let i = this.windows.length - 1; i >= 0; i--) if (this.windows[i]!.pid === pid) this.windows.splice(i, 1);
      resolveExit({ code: 1, stderr: "" });
    };
    return { pid, exited, kill: async () => kill(), killNow: kill };
  }

  async topWindows(): Promise<readonly TopWindow[]> {
    return this.windows.map((w) => this.#top(w));
  }

  async foreground(): Promise<TopWindow | undefined> {
    const w = this.foregroundHandle === undefined ? undefined : this.#win(this.foregroundHandle);
    return w && this.#top(w);
  }

  async bringToFront(w: TopWindow): Promise<boolean> {
    if (this.foregroundLocked) return false;
    this.foregroundHandle = w.handle;
    return true;
  }

  async windowRect(w: TopWindow): Promise<Rect> {
    return { ...this.#win(w.handle)!.rect };
  }

  async place(w: TopWindow, rect: Rect): Promise<Rect> {
    const win = this.#win(w.handle)!;
    win.rect = { ...rect };
    return { ...rect };
  }

  async typeText(text: string): Promise<void> {
    const fg = this.foregroundHandle === undefined ? undefined : this.#win(this.foregroundHandle);
    if (!fg) return;
    const focused = fg.controls.find((c) => c.ref === this.focusedRef);
    if (!focused) {
      fg.typed += text;
      return;
    }
    const selectedAll = this.#selectAll === focused.ref;
    this.#selectAll = undefined;
    focused.value = selectedAll ? text : (focused.value ?? "") + text;
  }

  async pressKey(key: string, modifiers: readonly string[]): Promise<void> {
    this.keys.push([...modifiers, key].join("+"));
    // Delete or Backspace on a field whose text is all selected empties it.
    const focused = this.windows.find((w) => w.handle === this.foregroundHandle)?.controls.find((c) => c.ref === this.focusedRef);
    if (focused && modifiers.length === 0 && (key === "Delete" || key === "Backspace") && this.#selectAll === focused.ref) {
      this.#selectAll = undefined;
      focused.value = "";
    }
  }

  async click(x: number, y: number, button: MouseButton, count: 1 | 2): Promise<void> {
    this.clicks.push({ x, y, button, count });
    const hit = this.windows
      .flatMap((w) => w.controls)
      .find((c) => x >= c.rect.x && x < c.rect.x + c.rect.width && y >= c.rect.y && y < c.rect.y + c.rect.height);
    if (hit) {
      this.focusedRef = hit.ref;
      hit.onClick?.(count, button);
    }
  }

  async capture(w: TopWindow): Promise<{ png: Uint8Array; rect: Rect }> {
    return { png: new Uint8Array([137, 80, 78, 71]), rect: await this.windowRect(w) };
  }

  async screenSize(): Promise<[number, number]> {
    return [1280, 800];
  }

  async closeWindow(w: TopWindow): Promise<void> {
    const i = this.windows.findIndex((x) => x.handle === w.handle);
    if (i >= 0) this.windows.splice(i, 1);
  }

  // ---- ElementBackend ------------------------------------------------------------------------

  #selectAll: string | undefined;

  async canSearch(): Promise<boolean> {
    return true;
  }

  async elements(w: TopWindow): Promise<readonly DesktopElement[]> {
    const win = this.#win(w.handle);
    return (win?.controls ?? []).map(
      (c): DesktopElement => ({
        ref: c.ref,
        name: c.name,
        controlType: c.controlType,
        automationId: c.automationId,
        rect: { ...c.rect },
        enabled: c.enabled,
        visible: c.visible,
        focused: c.ref === this.focusedRef,
        password: c.password,
        ...(c.checked !== undefined ? { checked: c.checked } : {}),
        ...(c.value !== undefined && !c.password ? { value: c.value } : {}),
        ...(c.items ? { items: [...c.items] } : {}),
        ...(c.selected ? { selected: [...c.selected] } : {}),
        ...(c.itemSelected !== undefined ? { itemSelected: c.itemSelected } : {}),
        ...(c.expanded !== undefined ? { expanded: c.expanded } : {}),
        ...(c.cell ? { cell: { ...c.cell } } : {}),
      }),
    );
  }

  async focus(el: DesktopElement): Promise<void> {
    this.focusedRef = el.ref;
  }

  async selectAll(el: DesktopElement): Promise<void> {
    this.#selectAll = el.ref;
  }

  async invoke(el: DesktopElement): Promise<void> {
    const c = this.#control(el.ref);
    if (!c) return;
    if (c.checked !== undefined) c.checked = !c.checked;
    c.onInvoke?.();
  }

  async select(el: DesktopElement, values: readonly string[]): Promise<string | undefined> {
    const c = this.#control(el.ref);
    if (!c) return "the control is gone";
    c.selected = [...values];
    if (c.controlType === "combobox") c.value = values[0] ?? "";
    return undefined;
  }

  /** The value a control holds now (passwords included: tests only). */
  valueOf(ref: string): string | undefined {
    return this.#control(ref)?.value;
  }
}
