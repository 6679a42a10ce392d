import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { reaperDescendants, reaperParseStat } from "./reaper.ts";
import { spawnAgent } from "./runner.ts";

/** Live processes whose command line holds `marker`. */
function livingWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) continue;
      if (reaperParseStat(readFileSync(`/proc/${name}/stat`, "utf8"))?.zombie === false) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe("reaper", () => {
  test("a stat line is read with a command name holding spaces and parentheses", () => {
    expect(reaperParseStat("4711 (my (odd) name) S 42 4711 4711 0 -1")).toEqual({ pid: 4711, ppid: 42, zombie: false });
    expect(reaperParseStat("12 (sleep) Z 1 12 12")).toEqual({ pid: 12, ppid: 1, zombie: true });
    expect(reaperParseStat("garbage")).toBeUndefined();
  });

  test("descendants: the whole tree below the root, zombies left out", () => {
    const rows = [
      { pid: 10, ppid: 1, zombie: false },
      { pid: 11, ppid: 10, zombie: false },
      { pid: 12, ppid: 11, zombie: false },
      { pid: 13, ppid: 10, zombie: true },
      { pid: 20, ppid: 1, zombie: false },
    ];
    expect(reaperDescendants(rows, 10)).toEqual([11, 12]);
    expect(reaperDescendants(rows, 20)).toEqual([]);
  });

  test.skipIf(process.platform !== "linux")(
    "a descendant that left the agent's process group (setsid) and holds its output ends with the agent, which ends at once",
    async () => {
      const marker = `120.${process.pid}${Date.now() % 1000}`;
      const started = Date.now();
      const exit = await spawnAgent(`(setsid sh -c 'exec sleep ${marker}' &); sleep 0.3; exit 4`, "/tmp", { PATH: process.env["PATH"] ?? "" }, 30_000).exited;
      expect(exit.code).toBe(4);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(livingWith(`sleep\0${marker}`)).toEqual([]);
    },
  );
});
