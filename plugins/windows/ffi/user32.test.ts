// user32 itself runs under Wine in test/e2e/wine-bed.test.ts (windows found by title, WM_GETTEXT,
// styles, foreground, SendInput). Here: the module loads on any platform without opening user32.dll.
import { expect, test } from "bun:test";

test("importing the bindings opens no library; the first call does", async () => {
  const mod = await import("./user32.ts");
  expect(typeof mod.findWindows).toBe("function");
  if (process.platform !== "win32") expect(() => mod.windowText(1)).toThrow(/user32/);
});
