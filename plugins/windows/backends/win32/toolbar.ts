// Toolbars (ToolbarWindow32): each button (separators and hidden buttons left out) is an element
// (type `button`) named by its text, or by its tooltip when it shows only an icon; disabled and
// checked as the toolbar says. A press is a real click on it (a toolbar button has no message
// that presses it the way a user does). Read with TB_BUTTONCOUNT, TB_GETBUTTON,
// TB_GETBUTTONTEXTW, TB_GETITEMRECT and the toolbar's tooltip control (TTM_GETTEXTW).
import type { DesktopElement } from "../../../desktop/element.ts";
import { item, overlaps, rectFrom, SCRATCH, scratchText, screenRect, setPointer, type ControlReader } from "./reader.ts";

const TB_GETBUTTON = 0x417;
const TB_BUTTONCOUNT = 0x418;
const TB_GETITEMRECT = 0x41d;
const TB_GETTOOLTIPS = 0x423;
const TB_GETBUTTONTEXTW = 0x44b;
const TTM_GETTEXTW = 0x438;
const TBSTATE_CHECKED = 0x1;
const TBSTATE_ENABLED = 0x4;
const TBSTATE_HIDDEN = 0x8;
const BTNS_SEP = 0x1;
const BTNS_CHECK = 0x2;
const MAX_BUTTONS = 200;

/** Pure: a TBBUTTON's id, state and style. */
export function tbButton(bytes: Uint8Array): { id: number; state: number; style: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { id: v.getInt32(4, true), state: v.getUint8(8), style: v.getUint8(9) };
}

/** Pure: a TOOLINFOW asking the tooltip control for the text of tool `id` of `toolbar` into `textAt`. */
export function toolInfo(pointerSize: 4 | 8, toolbar: number, id: number, textAt: number): Uint8Array {
  const wide = pointerSize === 8;
  const out = new Uint8Array(wide ? 72 : 48);
  const v = new DataView(out.buffer);
  v.setUint32(0, out.byteLength, true);
  setPointer(v, 8, toolbar, pointerSize);
  setPointer(v, wide ? 16 : 12, id, pointerSize);
  setPointer(v, wide ? 48 : 36, textAt, pointerSize);
  return out;
}

/** Pure: whether a button with this state and style is shown, and how it reads. */
export function buttonFacts(state: number, style: number): { shown: boolean; enabled: boolean; checked?: boolean } {
  return {
    shown: (style & BTNS_SEP) === 0 && (state & TBSTATE_HIDDEN) === 0,
    enabled: (state & TBSTATE_ENABLED) !== 0,
    ...((style & BTNS_CHECK) !== 0 ? { checked: (state & TBSTATE_CHECKED) !== 0 } : {}),
  };
}

export const toolbarReader: ControlReader = {
  classes: ["toolbarwindow32"],
  read(ctx) {
    const memory = ctx.memory();
    if (!memory) return { items: [] };
    const p = memory.pointerSize;
    const count = Math.min(MAX_BUTTONS, ctx.send(TB_BUTTONCOUNT, 0, 0));
    const tooltips = ctx.send(TB_GETTOOLTIPS, 0, 0);
    const items: DesktopElement[] = [];
    for (let i = 0; i < count; i++) {
      if (ctx.send(TB_GETBUTTON, i, memory.base + SCRATCH.struct) === 0) continue;
      const button = tbButton(memory.read(SCRATCH.struct, 12));
      const facts = buttonFacts(button.state, button.style);
      if (!facts.shown) continue;
      memory.write(SCRATCH.text, new Uint8Array(2));
      const n = ctx.send(TB_GETBUTTONTEXTW, button.id, memory.base + SCRATCH.text);
      let name = n > 0 ? scratchText(memory, n) : "";
      if (name === "" && tooltips !== 0) {
        memory.write(SCRATCH.struct, toolInfo(p, ctx.hwnd, button.id, memory.base + SCRATCH.text));
        ctx.sendTo(tooltips, TTM_GETTEXTW, SCRATCH.textChars, memory.base + SCRATCH.struct);
        name = scratchText(memory);
      }
      const rect =
        ctx.send(TB_GETITEMRECT, i, memory.base + SCRATCH.rect) !== 0
          ? screenRect(ctx, rectFrom(memory.read(SCRATCH.rect, 16)))
          : { x: 0, y: 0, width: 0, height: 0 };
      items.push(
        item({
          ref: `${ctx.hwnd}/toolbar/${i}`,
          name,
          controlType: "button",
          rect,
          enabled: ctx.element.enabled && facts.enabled,
          visible: ctx.element.visible && overlaps(rect, ctx.element.rect),
          ...(facts.checked !== undefined ? { checked: facts.checked } : {}),
        }),
      );
    }
    return { items };
  },
};
