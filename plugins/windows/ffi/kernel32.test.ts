// kernel32 runs under Wine in test/e2e/wine-bed.test.ts (this process's id, another process's image path).
import { expect, test } from "bun:test";

test("importing the bindings opens no library; the first call does", async () => {
  const mod = await import("./kernel32.ts");
  expect(typeof mod.processAlive).toBe("function");
  if (process.platform !== "win32") expect(() => mod.currentProcessId()).toThrow(/kernel32/);
});
