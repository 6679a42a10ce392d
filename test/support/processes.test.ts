import { expect, test } from "bun:test";
import { descendants, isAlive } from "./processes.ts";

test("a shell's grandchild is among its descendants, alive until killed", async () => {
  const proc = Bun.spawn(["sh", "-c", "sh -c 'sleep 30' & wait"], { stdout: "ignore", stderr: "ignore" });
  try {
    let found: number[] = [];
    for (let i = 0; i < 100 && found.length < 2; i++) {
      found = descendants(proc.pid);
      if (found.length < 2) await Bun.sleep(20);
    }
    expect(found).toHaveLength(2);
    expect(found.every(isAlive)).toBe(true);
  } finally {
    proc.kill();
    await proc.exited;
  }
  expect(isAlive(proc.pid)).toBe(false);
});
