import { describe, expect, test } from "bun:test";
import { menuElements, menuItemFacts, menuItemQuery, menuLabel } from "./menu.ts";

describe("menus", () => {
  test("a MENUITEMINFOW asks for state, id, submenu, text and type", () => {
    const v = new DataView(menuItemQuery(0x6000, 256).buffer);
    expect(v.getUint32(0, true)).toBe(80);
    expect(v.getUint32(4, true)).toBe(0x1 | 0x2 | 0x4 | 0x40 | 0x100);
    expect(v.getBigUint64(56, true)).toBe(0x6000n);
    expect(v.getUint32(64, true)).toBe(256);
  });

  test("the answer's type, state and submenu are read back", () => {
    const bytes = menuItemQuery(0, 0);
    const v = new DataView(bytes.buffer);
    v.setUint32(8, 0x800, true);
    v.setUint32(12, 0x3, true);
    v.setBigUint64(24, 0x1234n, true);
    expect(menuItemFacts(bytes)).toEqual({ type: 0x800, state: 3, submenu: 0x1234 });
  });

  test("an item reads without its shortcut", () => {
    expect(menuLabel("Select &All\tCtrl+A")).toBe("Select &All");
    expect(menuLabel("&Edit")).toBe("&Edit");
  });

  test("items become elements: separators and empty texts left out, grayed ones disabled, an open submenu expanded", () => {
    const rect = { x: 10, y: 20, width: 40, height: 18 };
    const els = menuElements(100, 7, [
      { text: "&Edit", type: 0, state: 0x80, submenu: 9, rect },
      { text: "", type: 0x800, state: 0, submenu: 0, rect },
      { text: "&Undo\tCtrl+Z", type: 0, state: 0x3, submenu: 0, rect },
      { text: "Later", type: 0, state: 0, submenu: 0 },
    ]);
    expect(els.map((e) => [e.ref, e.name, e.enabled, e.visible, e.expanded])).toEqual([
      ["100/menu/7/0", "&Edit", true, true, true],
      ["100/menu/7/2", "&Undo", false, true, undefined],
      ["100/menu/7/3", "Later", true, false, undefined],
    ]);
    expect(els[0]!.controlType).toBe("menuitem");
  });
});
