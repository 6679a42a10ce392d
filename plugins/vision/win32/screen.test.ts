// The Win32 screen needs user32/gdi32; the shared bindings are exercised under Wine by the Windows
// surface's tests. Here: the pure POINT packing, and that the module loads anywhere without opening user32.
import { describe, expect, test } from "bun:test";
import { packPoint } from "./screen.ts";

describe("win32 screen", () => {
  test("a POINT by value packs x in the low half and y in the high half, negatives as two's complement", () => {
    expect(packPoint(3, 5)).toBe((5n << 32n) | 3n);
    expect(packPoint(-1, 0)).toBe(0xffffffffn);
  });

  test.skipIf(process.platform === "win32")("the module loads without opening user32", async () => {
    const mod = await import("./screen.ts");
    expect(typeof mod.openWin32Screen).toBe("function");
  });
});
