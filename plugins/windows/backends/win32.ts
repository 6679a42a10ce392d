// The Win32 desktop and element backend over the bun:ffi bindings: top-level windows and their
// child-window tree (classic controls: control id = AutomationId, window text = name, class and
// style = control type), messages for values and selections, SendInput for keystrokes and clicks,
// BitBlt for frames. The backend that works for classic controls under Wine.
import type { Pointer } from "bun:ffi";
import type { ControlType, Desktop, DesktopAccess, ElementBackend, Launched, TopWindow, WinElement } from "../backend.ts";
import * as u from "../ffi/user32.ts";
import { captureWindow } from "../ffi/gdi32.ts";
import { assignToJob, createKillOnCloseJob, currentThreadId } from "../ffi/kernel32.ts";
import { ffiUiaApi, uiaBackend } from "./uia.ts";

const BS_TYPEMASK = 0x0f;

/** A classic control's type from its window class and style. */
export function controlTypeOf(className: string, style: number): ControlType {
  const c = className.toLowerCase();
  if (c === "button") {
    const t = style & BS_TYPEMASK;
    if (t === 0x2 || t === 0x3 || t === 0x5 || t === 0x6) return "checkbox";
    if (t === 0x4 || t === 0x9) return "radio";
    if (t === 0x7) return "group";
    return "button";
  }
  if (c === "edit") return "edit";
  if (c.startsWith("richedit")) return "document";
  if (c === "combobox" || c === "comboboxex32") return "combobox";
  if (c === "listbox") return "list";
  if (c === "static") return "text";
  if (c === "syslink") return "hyperlink";
  return "other";
}

const hwndOf = (handle: string): number => Number(handle);

function topWindow(info: u.WindowInfo): TopWindow {
  return { handle: String(info.hwnd), title: info.title, className: info.className, pid: info.pid, visible: info.visible, ...(info.owner !== 0 ? { owner: String(info.owner) } : {}) };
}

/** The stderr tail a started program leaves. */
const STDERR_TAIL = 4_000;

/** The kill-on-close job of the programs this process started (null: not made yet; undefined: refused). */
let job: Pointer | undefined | null = null;

/**
 * Ties `pid` to this process: in the job, it and the processes it starts from then on end when
 * this process ends, even killed outright (no exit hook runs then). Best effort: a program the
 * system refuses to put in the job is still ended by the exit hook when this process exits.
 */
function tie(pid: number): void {
  if (job === null) job = createKillOnCloseJob();
  if (job !== undefined) assignToJob(job, pid);
}

function launch(exe: string, args: string, options: { readonly handOff?: boolean } = {}): Launched {
  // The arguments go to the program exactly as written (no quoting added).
  const proc = Bun.spawn([exe, ...(args === "" ? [] : [args])], { stdin: "ignore", stdout: "ignore", stderr: "pipe", windowsVerbatimArguments: true });
  if (!options.handOff) tie(proc.pid);
  let stderr = "";
  const reading = (async () => {
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      stderr = (stderr + decoder.decode(value)).slice(-STDERR_TAIL);
    }
  })().catch(() => undefined);
  const exited = proc.exited.then(async (code) => {
    await Promise.race([reading, Bun.sleep(500)]);
    return { code, stderr };
  });
  return {
    pid: proc.pid,
    exited,
    kill: async () => {
      proc.kill();
      await Promise.race([proc.exited, Bun.sleep(3_000)]);
    },
    killNow: () => proc.kill(),
  };
}

/** The Win32 desktop: user32 windows and input, gdi32 frames. */
export function win32Desktop(): Desktop {
  return {
    launch,
    topWindows: async () => u.findWindows().map(topWindow),
    foreground: async () => {
      const fg = u.foregroundWindow();
      return fg === 0 ? undefined : topWindow(u.windowInfo(fg));
    },
    bringToFront: async (w) => u.bringToForeground(hwndOf(w.handle), currentThreadId()),
    windowRect: async (w) => u.windowRect(hwndOf(w.handle)),
    place: async (w, rect) => u.placeWindow(hwndOf(w.handle), rect),
    typeText: async (text) => {
      u.typeText(text);
    },
    pressKey: async (key, modifiers) => {
      u.pressKey(key, modifiers);
    },
    click: async (x, y, button, count) => {
      u.clickAt(x, y, button, count);
    },
    capture: async (w) => {
      const shot = captureWindow(hwndOf(w.handle));
      return { png: new Uint8Array(shot.png), rect: shot.rect };
    },
    screenSize: async () => {
      const s = u.screenSize();
      return [s.width, s.height];
    },
    closeWindow: async (w) => {
      u.postMessage(hwndOf(w.handle), u.WM_CLOSE);
    },
  };
}

function element(hwnd: number, focusedHwnd: number): WinElement {
  const info = u.windowInfo(hwnd);
  const controlType = controlTypeOf(info.className, info.style);
  const password = controlType === "edit" && u.isPasswordEdit(hwnd);
  const base = {
    ref: String(hwnd),
    name: controlType === "edit" || controlType === "document" || controlType === "combobox" || controlType === "list" ? "" : info.title,
    controlType,
    automationId: info.id !== 0 ? String(info.id) : "",
    className: info.className,
    rect: info.rect,
    enabled: info.enabled,
    visible: info.visible && info.rect.width > 0 && info.rect.height > 0,
    focused: focusedHwnd === hwnd,
    password,
  };
  switch (controlType) {
    case "checkbox":
    case "radio":
      return { ...base, checked: u.checkState(hwnd) === u.BST_CHECKED };
    case "edit":
    case "document":
      return password ? base : { ...base, value: u.controlText(hwnd) };
    case "combobox": {
      const items = u.comboItems(hwnd);
      const i = u.comboSelection(hwnd);
      return { ...base, items, selected: i >= 0 && items[i] !== undefined ? [items[i]!] : [], value: u.controlText(hwnd) };
    }
    case "list": {
      const items = u.listItems(hwnd);
      const i = u.listSelection(hwnd);
      return { ...base, items, selected: i >= 0 && items[i] !== undefined ? [items[i]!] : [] };
    }
    default:
      return base;
  }
}

/** Classic controls: the child-window tree, read and driven through window messages. */
export function win32Backend(): ElementBackend {
  return {
    name: "win32",
    canSearch: async () => true,
    elements: async (w) => {
      const root = hwndOf(w.handle);
      // A combo box's own edit child is part of the combo box, not a control of its own.
      const focused = u.focusedControl(u.windowProcess(root).threadId);
      return u.children(root).filter((c) => !u.className(u.parentOf(c)).toLowerCase().startsWith("combobox")).map((c) => element(c, focused));
    },
    focus: async (el) => {
      // SetFocus works for the caller's own input queue: join the control's thread's queue for the call.
      const hwnd = hwndOf(el.ref);
      const { threadId } = u.windowProcess(hwnd);
      const me = currentThreadId();
      const attach = threadId !== me && u.user32().AttachThreadInput(me, threadId, 1) !== 0;
      try {
        u.user32().SetFocus(hwnd as unknown as Parameters<ReturnType<typeof u.user32>["SetFocus"]>[0]);
      } finally {
        if (attach) u.user32().AttachThreadInput(me, threadId, 0);
      }
    },
    selectAll: async (el) => {
      u.selectAllText(hwndOf(el.ref));
    },
    invoke: async (el) => {
      u.clickButton(hwndOf(el.ref));
    },
    select: async (el, values) => {
      const hwnd = hwndOf(el.ref);
      const items = el.items ?? [];
      const index = items.indexOf(values[0] ?? "");
      if (values.length > 1) return "selecting several items is not implemented for list boxes yet";
      const ok = el.controlType === "combobox" ? u.selectComboItem(hwnd, index) : u.selectListItem(hwnd, index);
      return ok ? undefined : `the control refused item ${JSON.stringify(values[0])}`;
    },
  };
}

/** The desktop and backends on Windows: UI Automation first when it can search a window, else the Win32 tree. */
export async function createWin32Access(): Promise<DesktopAccess> {
  const uia = await ffiUiaApi();
  return { desktop: win32Desktop(), backends: [...(uia ? [uiaBackend(uia)] : []), win32Backend()] };
}
