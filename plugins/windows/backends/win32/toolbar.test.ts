import { describe, expect, test } from "bun:test";
import { buttonFacts, tbButton, toolInfo } from "./toolbar.ts";

describe("toolbar structures", () => {
  test("a TBBUTTON gives the command id, state and style", () => {
    const bytes = new Uint8Array(32);
    const v = new DataView(bytes.buffer);
    v.setInt32(4, 40001, true);
    v.setUint8(8, 0x4);
    v.setUint8(9, 0x2);
    expect(tbButton(bytes)).toEqual({ id: 40001, state: 4, style: 2 });
  });

  test("separators and hidden buttons do not show; a check button reads checked", () => {
    expect(buttonFacts(0x4, 0x1).shown).toBe(false);
    expect(buttonFacts(0x4 | 0x8, 0).shown).toBe(false);
    expect(buttonFacts(0x4 | 0x1, 0x2)).toEqual({ shown: true, enabled: true, checked: true });
    expect(buttonFacts(0, 0)).toEqual({ shown: true, enabled: false });
  });

  test("a TOOLINFOW names the toolbar and the button's command id", () => {
    const wide = new DataView(toolInfo(8, 0x100, 7, 0x8000).buffer);
    expect(wide.getUint32(0, true)).toBe(72);
    expect(wide.getBigUint64(8, true)).toBe(0x100n);
    expect(wide.getBigUint64(16, true)).toBe(7n);
    expect(wide.getBigUint64(48, true)).toBe(0x8000n);
    const narrow = new DataView(toolInfo(4, 0x100, 7, 0x8000).buffer);
    expect(narrow.getUint32(0, true)).toBe(48);
    expect(narrow.getUint32(12, true)).toBe(7);
    expect(narrow.getUint32(36, true)).toBe(0x8000);
  });
});
