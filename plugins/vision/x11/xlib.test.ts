// The bindings run against real X servers in test/e2e/vision.test.ts (XGetImage, XTest, focus,
// grabs). Here: the pure pixel conversion, and that importing opens no library.
import { describe, expect, test } from "bun:test";
import { zpixmapToRgba } from "./xlib.ts";

describe("xlib", () => {
  test("a 32-bit ZPixmap (BGRX, little-endian) becomes RGBA with full alpha, honouring the row stride", () => {
    const data = new Uint8Array([3, 2, 1, 0, 30, 20, 10, 0, 9, 9, 9, 9, 6, 5, 4, 0, 60, 50, 40, 0, 9, 9, 9, 9]);
    const rgba = zpixmapToRgba(data, 2, 2, 12, { red: 0xff0000, green: 0xff00, blue: 0xff });
    expect([...rgba]).toEqual([1, 2, 3, 255, 10, 20, 30, 255, 4, 5, 6, 255, 40, 50, 60, 255]);
  });

  test("importing the bindings opens no library (read from a fresh process's own memory map)", () => {
    const script = `await import(${JSON.stringify(new URL("./xlib.ts", import.meta.url).pathname)}); console.log(require("node:fs").readFileSync("/proc/self/maps", "utf8").includes("libX11") ? "opened" : "not opened");`;
    const r = Bun.spawnSync([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    expect({ code: r.exitCode, out: r.stdout.toString().trim(), err: r.stderr.toString() }).toEqual({ code: 0, out: "not opened", err: "" });
  });
});
