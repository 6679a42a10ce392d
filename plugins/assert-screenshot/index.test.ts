import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import type { AssertionContext } from "../../src/plugins/api.ts";
import { plugin } from "./index.ts";

const dir = mkdtempSync(join(tmpdir(), "flowproof-shot-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function png(w: number, h: number, red = 0): Uint8Array {
  const p = new PNG({ width: w, height: h });
  p.data.fill(255);
  for (let i = 0; i < red; i++) p.data.set([255, 0, 0, 255], i * 4);
  return PNG.sync.write(p);
}

const ctx = (mode: "record" | "replay", shot: Uint8Array): AssertionContext => ({
  baseDir: dir,
  log: () => undefined,
  mode,
  flowStem: "home",
  artifactDir: join(dir, "run"),
  env: {},
  observe: () => undefined,
  screenshot: async () => ({ ok: true, png: shot }),
});

describe("assert_screenshot", () => {
  test("record mints the baseline; replay matches, then reports the differing fraction with evidence", async () => {
    expect(await plugin.run({ name: "page" }, ctx("record", png(10, 10)))).toEqual({ pass: true });
    expect(existsSync(join(dir, "home.baselines", "page.png"))).toBe(true);
    expect(await plugin.run({ name: "page" }, ctx("replay", png(10, 10)))).toEqual({ pass: true });
    const v = await plugin.run({ name: "page" }, ctx("replay", png(10, 10, 5)));
    expect(v).toMatchObject({ pass: false, evidence: ["visual/page.actual.png", "visual/page.diff.png"] });
    expect(!v.pass && v.actual).toBe("screenshot 'page' differs from its baseline in 5.00% of pixels (5 of 100), threshold 0.00%; see visual/page.diff.png");
    expect(readdirSync(join(dir, "run", "visual")).sort()).toEqual(["page.actual.png", "page.diff.png"]);
    expect(await plugin.run({ name: "page", threshold: 0.05 }, ctx("replay", png(10, 10, 5)))).toEqual({ pass: true });
  });

  test("a missing baseline and a size change fail for good", async () => {
    expect(await plugin.run({ name: "none" }, ctx("replay", png(10, 10)))).toMatchObject({
      pass: false,
      retryable: false,
      actual: "no baseline home.baselines/none.png",
    });
    expect(await plugin.run({ name: "page" }, ctx("replay", png(12, 10)))).toMatchObject({
      pass: false,
      retryable: false,
      actual: "screenshot 'page' is 12x10 but its baseline is 10x10",
    });
  });

  test("a surface without screenshots fails for good", async () => {
    const { screenshot: _, ...noShot } = ctx("replay", png(1, 1));
    expect(await plugin.run({ name: "page" }, noShot)).toMatchObject({ pass: false, retryable: false });
  });
});
