// List views (SysListView32): the items on screen, in display order, each an element (type
// `listitem`) named by its text, with its label's rectangle and whether it is selected. In report
// (details) mode each further column of a row is a `cell` element, and every item and cell knows
// its row and its column's header text, so `the "Type" column of the row containing "…"` names
// one. Read with LVM_GETITEMCOUNT, LVM_GETTOPINDEX, LVM_GETCOUNTPERPAGE, LVM_GETCOLUMNW,
// LVM_GETITEMTEXTW, LVM_GETITEMSTATE, LVM_GETITEMRECT and LVM_GETSUBITEMRECT.
import type { DesktopElement } from "../../../desktop/element.ts";
import { item, overlaps, rectFrom, SCRATCH, scratchText, screenRect, setPointer, type ControlContext, type ControlReader } from "./reader.ts";

const LVM_GETITEMCOUNT = 0x1004;
const LVM_GETITEMRECT = 0x100e;
const LVM_GETTOPINDEX = 0x1027;
const LVM_GETCOUNTPERPAGE = 0x1028;
const LVM_GETITEMSTATE = 0x102c;
const LVM_GETSUBITEMRECT = 0x1038;
const LVM_GETCOLUMNW = 0x105f;
const LVM_GETITEMTEXTW = 0x1073;
const LVM_GETVIEW = 0x108f;
const LVCF_TEXT = 0x4;
const LVIS_SELECTED = 0x2;
const LVIR_BOUNDS = 0;
const LVIR_LABEL = 2;
/** LV_VIEW_* (the LVS_* type bits of the style use the same numbers). */
const VIEW = { icon: 0, details: 1, smallIcon: 2, list: 3, tile: 4 } as const;
const LVS_TYPEMASK = 0x3;
/** Columns and icon-view items read at most. */
const MAX_COLUMNS = 64;
const MAX_ITEMS = 400;

/** Pure: an LVITEMW asking for the text of column `column` into `textAt`. */
export function lvTextItem(pointerSize: 4 | 8, column: number, textAt: number, chars: number): Uint8Array {
  const out = new Uint8Array(pointerSize === 8 ? 88 : 60);
  const v = new DataView(out.buffer);
  v.setInt32(8, column, true);
  const textOffset = pointerSize === 8 ? 24 : 20;
  setPointer(v, textOffset, textAt, pointerSize);
  v.setInt32(textOffset + pointerSize, chars, true);
  return out;
}

/** Pure: an LVCOLUMNW asking for the column's header text into `textAt`. */
export function lvColumn(pointerSize: 4 | 8, textAt: number, chars: number): Uint8Array {
  const out = new Uint8Array(pointerSize === 8 ? 56 : 44);
  const v = new DataView(out.buffer);
  v.setUint32(0, LVCF_TEXT, true);
  const textOffset = pointerSize === 8 ? 16 : 12;
  setPointer(v, textOffset, textAt, pointerSize);
  v.setInt32(textOffset + pointerSize, chars, true);
  return out;
}

/** Pure: the RECT LVM_GETITEMRECT / LVM_GETSUBITEMRECT read their question from (`top` = column, `left` = part). */
export function lvRectQuery(part: number, column = 0): Uint8Array {
  const out = new Uint8Array(16);
  const v = new DataView(out.buffer);
  v.setInt32(0, part, true);
  v.setInt32(4, column, true);
  return out;
}

/** Pure: which rows of `count` show: from the top row a page (and the one cut at its foot) in a list or report view; all (bounded) otherwise. */
export function rowsToRead(view: number, count: number, top: number, perPage: number): { from: number; to: number } {
  if (view === VIEW.details || view === VIEW.list) return { from: Math.max(0, top), to: Math.min(count, Math.max(0, top) + perPage + 1) };
  return { from: 0, to: Math.min(count, MAX_ITEMS) };
}

function viewOf(ctx: ControlContext, style: number): number {
  const v = ctx.send(LVM_GETVIEW, 0, 0);
  return v >= VIEW.icon && v <= VIEW.tile ? v : style & LVS_TYPEMASK;
}

export function listViewReader(styleOf: (hwnd: number) => number): ControlReader {
  return {
    classes: ["syslistview32"],
    read(ctx) {
      const memory = ctx.memory();
      if (!memory) return { items: [] };
      const p = memory.pointerSize;
      const text = (msg: number, index: number, query: Uint8Array): string => {
        memory.write(SCRATCH.struct, query);
        memory.write(SCRATCH.text, new Uint8Array(2));
        const n = ctx.send(msg, index, memory.base + SCRATCH.struct);
        return msg === LVM_GETITEMTEXTW ? scratchText(memory, Math.max(0, n)) : n !== 0 ? scratchText(memory) : "";
      };
      const rectOf = (msg: number, index: number, query: Uint8Array) => {
        memory.write(SCRATCH.rect, query);
        return ctx.send(msg, index, memory.base + SCRATCH.rect) !== 0
          ? screenRect(ctx, rectFrom(memory.read(SCRATCH.rect, 16)))
          : { x: 0, y: 0, width: 0, height: 0 };
      };
      const view = viewOf(ctx, styleOf(ctx.hwnd));
      const report = view === VIEW.details;
      const columns: string[] = [];
      if (report) {
        for (let c = 0; c < MAX_COLUMNS; c++) {
          memory.write(SCRATCH.struct, lvColumn(p, memory.base + SCRATCH.text, SCRATCH.textChars));
          memory.write(SCRATCH.text, new Uint8Array(2));
          if (ctx.send(LVM_GETCOLUMNW, c, memory.base + SCRATCH.struct) === 0) break;
          columns.push(scratchText(memory));
        }
      }
      const count = ctx.send(LVM_GETITEMCOUNT, 0, 0);
      const { from, to } = rowsToRead(view, count, ctx.send(LVM_GETTOPINDEX, 0, 0), ctx.send(LVM_GETCOUNTPERPAGE, 0, 0));
      const bounds = ctx.element.rect;
      const table = ctx.element.ref;
      const items: DesktopElement[] = [];
      for (let row = from; row < to; row++) {
        const name = text(LVM_GETITEMTEXTW, row, lvTextItem(p, 0, memory.base + SCRATCH.text, SCRATCH.textChars));
        const selected = (ctx.send(LVM_GETITEMSTATE, row, LVIS_SELECTED) & LVIS_SELECTED) !== 0;
        const rect = rectOf(LVM_GETITEMRECT, row, lvRectQuery(LVIR_LABEL));
        const shown = ctx.element.visible && overlaps(rect, bounds);
        items.push(
          item({
            ref: `${ctx.hwnd}/list/${row}`,
            name,
            controlType: "listitem",
            rect,
            enabled: ctx.element.enabled,
            visible: shown,
            itemSelected: selected,
            ...(report ? { cell: { table, row, column: columns[0] ?? "" } } : {}),
          }),
        );
        for (let c = 1; report && c < columns.length; c++) {
          const cellRect = rectOf(LVM_GETSUBITEMRECT, row, lvRectQuery(LVIR_BOUNDS, c));
          items.push(
            item({
              ref: `${ctx.hwnd}/list/${row}/${c}`,
              name: text(LVM_GETITEMTEXTW, row, lvTextItem(p, c, memory.base + SCRATCH.text, SCRATCH.textChars)),
              controlType: "cell",
              rect: cellRect,
              enabled: ctx.element.enabled,
              visible: ctx.element.visible && overlaps(cellRect, bounds),
              cell: { table, row, column: columns[c]! },
            }),
          );
        }
      }
      return { items };
    },
  };
}
