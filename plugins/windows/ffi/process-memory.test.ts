// Another process's memory runs under Wine in test/e2e/windows-controls.test.ts (every common
// control's items are read through it). Here: the module loads anywhere without opening kernel32.
import { expect, test } from "bun:test";

test("importing the bindings opens no library; the first call does", async () => {
  const mod = await import("./process-memory.ts");
  expect(typeof mod.openRemoteMemory).toBe("function");
  if (process.platform !== "win32") expect(() => mod.isWine()).toThrow(/kernel32/);
});
