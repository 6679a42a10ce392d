import { describe, expect, test } from "bun:test";
import { lvColumn, lvRectQuery, lvTextItem, rowsToRead } from "./list-view.ts";

describe("list view structures", () => {
  test("an LVITEMW asks for one column's text", () => {
    const wide = new DataView(lvTextItem(8, 2, 0x9000, 128).buffer);
    expect(wide.getInt32(8, true)).toBe(2);
    expect(wide.getBigUint64(24, true)).toBe(0x9000n);
    expect(wide.getInt32(32, true)).toBe(128);
    const narrow = new DataView(lvTextItem(4, 1, 0x9000, 128).buffer);
    expect(narrow.getUint32(20, true)).toBe(0x9000);
    expect(narrow.getInt32(24, true)).toBe(128);
  });

  test("an LVCOLUMNW asks for the header text", () => {
    const wide = new DataView(lvColumn(8, 0x9000, 64).buffer);
    expect(wide.getUint32(0, true)).toBe(4);
    expect(wide.getBigUint64(16, true)).toBe(0x9000n);
    expect(wide.getInt32(24, true)).toBe(64);
    expect(new DataView(lvColumn(4, 0x9000, 64).buffer).getUint32(12, true)).toBe(0x9000);
  });

  test("a rectangle query carries the part in `left` and the column in `top`", () => {
    expect([...new Int32Array(lvRectQuery(2, 3).buffer)]).toEqual([2, 3, 0, 0]);
  });
});

describe("rowsToRead", () => {
  test("a report or list view reads its page of rows and the one cut at its foot", () => {
    expect(rowsToRead(1, 100, 10, 20)).toEqual({ from: 10, to: 31 });
    expect(rowsToRead(3, 5, 0, 20)).toEqual({ from: 0, to: 5 });
  });
  test("an icon view reads every item, bounded", () => {
    expect(rowsToRead(0, 7, 3, 2)).toEqual({ from: 0, to: 7 });
    expect(rowsToRead(0, 10_000, 0, 0).to).toBe(400);
  });
});
