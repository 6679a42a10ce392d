import { expect, test } from "bun:test";
import { tvItem, tvRectQuery, tvState } from "./tree-view.ts";

test("a TVITEMW names the item and asks for text and state (64- and 32-bit layouts)", () => {
  const wide = new DataView(tvItem(8, 0xabc, 0x5000, 256).buffer);
  expect(wide.byteLength).toBe(56);
  expect(wide.getUint32(0, true)).toBe(0x1 | 0x8 | 0x10);
  expect(wide.getBigUint64(8, true)).toBe(0xabcn);
  expect(wide.getUint32(20, true)).toBe(0x22);
  expect(wide.getBigUint64(24, true)).toBe(0x5000n);
  expect(wide.getInt32(32, true)).toBe(256);
  const narrow = new DataView(tvItem(4, 0xabc, 0x5000, 256).buffer);
  expect(narrow.byteLength).toBe(40);
  expect(narrow.getUint32(4, true)).toBe(0xabc);
  expect(narrow.getUint32(16, true)).toBe(0x5000);
  expect(narrow.getInt32(20, true)).toBe(256);
});

test("the answered state says selected and expanded", () => {
  const bytes = new Uint8Array(24);
  new DataView(bytes.buffer).setUint32(16, 0x22, true);
  expect(tvState(bytes, 8)).toEqual({ selected: true, expanded: true });
  new DataView(bytes.buffer).setUint32(8, 0x20, true);
  expect(tvState(bytes, 4)).toEqual({ selected: false, expanded: true });
});

test("TVM_GETITEMRECT reads the item's handle from the RECT's start", () => {
  expect(new DataView(tvRectQuery(8, 0x1_0000_0001).buffer).getBigUint64(0, true)).toBe(0x1_0000_0001n);
  expect(new DataView(tvRectQuery(4, 7).buffer).getUint32(0, true)).toBe(7);
});
