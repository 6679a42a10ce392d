import { describe, expect, test } from "bun:test";
import { fromWide, wideBuffer, wstr } from "./wide.ts";

describe("wide strings", () => {
  test("wstr is UTF-16LE with a NUL unit", () => {
    expect(Array.from(wstr("Ab"))).toEqual([0x41, 0, 0x62, 0, 0, 0]);
    expect(wstr("").byteLength).toBe(2);
  });
  test("fromWide stops at the first NUL or the given unit count", () => {
    const b = wideBuffer(8);
    b.write("Notepad", 0, "utf16le");
    expect(fromWide(b)).toBe("Notepad");
    expect(fromWide(b, 3)).toBe("Not");
    expect(fromWide(wstr("é€ x"))).toBe("é€ x");
  });
});
