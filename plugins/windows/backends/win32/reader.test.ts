import { describe, expect, test } from "bun:test";
import { item, overlaps, rectFrom, setPointer } from "./reader.ts";

describe("control reader helpers", () => {
  test("a RECT reads as x, y, width, height", () => {
    const bytes = new Uint8Array(16);
    new Int32Array(bytes.buffer).set([10, 20, 110, 45]);
    expect(rectFrom(bytes)).toEqual({ x: 10, y: 20, width: 100, height: 25 });
  });

  test("an item shows when it overlaps its control, not when empty or outside", () => {
    const control = { x: 0, y: 0, width: 100, height: 100 };
    expect(overlaps({ x: 90, y: 90, width: 20, height: 20 }, control)).toBe(true);
    expect(overlaps({ x: 100, y: 10, width: 20, height: 20 }, control)).toBe(false);
    expect(overlaps({ x: 10, y: 10, width: 0, height: 20 }, control)).toBe(false);
  });

  test("pointers are written 8 or 4 bytes wide", () => {
    const v = new DataView(new ArrayBuffer(16));
    setPointer(v, 0, 0x1_0000_0002, 8);
    expect(v.getBigUint64(0, true)).toBe(0x1_0000_0002n);
    setPointer(v, 8, 0x1234, 4);
    expect(v.getUint32(8, true)).toBe(0x1234);
    expect(v.getUint32(12, true)).toBe(0);
  });

  test("an item has no id, no focus and is never a password", () => {
    expect(
      item({ ref: "1/tab/0", name: "General", controlType: "tab", rect: { x: 0, y: 0, width: 1, height: 1 }, enabled: true, visible: true }),
    ).toMatchObject({ automationId: "", focused: false, password: false });
  });
});
