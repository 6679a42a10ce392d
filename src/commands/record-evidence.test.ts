import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineHarness, traceStep, type EngineHarness } from "../../test/support/engine.ts";
import { evidenceSentence, failedRecordDir, keepFailedRecord } from "./record-evidence.ts";

let h: EngineHarness;
let dir = "";
beforeAll(async () => {
  h = await engineHarness();
  dir = mkdtempSync(join(tmpdir(), "flowproof-evidence-"));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("failedRecordDir and evidenceSentence", () => {
  test("a new directory per failure, named like a run id; the sentence names what it holds", () => {
    const at = new Date("2026-03-04T05:06:07.089Z");
    expect(failedRecordDir(dir, at)).toBe(join(dir, ".flowproof", "failed-records", "20260304T050607.089Z"));
    mkdirSync(failedRecordDir(dir, at), { recursive: true });
    expect(failedRecordDir(dir, at)).toBe(join(dir, ".flowproof", "failed-records", "20260304T050607.089Z-2"));
    expect(evidenceSentence({ dir: "x/", kept: ["frames", "debug/dom.html"], suggestion: "" })).toBe(
      "; no trace was written; the failure's evidence (frames, debug/dom.html) is in x/",
    );
    expect(evidenceSentence({ kept: [], suggestion: "" })).toBe("; no trace was written");
  });
});

describe("keepFailedRecord", () => {
  test("moves the recording bundle and writes the page's DOM and console beside it, secrets redacted", async () => {
    await h.context("wallet.html?delay=0");
    const secret = "memo-5521-secret";
    expect((await h.driver.fill(traceStep('Type x into the "Memo" field').selectors, secret, { secret: true })).ok).toBe(true);
    expect((await h.driver.click(traceStep('Press the "Pay 10.00" button').selectors, { button: "left", clickCount: 1 })).ok).toBe(true);
    await Bun.sleep(400);
    const bundleRoot = join(dir, ".flowproof", "recordings", "t-1");
    mkdirSync(join(bundleRoot, "recording"), { recursive: true });
    writeFileSync(join(bundleRoot, "recording", "frame-1-abcdef12.png"), "png");
    const evidence = await keepFailedRecord({
      driver: h.driver,
      bundleRoot,
      flowDir: dir,
      failedStep: traceStep('Click "Pay 1O.00"'),
      secrets: new Map([["MEMO", secret]]),
      at: new Date("2026-03-04T05:06:08.000Z"),
    });
    const kept = join(dir, ".flowproof", "failed-records", "20260304T050608.000Z");
    expect(evidence).toEqual({ dir: `${kept}/`, kept: ["frames", "debug/dom.html", "debug/console.log"], suggestion: " — did you mean 'Pay 10.00'?" });
    expect(existsSync(bundleRoot)).toBe(false);
    expect(existsSync(join(kept, "recording", "frame-1-abcdef12.png"))).toBe(true);
    const log = readFileSync(join(kept, "debug", "console.log"), "utf8");
    expect(log).toContain("console.log: paid 10.00 with memo ${MEMO}");
    expect(log + readFileSync(join(kept, "debug", "dom.html"), "utf8")).not.toContain(secret);
  });
});
