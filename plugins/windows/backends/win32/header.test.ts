import { expect, test } from "bun:test";
import { hdItem } from "./header.ts";

test("an HDITEMW asks for the text (64- and 32-bit layouts)", () => {
  const wide = new DataView(hdItem(8, 0x7000, 100).buffer);
  expect(wide.byteLength).toBe(72);
  expect(wide.getUint32(0, true)).toBe(2);
  expect(wide.getBigUint64(8, true)).toBe(0x7000n);
  expect(wide.getInt32(24, true)).toBe(100);
  const narrow = new DataView(hdItem(4, 0x7000, 100).buffer);
  expect(narrow.getUint32(8, true)).toBe(0x7000);
  expect(narrow.getInt32(16, true)).toBe(100);
});
