// Run evidence as MCP resources: listed per run, read as text or base64, confined to the run directory and the roots.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { RunResources } from "./resources.ts";

const root = tmpProject("flowproof-resources-");
const outside = tmpProject("flowproof-outside-");
afterAll(() => {
  root.remove();
  outside.remove();
});

const id = "2026-12-01T10-00-00Z-abcd";
root.write(`.flowproof/runs/${id}/result.json`, '{"passed":true}\n');
root.write(`.flowproof/runs/${id}/report.html`, "<!doctype html><title>report</title>\n");
root.write(`.flowproof/runs/${id}/frames/s0001-after.png`, "\x89PNG-bytes");
const secret = outside.write("secret.json", '{"token":"Zq7Canary"}\n');
symlinkSync(secret, join(root.dir, `.flowproof/runs/${id}/leak.json`));
const runs = new RunResources(async () => [root.dir]);

describe("RunResources", () => {
  test("lists every file of a run under flowproof://runs/<id>/ with its media type (a symlink is not listed)", async () => {
    const listed = await runs.list(id);
    expect(listed.map((r) => [r.uri, r.mimeType])).toEqual([
      [`flowproof://runs/${id}/frames/s0001-after.png`, "image/png"],
      [`flowproof://runs/${id}/report.html`, "text/html"],
      [`flowproof://runs/${id}/result.json`, "application/json"],
    ]);
  });

  test("reads documents as text and frames as base64", async () => {
    expect(await runs.read(`flowproof://runs/${id}/result.json`)).toEqual({
      uri: `flowproof://runs/${id}/result.json`,
      mimeType: "application/json",
      text: '{"passed":true}\n',
    });
    const frame = await runs.read(`flowproof://runs/${id}/frames/s0001-after.png`);
    expect("blob" in frame && Buffer.from(frame.blob, "base64").toString("latin1")).toBe(Buffer.from("\x89PNG-bytes").toString("latin1"));
  });

  test("refuses paths that climb out, unknown runs, and a symlink leading outside the root, without its content", async () => {
    for (const uri of [
      `flowproof://runs/${id}/../../../etc/passwd`,
      `flowproof://runs/${id}/..%2F..%2Fsecret.json`,
      "flowproof://runs/nope/result.json",
      `flowproof://runs/${id}/missing.json`,
      "file:///etc/passwd",
    ]) {
      await expect(runs.read(uri)).rejects.toThrow("no run evidence at");
    }
    const leak = runs.read(`flowproof://runs/${id}/leak.json`);
    await expect(leak).rejects.toThrow("leads outside its run directory or the server's root; it is not served");
    await expect(leak).rejects.not.toThrow("Zq7Canary");
  });

  test("a run a tool wrote elsewhere inside the root is found by its id", async () => {
    const suite = join(root.dir, "suite", ".flowproof", "runs", "2026-12-01T11-00-00Z-beef");
    mkdirSync(suite, { recursive: true });
    root.write("suite/.flowproof/runs/2026-12-01T11-00-00Z-beef/junit.xml", "<testsuites/>\n");
    expect(runs.uriOf(suite, join(suite, "junit.xml"))).toBe("flowproof://runs/2026-12-01T11-00-00Z-beef/junit.xml");
    expect(await runs.read("flowproof://runs/2026-12-01T11-00-00Z-beef/junit.xml")).toMatchObject({ mimeType: "application/xml", text: "<testsuites/>\n" });
  });
});
