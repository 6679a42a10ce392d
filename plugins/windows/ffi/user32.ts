// user32 through bun:ffi: top-level and child windows, their text, class, ids, styles and
// geometry, the foreground, window messages for the classic controls (edit, button, combo and
// list boxes) and real input with SendInput. user32.dll is opened on first use, never at import.
import { dlopen, FFIType, JSCallback, ptr, type Pointer } from "bun:ffi";
import { chordInputs, clickInputs, encodeInputs, INPUT_SIZE, KEYEVENTF_KEYUP, textInputs, VK, type InputEvent, type KeyModifier } from "./input.ts";
import { fromWide, wideBuffer, wstr } from "./wide.ts";

/** A window handle as a number (0: none). */
export type Hwnd = number;

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

// Messages
export const WM_SETTEXT = 0x000c;
export const WM_GETTEXT = 0x000d;
export const WM_GETTEXTLENGTH = 0x000e;
export const WM_CLOSE = 0x0010;
export const WM_KEYDOWN = 0x0100;
export const WM_KEYUP = 0x0101;
export const WM_CHAR = 0x0102;
export const WM_COMMAND = 0x0111;
export const EM_SETSEL = 0x00b1;
export const BM_GETCHECK = 0x00f0;
export const BM_SETCHECK = 0x00f1;
export const BM_CLICK = 0x00f5;
export const BST_UNCHECKED = 0;
export const BST_CHECKED = 1;
export const BST_INDETERMINATE = 2;
export const CB_GETCOUNT = 0x0146;
export const CB_GETCURSEL = 0x0147;
export const CB_GETLBTEXT = 0x0148;
export const CB_GETLBTEXTLEN = 0x0149;
export const CB_SETCURSEL = 0x014e;
export const CB_SHOWDROPDOWN = 0x014f;
export const CB_ERR = -1;
export const CBN_SELCHANGE = 1;
export const LB_SETSEL = 0x0185;
export const LB_SETCURSEL = 0x0186;
export const LB_GETSEL = 0x0187;
export const LB_GETCURSEL = 0x0188;
export const LB_GETTEXT = 0x0189;
export const LB_GETTEXTLEN = 0x018a;
export const LB_GETCOUNT = 0x018b;
export const LB_ERR = -1;
export const LBN_SELCHANGE = 1;

// Window longs and styles
export const GWL_STYLE = -16;
export const GWL_EXSTYLE = -20;
export const GWLP_ID = -12;
export const WS_DISABLED = 0x08000000;
export const WS_VISIBLE = 0x10000000;
export const WS_CHILD = 0x40000000;
export const ES_MULTILINE = 0x0004;
export const ES_PASSWORD = 0x0020;
export const ES_READONLY = 0x0800;
export const BS_TYPEMASK = 0x000f;
export const BS_CHECKBOX = 0x2;
export const BS_AUTOCHECKBOX = 0x3;
export const BS_RADIOBUTTON = 0x4;
export const BS_3STATE = 0x5;
export const BS_AUTO3STATE = 0x6;
export const BS_GROUPBOX = 0x7;
export const BS_AUTORADIOBUTTON = 0x9;

// ShowWindow, SetWindowPos, GetWindow
export const SW_HIDE = 0;
export const SW_SHOWNORMAL = 1;
export const SW_MINIMIZE = 6;
export const SW_SHOW = 5;
export const SW_RESTORE = 9;
export const SWP_NOSIZE = 0x1;
export const SWP_NOMOVE = 0x2;
export const SWP_NOZORDER = 0x4;
export const SWP_NOACTIVATE = 0x10;
export const SWP_SHOWWINDOW = 0x40;
export const GW_OWNER = 4;
export const SM_CXSCREEN = 0;
export const SM_CYSCREEN = 1;

function open() {
  const P = FFIType.ptr;
  const { i32, u32, i64, i64_fast: i64f, u64 } = FFIType;
  return dlopen("user32.dll", {
    EnumWindows: { args: [P, i64], returns: i32 },
    EnumChildWindows: { args: [P, P, i64], returns: i32 },
    FindWindowW: { args: [P, P], returns: P },
    FindWindowExW: { args: [P, P, P, P], returns: P },
    GetWindowTextW: { args: [P, P, i32], returns: i32 },
    GetWindowTextLengthW: { args: [P], returns: i32 },
    GetClassNameW: { args: [P, P, i32], returns: i32 },
    GetWindowThreadProcessId: { args: [P, P], returns: u32 },
    GetDlgCtrlID: { args: [P], returns: i32 },
    GetParent: { args: [P], returns: P },
    GetWindow: { args: [P, u32], returns: P },
    IsWindow: { args: [P], returns: i32 },
    IsWindowVisible: { args: [P], returns: i32 },
    IsWindowEnabled: { args: [P], returns: i32 },
    IsIconic: { args: [P], returns: i32 },
    GetWindowRect: { args: [P, P], returns: i32 },
    GetClientRect: { args: [P, P], returns: i32 },
    ClientToScreen: { args: [P, P], returns: i32 },
    SetWindowPos: { args: [P, P, i32, i32, i32, i32, u32], returns: i32 },
    SetForegroundWindow: { args: [P], returns: i32 },
    GetForegroundWindow: { args: [], returns: P },
    BringWindowToTop: { args: [P], returns: i32 },
    ShowWindow: { args: [P, i32], returns: i32 },
    SetFocus: { args: [P], returns: P },
    AttachThreadInput: { args: [u32, u32, i32], returns: i32 },
    GetGUIThreadInfo: { args: [u32, P], returns: i32 },
    SendMessageW: { args: [P, u32, u64, i64], returns: i64f },
    SendMessageTimeoutW: { args: [P, u32, u64, i64, u32, u32, P], returns: i64f },
    PostMessageW: { args: [P, u32, u64, i64], returns: i32 },
    GetWindowLongPtrW: { args: [P, i32], returns: i64f },
    SendInput: { args: [u32, P, i32], returns: u32 },
    GetSystemMetrics: { args: [i32], returns: i32 },
    SetCursorPos: { args: [i32, i32], returns: i32 },
    GetMenu: { args: [P], returns: P },
    GetMenuItemCount: { args: [P], returns: i32 },
    GetMenuItemInfoW: { args: [P, u32, i32, P], returns: i32 },
    GetMenuItemRect: { args: [P, P, u32, P], returns: i32 },
  }).symbols;
}

let lib: ReturnType<typeof open> | undefined;
/** The user32 symbols (opened on first use). */
export const user32 = (): ReturnType<typeof open> => (lib ??= open());

const h = (hwnd: Hwnd): Pointer => hwnd as Pointer;
const num = (p: Pointer | number | bigint | null): number => (p === null ? 0 : Number(p));

// ---------------------------------------------------------------------------------------------
// Enumeration and lookup

function enumerate(parent: Hwnd | undefined): Hwnd[] {
  const found: Hwnd[] = [];
  const cb = new JSCallback(
    (hwnd: Pointer | number | null) => {
      found.push(num(hwnd));
      return 1;
    },
    { args: [FFIType.ptr, FFIType.i64], returns: FFIType.i32 },
  );
  try {
    if (parent === undefined) user32().EnumWindows(cb.ptr, 0);
    else user32().EnumChildWindows(h(parent), cb.ptr, 0);
  } finally {
    cb.close();
  }
  return found;
}

/** Every top-level window handle, in Z order (EnumWindows). */
export function topLevelWindows(): Hwnd[] {
  return enumerate(undefined);
}

/** Every descendant window of `hwnd`, depth first (EnumChildWindows). */
export function children(hwnd: Hwnd): Hwnd[] {
  return enumerate(hwnd);
}

/** What one window is: the facts the drivers match and report on. */
export interface WindowInfo {
  readonly hwnd: Hwnd;
  readonly title: string;
  readonly className: string;
  readonly pid: number;
  readonly threadId: number;
  /** GetDlgCtrlID: a child control's id (0 for most top-level windows). */
  readonly id: number;
  readonly style: number;
  readonly visible: boolean;
  readonly enabled: boolean;
  /** The owner window (a dialog's parent), 0 when none. */
  readonly owner: Hwnd;
  readonly rect: Rect;
}

export function windowInfo(hwnd: Hwnd): WindowInfo {
  const { pid, threadId } = windowProcess(hwnd);
  return {
    hwnd,
    title: windowText(hwnd),
    className: className(hwnd),
    pid,
    threadId,
    id: controlId(hwnd),
    style: windowStyle(hwnd),
    visible: isVisible(hwnd),
    enabled: isEnabled(hwnd),
    owner: num(user32().GetWindow(h(hwnd), GW_OWNER)),
    rect: windowRect(hwnd),
  };
}

/** The top-level windows whose info satisfies `predicate`. */
export function findWindows(predicate: (w: WindowInfo) => boolean = () => true): WindowInfo[] {
  return topLevelWindows().map(windowInfo).filter(predicate);
}

/** FindWindowW: the first top-level window with this class and/or title (undefined matches any); 0 when none. */
export function findWindow(className?: string, title?: string): Hwnd {
  return num(user32().FindWindowW(className === undefined ? null : wstr(className), title === undefined ? null : wstr(title)));
}

/** FindWindowExW: the next child of `parent` after `after` with this class and/or title; 0 when none. */
export function findChild(parent: Hwnd, className?: string, title?: string, after: Hwnd = 0): Hwnd {
  return num(user32().FindWindowExW(h(parent), h(after), className === undefined ? null : wstr(className), title === undefined ? null : wstr(title)));
}

// ---------------------------------------------------------------------------------------------
// Facts about one window

/** GetWindowTextW: a window's caption. For a control in another process use controlText (WM_GETTEXT). */
export function windowText(hwnd: Hwnd): string {
  const len = user32().GetWindowTextLengthW(h(hwnd));
  if (len <= 0) return "";
  const buf = wideBuffer(len + 1);
  const n = user32().GetWindowTextW(h(hwnd), buf, len + 1);
  return fromWide(buf, n);
}

export function className(hwnd: Hwnd): string {
  const buf = wideBuffer(257);
  const n = user32().GetClassNameW(h(hwnd), buf, 257);
  return fromWide(buf, n);
}

/** The process and thread that created `hwnd`. */
export function windowProcess(hwnd: Hwnd): { pid: number; threadId: number } {
  const pid = new Uint32Array(1);
  const threadId = user32().GetWindowThreadProcessId(h(hwnd), pid);
  return { pid: pid[0] ?? 0, threadId };
}

/** GetDlgCtrlID: the control id a classic control was created with. */
export function controlId(hwnd: Hwnd): number {
  return user32().GetDlgCtrlID(h(hwnd));
}

/** GetWindowLongPtrW(GWL_STYLE) as an unsigned 32-bit value. */
export function windowStyle(hwnd: Hwnd): number {
  return Number(user32().GetWindowLongPtrW(h(hwnd), GWL_STYLE)) >>> 0;
}

export function isPasswordEdit(hwnd: Hwnd): boolean {
  return className(hwnd).toLowerCase() === "edit" && (windowStyle(hwnd) & ES_PASSWORD) !== 0;
}

export const isWindow = (hwnd: Hwnd): boolean => hwnd !== 0 && user32().IsWindow(h(hwnd)) !== 0;
export const isVisible = (hwnd: Hwnd): boolean => user32().IsWindowVisible(h(hwnd)) !== 0;
export const isEnabled = (hwnd: Hwnd): boolean => user32().IsWindowEnabled(h(hwnd)) !== 0;
export const parentOf = (hwnd: Hwnd): Hwnd => num(user32().GetParent(h(hwnd)));

const rectOf = (r: Int32Array): Rect => ({ x: r[0] ?? 0, y: r[1] ?? 0, width: (r[2] ?? 0) - (r[0] ?? 0), height: (r[3] ?? 0) - (r[1] ?? 0) });

/** GetWindowRect: the window's rectangle in screen pixels. */
export function windowRect(hwnd: Hwnd): Rect {
  const r = new Int32Array(4);
  user32().GetWindowRect(h(hwnd), r);
  return rectOf(r);
}

/** The client area in screen pixels (GetClientRect moved by ClientToScreen). */
export function clientRect(hwnd: Hwnd): Rect {
  const r = new Int32Array(4);
  user32().GetClientRect(h(hwnd), r);
  const origin = clientToScreen(hwnd, 0, 0);
  return { x: origin.x, y: origin.y, width: (r[2] ?? 0) - (r[0] ?? 0), height: (r[3] ?? 0) - (r[1] ?? 0) };
}

export function clientToScreen(hwnd: Hwnd, x: number, y: number): { x: number; y: number } {
  const p = new Int32Array([x, y]);
  user32().ClientToScreen(h(hwnd), p);
  return { x: p[0] ?? 0, y: p[1] ?? 0 };
}

/** SetWindowPos without changing the Z order; answers the rectangle the window has afterwards. */
export function placeWindow(hwnd: Hwnd, rect: Rect): Rect {
  user32().SetWindowPos(h(hwnd), null, rect.x, rect.y, rect.width, rect.height, SWP_NOZORDER | SWP_NOACTIVATE);
  return windowRect(hwnd);
}

/** The control with the keyboard focus in the GUI thread `threadId` (another process's too), 0 when none. */
export function focusedControl(threadId: number): Hwnd {
  // GUITHREADINFO on x64: cbSize, flags, then hwndActive @8, hwndFocus @16 … rcCaret; 72 bytes.
  const info = new BigUint64Array(9);
  new Uint32Array(info.buffer)[0] = 72;
  if (user32().GetGUIThreadInfo(threadId, info) === 0) return 0;
  return Number(info[2] ?? 0n);
}

// ---------------------------------------------------------------------------------------------
// Foreground

export const foregroundWindow = (): Hwnd => num(user32().GetForegroundWindow());
export const setForegroundWindow = (hwnd: Hwnd): boolean => user32().SetForegroundWindow(h(hwnd)) !== 0;
export const bringWindowToTop = (hwnd: Hwnd): boolean => user32().BringWindowToTop(h(hwnd)) !== 0;
export const showWindow = (hwnd: Hwnd, command: number): boolean => user32().ShowWindow(h(hwnd), command) !== 0;

/**
 * Makes `hwnd` the foreground window: restore when minimised, bring to top, SetForegroundWindow;
 * when Windows refuses (foreground lock), tap Alt and attach to the foreground thread's input once,
 * then try again. True when `hwnd` is the foreground window afterwards.
 */
export function bringToForeground(hwnd: Hwnd, currentThreadId?: number): boolean {
  if (foregroundWindow() === hwnd) return true;
  if (user32().IsIconic(h(hwnd)) !== 0) showWindow(hwnd, SW_RESTORE);
  bringWindowToTop(hwnd);
  setForegroundWindow(hwnd);
  if (foregroundWindow() === hwnd) return true;
  sendInputs([
    { type: "key", vk: VK.MENU, scan: 0, flags: 0 },
    { type: "key", vk: VK.MENU, scan: 0, flags: KEYEVENTF_KEYUP },
  ]);
  const fg = foregroundWindow();
  const fgThread = fg === 0 ? 0 : windowProcess(fg).threadId;
  const attach = currentThreadId !== undefined && fgThread !== 0 && fgThread !== currentThreadId;
  if (attach) user32().AttachThreadInput(currentThreadId, fgThread, 1);
  try {
    bringWindowToTop(hwnd);
    setForegroundWindow(hwnd);
  } finally {
    if (attach) user32().AttachThreadInput(currentThreadId, fgThread, 0);
  }
  return foregroundWindow() === hwnd;
}

// ---------------------------------------------------------------------------------------------
// Messages

const lparam = (v: number | Uint8Array): number => (typeof v === "number" ? v : ptr(v));

export function sendMessage(hwnd: Hwnd, msg: number, wParam: number = 0, lParam: number | Uint8Array = 0): number {
  return Number(user32().SendMessageW(h(hwnd), msg, wParam, lparam(lParam)));
}

/** SendMessageW bounded by `timeoutMs` (SMTO_ABORTIFHUNG): undefined when the window did not answer. */
export function sendMessageTimeout(hwnd: Hwnd, msg: number, wParam: number, lParam: number | Uint8Array, timeoutMs: number): number | undefined {
  const result = new BigUint64Array(1);
  const ok = user32().SendMessageTimeoutW(h(hwnd), msg, wParam, lparam(lParam), 0x2, timeoutMs, result);
  return Number(ok) === 0 ? undefined : Number(result[0] ?? 0n);
}

export function postMessage(hwnd: Hwnd, msg: number, wParam: number = 0, lParam: number = 0): boolean {
  return user32().PostMessageW(h(hwnd), msg, wParam, lParam) !== 0;
}

/** WM_GETTEXT: a control's text, also across processes (an edit's contents). */
export function controlText(hwnd: Hwnd): string {
  const len = sendMessage(hwnd, WM_GETTEXTLENGTH);
  if (len <= 0) return "";
  const buf = wideBuffer(len + 1);
  const n = sendMessage(hwnd, WM_GETTEXT, len + 1, buf);
  return fromWide(buf, n);
}

/** WM_SETTEXT; true when the control accepted it. */
export function setControlText(hwnd: Hwnd, text: string): boolean {
  return sendMessage(hwnd, WM_SETTEXT, 0, wstr(text)) !== 0;
}

/** EM_SETSEL over the whole text of an edit. */
export function selectAllText(hwnd: Hwnd): void {
  sendMessage(hwnd, EM_SETSEL, 0, -1);
}

/** One WM_CHAR per UTF-16 unit, posted to `hwnd` (no focus needed; a line break is `\r`). */
export function postChars(hwnd: Hwnd, text: string): void {
  for (const unit of text.replace(/\r?\n/g, "\r")) postMessage(hwnd, WM_CHAR, unit.charCodeAt(0), 1);
}

/** BM_CLICK: presses a button as a user click would (the parent gets BN_CLICKED). */
export function clickButton(hwnd: Hwnd): void {
  sendMessage(hwnd, BM_CLICK);
}

/** BM_GETCHECK: BST_UNCHECKED, BST_CHECKED or BST_INDETERMINATE. */
export function checkState(hwnd: Hwnd): number {
  return sendMessage(hwnd, BM_GETCHECK);
}

export function setCheckState(hwnd: Hwnd, state: number): void {
  sendMessage(hwnd, BM_SETCHECK, state);
}

/** True for a check box or radio button (BS_* type from the style). */
export function isCheckable(hwnd: Hwnd): boolean {
  const type = windowStyle(hwnd) & BS_TYPEMASK;
  return (
    className(hwnd).toLowerCase() === "button" && [BS_CHECKBOX, BS_AUTOCHECKBOX, BS_RADIOBUTTON, BS_3STATE, BS_AUTO3STATE, BS_AUTORADIOBUTTON].includes(type)
  );
}

function itemTexts(hwnd: Hwnd, count: number, lenMsg: number, textMsg: number): string[] {
  const n = sendMessage(hwnd, count);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = sendMessage(hwnd, lenMsg, i);
    if (len < 0) {
      out.push("");
      continue;
    }
    const buf = wideBuffer(len + 1);
    const got = sendMessage(hwnd, textMsg, i, buf);
    out.push(fromWide(buf, Math.max(0, got)));
  }
  return out;
}

export const comboItems = (hwnd: Hwnd): string[] => itemTexts(hwnd, CB_GETCOUNT, CB_GETLBTEXTLEN, CB_GETLBTEXT);
export const listItems = (hwnd: Hwnd): string[] => itemTexts(hwnd, LB_GETCOUNT, LB_GETTEXTLEN, LB_GETTEXT);
/** The selected item's index, -1 when none. */
export const comboSelection = (hwnd: Hwnd): number => sendMessage(hwnd, CB_GETCURSEL);
export const listSelection = (hwnd: Hwnd): number => sendMessage(hwnd, LB_GETCURSEL);

/** Tells the parent of control `hwnd` about a notification, as the control itself would (WM_COMMAND). */
function notifyParent(hwnd: Hwnd, code: number): void {
  const parent = parentOf(hwnd);
  if (parent !== 0) sendMessage(parent, WM_COMMAND, ((code & 0xffff) << 16) | (controlId(hwnd) & 0xffff), hwnd);
}

/** Selects item `index` of a combo box and notifies its parent (CBN_SELCHANGE); false when out of range. */
export function selectComboItem(hwnd: Hwnd, index: number): boolean {
  if (sendMessage(hwnd, CB_SETCURSEL, index) !== index) return false;
  notifyParent(hwnd, CBN_SELCHANGE);
  return true;
}

/** Selects item `index` of a single-selection list box and notifies its parent (LBN_SELCHANGE). */
export function selectListItem(hwnd: Hwnd, index: number): boolean {
  if (sendMessage(hwnd, LB_SETCURSEL, index) === LB_ERR && index !== -1) return false;
  notifyParent(hwnd, LBN_SELCHANGE);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Menus (read from this process: another process's menu answers here on Windows, not on Wine)

/** GetMenu: a top-level window's menu bar, 0 when it has none. */
export const menuOf = (hwnd: Hwnd): number => num(user32().GetMenu(h(hwnd)));
/** GetMenuItemCount; -1 when the menu cannot be read from here. */
export const menuItemCount = (menu: number): number => user32().GetMenuItemCount(h(menu));
/** GetMenuItemInfoW by position into `info` (a MENUITEMINFOW); false when it failed. */
export const menuItemInfo = (menu: number, index: number, info: Uint8Array): boolean => user32().GetMenuItemInfoW(h(menu), index, 1, info) !== 0;
/** GetMenuItemRect into `rect` (screen pixels); false when the item has no place on screen. */
export const menuItemRect = (owner: Hwnd, menu: number, index: number, rect: Uint8Array): boolean =>
  user32().GetMenuItemRect(h(owner), h(menu), index, rect) !== 0;

// ---------------------------------------------------------------------------------------------
// Real input (goes to whichever window has the foreground: callers check it first)

/** SendInput of `events`; answers how many the system accepted. */
export function sendInputs(events: readonly InputEvent[]): number {
  if (events.length === 0) return 0;
  return user32().SendInput(events.length, encodeInputs(events), INPUT_SIZE);
}

/** Types `text` as Unicode keystrokes; true when every event was accepted. */
export function typeText(text: string): boolean {
  const events = textInputs(text);
  return sendInputs(events) === events.length;
}

/** Presses `key` (Enter, F4, a, …) with `modifiers` held. */
export function pressKey(key: string, modifiers: readonly KeyModifier[] = []): boolean {
  const events = chordInputs(key, modifiers);
  return sendInputs(events) === events.length;
}

export function screenSize(): { width: number; height: number } {
  return { width: user32().GetSystemMetrics(SM_CXSCREEN), height: user32().GetSystemMetrics(SM_CYSCREEN) };
}

/** A real mouse click (or double click) at screen point (x, y). */
export function clickAt(x: number, y: number, button: "left" | "right" = "left", count: 1 | 2 = 1): boolean {
  user32().SetCursorPos(x, y);
  const events = clickInputs(x, y, screenSize(), button, count);
  return sendInputs(events) === events.length;
}
