// The Win32 desktop and element backend over the bun:ffi bindings: top-level windows and their
// child-window tree (classic controls: control id = AutomationId, window text = name, class and
// style = control type), messages for values and selections, SendInput for keystrokes and clicks,
// BitBlt for frames. The backend that works for classic controls under Wine.
import type { Pointer } from "bun:ffi";
import type { Desktop, DesktopAccess, Launched, TopWindow } from "../backend.ts";
import type { ElementBackend } from "../../desktop/backend.ts";
import type { ControlType, DesktopElement } from "../../desktop/element.ts";
import * as u from "../ffi/user32.ts";
import { captureWindow } from "../ffi/gdi32.ts";
import { assignToJob, createKillOnCloseJob, currentProcessId, currentThreadId } from "../ffi/kernel32.ts";
import { ffiUiaApi, uiaBackend } from "./uia.ts";
import { openRemoteMemory, type RemoteMemory } from "../ffi/process-memory.ts";
import type { ControlContext, ControlReader } from "./win32/reader.ts";
import { SCRATCH } from "./win32/reader.ts";
import { tabReader } from "./win32/tab.ts";
import { treeViewReader } from "./win32/tree-view.ts";
import { listViewReader } from "./win32/list-view.ts";
import { headerReader } from "./win32/header.ts";
import { toolbarReader } from "./win32/toolbar.ts";
import { statusBarReader } from "./win32/status-bar.ts";
import { menuReader, POPUP_MENU_CLASS, windowMenuElements, type MenuReader } from "./win32/menu.ts";

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
  return CONTAINER_TYPES.get(c) ?? "other";
}

/** The common controls whose items the readers in ./win32/ read, by class. */
const CONTAINER_TYPES: ReadonlyMap<string, ControlType> = new Map<string, ControlType>([
  ["systabcontrol32", "tablist"],
  ["systreeview32", "tree"],
  ["syslistview32", "table"],
  ["sysheader32", "header"],
  ["toolbarwindow32", "toolbar"],
  ["msctls_statusbar32", "statusbar"],
]);

const READERS: readonly ControlReader[] = [tabReader, treeViewReader, listViewReader(u.windowStyle), headerReader, toolbarReader, statusBarReader];
const readerFor = (className: string): ControlReader | undefined => READERS.find((r) => r.classes.includes(className.toLowerCase()));
/** How long a control may take to answer one message before its items are given up for this read. */
const MESSAGE_TIMEOUT_MS = 1_000;

const hwndOf = (handle: string): number => Number(handle);

function topWindow(info: u.WindowInfo): TopWindow {
  return {
    handle: String(info.hwnd),
    title: info.title,
    className: info.className,
    pid: info.pid,
    visible: info.visible,
    ...(info.owner !== 0 ? { owner: String(info.owner) } : {}),
  };
}

/** The stderr tail a started program leaves. */
const STDERR_TAIL = 4_000;

/** The kill-on-close job of the programs this process started (null: not made yet; undefined: refused). */
let job: Pointer | undefined | null = null;
/** Whether this process is in the job (false: the system refused; programs are assigned one by one). */
let selfInJob = true;

/**
 * Puts this process in the kill-on-close job before it starts a program to tie: a process in a
 * job starts its children in it, so the program and whatever it starts are in the job from their
 * first instruction (a launcher such as `cmd /c start` hands the start on at once, before a
 * program could be assigned after it started), and end when this process ends, even killed
 * outright (no exit hook runs then). Best effort: when the system refuses, each program is
 * assigned once started, and the exit hook ends them when this process exits.
 */
function tieBeforeStart(): void {
  if (job !== null) return;
  job = createKillOnCloseJob();
  if (job !== undefined && !assignToJob(job, currentProcessId())) selfInJob = false;
}
/** Ties a started program that was not born in the job (the system refused this process's own assignment). */
function tieStarted(pid: number): void {
  if (job !== undefined && job !== null && !selfInJob) assignToJob(job, pid);
}

function launch(exe: string, args: string, options: { readonly handOff?: boolean; readonly program?: string } = {}): Launched {
  // The command line reaches the program exactly as written: its first word as written (a path
  // with spaces keeps its quotes, through argv0) and the arguments verbatim (no quoting added).
  if (!options.handOff) tieBeforeStart();
  const proc = Bun.spawn([exe, ...(args === "" ? [] : [args])], {
    argv0: options.program ?? exe,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    windowsVerbatimArguments: true,
  });
  if (!options.handOff) tieStarted(proc.pid);
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
      // What the screen shows over the window: its own dialogs and popups included. A screen that
      // cannot be read (a locked session) falls back to the window's own pixels.
      let shot;
      try {
        shot = captureWindow(hwndOf(w.handle), { area: "screen" });
      } catch {
        shot = captureWindow(hwndOf(w.handle));
      }
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

function element(hwnd: number, focusedHwnd: number): DesktopElement {
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

/** A control's items by its reader, with a scratch block in its process shared by one read of the window. */
function readItems(reader: ControlReader, hwnd: number, el: DesktopElement, memory: () => RemoteMemory | undefined): DesktopElement[] {
  const send = (to: number, msg: number, wParam: number, lParam: number) => u.sendMessageTimeout(to, msg, wParam, lParam, MESSAGE_TIMEOUT_MS) ?? 0;
  const ctx: ControlContext = {
    hwnd,
    element: el,
    memory,
    send: (msg, wParam, lParam) => send(hwnd, msg, wParam, lParam),
    sendTo: send,
    toScreen: (x, y) => u.clientToScreen(hwnd, x, y),
  };
  try {
    const reading = reader.read(ctx);
    return [{ ...el, ...reading.self }, ...reading.items];
  } catch {
    // The control went away (or its process ended) during the read: it shows no items this time.
    return [el];
  }
}

/** The open popup menus (`#32768`) of process `pid`. */
function popupMenus(pid: number): number[] {
  return u.topLevelWindows().filter((hwnd) => u.isVisible(hwnd) && u.className(hwnd) === POPUP_MENU_CLASS && u.windowProcess(hwnd).pid === pid);
}

/** A child-window ref is its handle; an item's is `<control handle>/<kind>/…`. */
const ownerOf = (el: DesktopElement): number => hwndOf(el.ref.split("/")[0]!);
const isItem = (el: DesktopElement): boolean => el.ref.includes("/");

/** Classic controls: the child-window tree, read and driven through window messages; common controls' items through their own messages. */
export function win32Backend(menus: MenuReader = menuReader()): ElementBackend {
  return {
    name: "win32",
    canSearch: async () => true,
    elements: async (w) => {
      // A popup menu's items are read with the window that opened it, which keeps the keyboard.
      if (w.className === POPUP_MENU_CLASS) return [];
      const root = hwndOf(w.handle);
      const focused = u.focusedControl(u.windowProcess(root).threadId);
      let block: RemoteMemory | string | undefined;
      const memory = () => {
        block ??= openRemoteMemory(w.pid, SCRATCH.size);
        return typeof block === "string" ? undefined : block;
      };
      try {
        const out: DesktopElement[] = [];
        // A combo box's own edit child is part of the combo box, not a control of its own.
        for (const c of u.children(root).filter((c) => !u.className(u.parentOf(c)).toLowerCase().startsWith("combobox"))) {
          const el = element(c, focused);
          const reader = el.className === undefined ? undefined : readerFor(el.className);
          out.push(...(reader ? readItems(reader, c, el, memory) : [el]));
        }
        out.push(...windowMenuElements(menus, root, w.pid, popupMenus(w.pid)));
        return out;
      } finally {
        if (typeof block === "object") block.close();
      }
    },
    focus: async (el) => {
      // SetFocus works for the caller's own input queue: join the control's thread's queue for the call.
      const hwnd = ownerOf(el);
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
      // An item (a toolbar button) has no message that presses it as a user does: it is clicked.
      if (isItem(el)) u.clickAt(Math.round(el.rect.x + el.rect.width / 2), Math.round(el.rect.y + el.rect.height / 2), "left", 1);
      else u.clickButton(hwndOf(el.ref));
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
