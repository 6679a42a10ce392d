import { expect, test } from "bun:test";
import { tcItem } from "./tab.ts";

test("a TCITEMW asks for the text, with the pointer where each process size puts it", () => {
  const wide = new DataView(tcItem(8, 0x20_0000_0400, 1024).buffer);
  expect(wide.byteLength).toBe(40);
  expect(wide.getUint32(0, true)).toBe(1);
  expect(wide.getBigUint64(16, true)).toBe(0x20_0000_0400n);
  expect(wide.getInt32(24, true)).toBe(1024);
  const narrow = new DataView(tcItem(4, 0x400, 512).buffer);
  expect(narrow.byteLength).toBe(28);
  expect(narrow.getUint32(12, true)).toBe(0x400);
  expect(narrow.getInt32(16, true)).toBe(512);
});
