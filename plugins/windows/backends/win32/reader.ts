// The contract of the Win32 backend's control readers: a common control whose items are not child
// windows (tabs, tree and list items, header items, toolbar buttons, status bar parts) is read
// through its own messages, one small module per kind. Most of those messages carry a pointer,
// which must point into the control's own process: readers get a scratch block there, and the
// layout of the structures they put in it (pure, by the pointer size of that process).
import type { Rect } from "../../../../src/plugins/api.ts";
import type { DesktopElement } from "../../../desktop/element.ts";
import type { RemoteMemory } from "../../ffi/process-memory.ts";
import { fromWide } from "../../ffi/wide.ts";

/** Offsets in the scratch block: a structure, a rectangle, a text buffer. */
export const SCRATCH = { struct: 0, rect: 512, text: 1024, textChars: 2048, size: 8192 } as const;

/** What a reader is given: the control's window and a scratch block in its process. */
export interface ControlContext {
  readonly hwnd: number;
  /** The control's element as the window walk read it (its ref, rect, enabled state). */
  readonly element: DesktopElement;
  /** A scratch block in the control's process; undefined when the process cannot be opened. */
  memory(): RemoteMemory | undefined;
  /** A message to the control (SendMessageW, bounded so a hung program cannot hang the read). */
  send(msg: number, wParam: number, lParam: number): number;
  /** The same to another window of the control's process (a toolbar's tooltip control). */
  sendTo(hwnd: number, msg: number, wParam: number, lParam: number): number;
  /** A point of the control's client area in screen pixels. */
  toScreen(x: number, y: number): { x: number; y: number };
}

/** What a reader makes of a control: facts about the control itself, and its items as elements. */
export interface ControlReading {
  readonly self?: Partial<Pick<DesktopElement, "name" | "value">>;
  readonly items: readonly DesktopElement[];
}

export interface ControlReader {
  /** The window classes (lower case) this reader reads. */
  readonly classes: readonly string[];
  read(ctx: ControlContext): ControlReading;
}

/** Pure: a RECT (left, top, right, bottom) as x, y, width, height. */
export function rectFrom(bytes: Uint8Array): Rect {
  const v = new DataView(bytes.buffer, bytes.byteOffset, 16);
  const left = v.getInt32(0, true);
  const top = v.getInt32(4, true);
  return { x: left, y: top, width: v.getInt32(8, true) - left, height: v.getInt32(12, true) - top };
}

/** A client-area rectangle of the control in screen pixels. */
export function screenRect(ctx: ControlContext, r: Rect): Rect {
  const p = ctx.toScreen(r.x, r.y);
  return { x: p.x, y: p.y, width: r.width, height: r.height };
}

/** Pure: whether `inner` shows inside `outer` at all. */
export function overlaps(inner: Rect, outer: Rect): boolean {
  return (
    inner.width > 0 &&
    inner.height > 0 &&
    inner.x < outer.x + outer.width &&
    inner.x + inner.width > outer.x &&
    inner.y < outer.y + outer.height &&
    inner.y + inner.height > outer.y
  );
}

/** The text a message left in the scratch block's text buffer. */
export function scratchText(memory: RemoteMemory, units?: number): string {
  return fromWide(memory.read(SCRATCH.text, SCRATCH.textChars * 2), units);
}

/** Pure: writes a pointer-sized value at `offset` (4 or 8 bytes, little-endian). */
export function setPointer(view: DataView, offset: number, value: number, pointerSize: 4 | 8): void {
  if (pointerSize === 8) view.setBigUint64(offset, BigInt(value), true);
  else view.setUint32(offset, value >>> 0, true);
}

/** An item element with the defaults of a control's part: no id, not focused, never a password. */
export function item(fields: Pick<DesktopElement, "ref" | "name" | "controlType" | "rect" | "enabled" | "visible"> & Partial<DesktopElement>): DesktopElement {
  return { automationId: "", focused: false, password: false, ...fields };
}
