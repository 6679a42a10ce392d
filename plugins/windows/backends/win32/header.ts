// Header controls (SysHeader32, a list view's column headers among them): each column header is
// an element (type `headeritem`) named by its text, with its rectangle (a click on it is the
// program's to handle, often sorting). Read with HDM_GETITEMCOUNT, HDM_GETITEMW, HDM_GETITEMRECT.
import { item, overlaps, rectFrom, SCRATCH, scratchText, screenRect, setPointer, type ControlReader } from "./reader.ts";

const HDM_GETITEMCOUNT = 0x1200;
const HDM_GETITEMRECT = 0x1207;
const HDM_GETITEMW = 0x120b;
const HDI_TEXT = 0x2;
const MAX_COLUMNS = 64;

/** Pure: an HDITEMW asking for the header text into `textAt`. */
export function hdItem(pointerSize: 4 | 8, textAt: number, chars: number): Uint8Array {
  const wide = pointerSize === 8;
  const out = new Uint8Array(wide ? 72 : 48);
  const v = new DataView(out.buffer);
  v.setUint32(0, HDI_TEXT, true);
  setPointer(v, 8, textAt, pointerSize);
  v.setInt32(wide ? 24 : 16, chars, true);
  return out;
}

export const headerReader: ControlReader = {
  classes: ["sysheader32"],
  read(ctx) {
    const memory = ctx.memory();
    if (!memory) return { items: [] };
    const count = Math.min(MAX_COLUMNS, ctx.send(HDM_GETITEMCOUNT, 0, 0));
    const items = [];
    for (let i = 0; i < count; i++) {
      memory.write(SCRATCH.struct, hdItem(memory.pointerSize, memory.base + SCRATCH.text, SCRATCH.textChars));
      memory.write(SCRATCH.text, new Uint8Array(2));
      const name = ctx.send(HDM_GETITEMW, i, memory.base + SCRATCH.struct) !== 0 ? scratchText(memory) : "";
      const rect =
        ctx.send(HDM_GETITEMRECT, i, memory.base + SCRATCH.rect) !== 0
          ? screenRect(ctx, rectFrom(memory.read(SCRATCH.rect, 16)))
          : { x: 0, y: 0, width: 0, height: 0 };
      items.push(
        item({
          ref: `${ctx.hwnd}/header/${i}`,
          name,
          controlType: "headeritem",
          rect,
          enabled: ctx.element.enabled,
          visible: ctx.element.visible && overlaps(rect, ctx.element.rect),
        }),
      );
    }
    return { items };
  },
};
