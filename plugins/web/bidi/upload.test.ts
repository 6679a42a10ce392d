import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Selector } from "../../../src/plugins/api.ts";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { setFirefoxInputFile } from "./upload.ts";

const label = (text: string): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text } }];
const dir = mkdtempSync(join(tmpdir(), "flowproof-fxupload-"));
let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(async () => {
  await bed?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("puts the file into the file input a label names, and names what is not a file input", async () => {
  const file = join(dir, "report.csv");
  writeFileSync(file, "a,b\n1,2\n");
  const page = await bed.page();
  await bed.connection.send("browsingContext.navigate", {
    context: page.context,
    url: "data:text/html,<label>Attachment <input id=f type=file></label><label>Note <input id=n></label>",
    wait: "complete",
  });
  await page.call("count", { ladder: [] });
  expect(await setFirefoxInputFile(page, label("Attachment"), file)).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
  expect(await page.evaluate("[...document.getElementById('f').files].map((f) => [f.name, f.size])")).toEqual([["report.csv", 8]]);
  const wrong = await setFirefoxInputFile(page, label("Note"), file);
  expect(wrong).toMatchObject({ ok: false, failed: "unsupported", retryable: false });
  const missing = await setFirefoxInputFile(page, label("Nothing like it"), file);
  expect(missing).toMatchObject({ ok: false, failed: "not-found", retryable: true });
}, 60_000);
