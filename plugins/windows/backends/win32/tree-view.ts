// Tree views (SysTreeView32): the items on screen, in display order (first visible, then each
// next visible one), each an element (type `treeitem`) with its text, its label's rectangle, and
// whether it is expanded and selected. A click selects an item; a double-click or ArrowRight
// expands it (the tree's own handling). Read with TVM_GETNEXTITEM, TVM_GETITEMW, TVM_GETITEMRECT.
import { item, overlaps, rectFrom, SCRATCH, scratchText, screenRect, setPointer, type ControlReader } from "./reader.ts";

const TVM_GETITEMRECT = 0x1104;
const TVM_GETNEXTITEM = 0x110a;
const TVM_GETVISIBLECOUNT = 0x1110;
const TVM_GETITEMW = 0x113e;
const TVGN_FIRSTVISIBLE = 0x5;
const TVGN_NEXTVISIBLE = 0x6;
const TVIF_TEXT = 0x1;
const TVIF_STATE = 0x8;
const TVIF_HANDLE = 0x10;
const TVIS_SELECTED = 0x2;
const TVIS_EXPANDED = 0x20;
/** Items read at most per tree (beyond what a tall window shows). */
const MAX_ITEMS = 400;

/** Pure: a TVITEMW asking for item `handle`'s text (into `textAt`) and state. */
export function tvItem(pointerSize: 4 | 8, handle: number, textAt: number, chars: number): Uint8Array {
  const wide = pointerSize === 8;
  const out = new Uint8Array(wide ? 56 : 40);
  const v = new DataView(out.buffer);
  v.setUint32(0, TVIF_TEXT | TVIF_STATE | TVIF_HANDLE, true);
  setPointer(v, pointerSize, handle, pointerSize);
  const stateAt = pointerSize * 2;
  v.setUint32(stateAt + 4, TVIS_SELECTED | TVIS_EXPANDED, true);
  setPointer(v, stateAt + 8, textAt, pointerSize);
  v.setInt32(stateAt + 8 + pointerSize, chars, true);
  return out;
}

/** Pure: the state bits a TVM_GETITEMW answered. */
export function tvState(bytes: Uint8Array, pointerSize: 4 | 8): { selected: boolean; expanded: boolean } {
  const state = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(pointerSize * 2, true);
  return { selected: (state & TVIS_SELECTED) !== 0, expanded: (state & TVIS_EXPANDED) !== 0 };
}

/** Pure: TVM_GETITEMRECT's input, the item's handle where the RECT's first field is. */
export function tvRectQuery(pointerSize: 4 | 8, handle: number): Uint8Array {
  const out = new Uint8Array(16);
  setPointer(new DataView(out.buffer), 0, handle, pointerSize);
  return out;
}

export const treeViewReader: ControlReader = {
  classes: ["systreeview32"],
  read(ctx) {
    const memory = ctx.memory();
    if (!memory) return { items: [] };
    const p = memory.pointerSize;
    const view = ctx.element.rect;
    const limit = Math.min(MAX_ITEMS, ctx.send(TVM_GETVISIBLECOUNT, 0, 0) + 2);
    const items = [];
    for (
      let handle = ctx.send(TVM_GETNEXTITEM, TVGN_FIRSTVISIBLE, 0);
      handle !== 0 && items.length < limit;
      handle = ctx.send(TVM_GETNEXTITEM, TVGN_NEXTVISIBLE, handle)
    ) {
      memory.write(SCRATCH.struct, tvItem(p, handle, memory.base + SCRATCH.text, SCRATCH.textChars));
      memory.write(SCRATCH.text, new Uint8Array(2));
      if (ctx.send(TVM_GETITEMW, 0, memory.base + SCRATCH.struct) === 0) continue;
      const name = scratchText(memory);
      const state = tvState(memory.read(SCRATCH.struct, 24), p);
      memory.write(SCRATCH.rect, tvRectQuery(p, handle));
      const has = ctx.send(TVM_GETITEMRECT, 1, memory.base + SCRATCH.rect) !== 0;
      const rect = has ? screenRect(ctx, rectFrom(memory.read(SCRATCH.rect, 16))) : { x: 0, y: 0, width: 0, height: 0 };
      items.push(
        item({
          ref: `${ctx.hwnd}/tree/${handle}`,
          name,
          controlType: "treeitem",
          rect,
          enabled: ctx.element.enabled,
          visible: ctx.element.visible && overlaps(rect, view),
          itemSelected: state.selected,
          expanded: state.expanded,
        }),
      );
    }
    return { items };
  },
};
