// Tab controls (SysTabControl32): each tab is an element (type `tab`) named by its text, with its
// rectangle (a click on it selects it) and whether it is the selected one. Read with
// TCM_GETITEMCOUNT, TCM_GETCURSEL, TCM_GETITEMW and TCM_GETITEMRECT.
import { item, rectFrom, SCRATCH, scratchText, screenRect, setPointer, type ControlReader } from "./reader.ts";

const TCM_GETITEMRECT = 0x130a;
const TCM_GETCURSEL = 0x130b;
const TCM_GETITEMCOUNT = 0x1304;
const TCM_GETITEMW = 0x133c;
const TCIF_TEXT = 0x1;

/** Pure: a TCITEMW asking for the text into `textAt` (an address in the control's process). */
export function tcItem(pointerSize: 4 | 8, textAt: number, chars: number): Uint8Array {
  const out = new Uint8Array(pointerSize === 8 ? 40 : 28);
  const v = new DataView(out.buffer);
  v.setUint32(0, TCIF_TEXT, true);
  const textOffset = pointerSize === 8 ? 16 : 12;
  setPointer(v, textOffset, textAt, pointerSize);
  v.setInt32(textOffset + pointerSize, chars, true);
  return out;
}

export const tabReader: ControlReader = {
  classes: ["systabcontrol32"],
  read(ctx) {
    const memory = ctx.memory();
    if (!memory) return { items: [] };
    const count = ctx.send(TCM_GETITEMCOUNT, 0, 0);
    const current = ctx.send(TCM_GETCURSEL, 0, 0);
    const items = [];
    for (let i = 0; i < count; i++) {
      memory.write(SCRATCH.struct, tcItem(memory.pointerSize, memory.base + SCRATCH.text, SCRATCH.textChars));
      memory.write(SCRATCH.text, new Uint8Array(2));
      const name = ctx.send(TCM_GETITEMW, i, memory.base + SCRATCH.struct) !== 0 ? scratchText(memory) : "";
      const has = ctx.send(TCM_GETITEMRECT, i, memory.base + SCRATCH.rect) !== 0;
      const rect = has ? screenRect(ctx, rectFrom(memory.read(SCRATCH.rect, 16))) : { x: 0, y: 0, width: 0, height: 0 };
      items.push(
        item({
          ref: `${ctx.hwnd}/tab/${i}`,
          name,
          controlType: "tab",
          rect,
          enabled: ctx.element.enabled,
          visible: ctx.element.visible && rect.width > 0,
          itemSelected: i === current,
        }),
      );
    }
    return { items };
  },
};
