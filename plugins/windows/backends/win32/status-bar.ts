// Status bars (msctls_statusbar32): the control itself becomes an element of type `statusbar`
// whose value is the text of its parts (joined by " | "), so `page shows` reads it and
// `the "status bar" shows …` names it. Read with SB_ISSIMPLE, SB_GETPARTS and SB_GETTEXTW.
import type { ControlReader } from "./reader.ts";
import { SCRATCH, scratchText } from "./reader.ts";

const SB_GETPARTS = 0x406;
const SB_GETTEXTLENGTHW = 0x40c;
const SB_GETTEXTW = 0x40d;
const SB_ISSIMPLE = 0x40e;
/** The part index of a simple status bar's one text. */
const SB_SIMPLEID = 0xff;
const MAX_PARTS = 32;

/** Pure: the parts' texts as the status bar's value (empty parts left out). */
export function statusText(parts: readonly string[]): string {
  return parts
    .map((t) => t.trim())
    .filter((t) => t !== "")
    .join(" | ");
}

export const statusBarReader: ControlReader = {
  classes: ["msctls_statusbar32"],
  read(ctx) {
    const memory = ctx.memory();
    if (!memory) return { self: { name: "" }, items: [] };
    const simple = ctx.send(SB_ISSIMPLE, 0, 0) !== 0;
    const indexes = simple ? [SB_SIMPLEID] : [...Array(Math.min(MAX_PARTS, Math.max(0, ctx.send(SB_GETPARTS, 0, 0)))).keys()];
    const parts = indexes.map((i) => {
      // SB_GETTEXTLENGTHW answers the length in its low word (the high word is the drawing type).
      const length = ctx.send(SB_GETTEXTLENGTHW, i, 0) & 0xffff;
      if (length === 0 || length >= SCRATCH.textChars) return "";
      memory.write(SCRATCH.text, new Uint8Array(2));
      ctx.send(SB_GETTEXTW, i, memory.base + SCRATCH.text);
      return scratchText(memory, length);
    });
    return { self: { name: "", value: statusText(parts) }, items: [] };
  },
};
