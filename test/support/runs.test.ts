import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { latestRunBundle } from "./runs.ts";

const dir = mkdtempSync(join(tmpdir(), "runs-support-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("latestRunBundle", () => {
  test("skips a later run record without result.json", () => {
    const runs = join(dir, ".flowproof", "runs");
    for (const [id, file] of [
      ["20261201T190241.400Z", "result.json"],
      ["20261201T190241.424Z", "result.json"],
      ["20261201T190241.424Z-2", "run.json"],
    ] as const) {
      mkdirSync(join(runs, id), { recursive: true });
      writeFileSync(join(runs, id, file), "{}");
    }
    expect(latestRunBundle(dir)).toBe(join(runs, "20261201T190241.424Z"));
  });

  test("names what it found when no bundle is there", () => {
    const empty = mkdtempSync(join(dir, "empty-"));
    mkdirSync(join(empty, ".flowproof", "runs", "20261201T190241.424Z-2"), { recursive: true });
    expect(() => latestRunBundle(empty)).toThrow("20261201T190241.424Z-2");
  });
});
