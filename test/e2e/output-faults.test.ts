// Input and output faults through the real CLI and real Chromium: a step YAML cut at a comment is
// refused at load instead of passing shortened; page text that is hostile to terminals and XML is
// sanitised; unwritable and full output directories are an io-error before anything runs, with no
// temporary file left; retry bundles never take another flow's bundle name.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

let server: TestServer;
let project: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/invoice", () => new Response(
    "<!doctype html><title>Invoices</title><h1>Invoice #1001</h1><button>Open</button>",
    { headers: { "content-type": "text/html; charset=utf-8" } },
  ));
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  project.remove();
});

const flow = (name: string, steps: readonly string[]): string =>
  [`name: ${name}`, "app: web", `url: ${server.url}/invoice`, "steps:", ...steps.map((s) => `  - ${s}`), ""].join("\n");

describe("a step YAML cut at a comment", () => {
  test("is refused at load with its position and the quoted form, instead of passing shortened", async () => {
    const spec = project.write("cut.flow.yaml", flow("Cut", ["assert: page shows Invoice #1002"]));
    const res = await runCli(["record", spec], { cwd: project.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("cut.flow.yaml:5:32: error[yaml-comment] YAML read ` #1002` as a comment, so the text ends at `page shows Invoice`");
    expect(res.stderr).toContain('hint: quote the whole text so the `#` is part of it: `- assert: "page shows Invoice #1002"`');
    expect(project.files().filter((f) => f.startsWith("cut."))).toEqual(["cut.flow.yaml"]);
  });

  test("refuses a target cut inside its quotes, suggesting single quotes", async () => {
    const spec = project.write("quote.flow.yaml", flow("Quote", ['rules: Click "Invoice #1001"']));
    const res = await runCli(["validate", spec], { cwd: project.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("quote.flow.yaml:5:27: error[yaml-comment] YAML read ` #1001\"` as a comment");
    expect(res.stderr).toContain("`- rules: 'Click \"Invoice #1001\"'`");
  });

  test("the quoted step keeps its `#`, and `# note` after a complete step stays a comment", async () => {
    // Cut at the `#`, "does not show Invoice" would fail on this page; whole, it holds.
    const spec = project.write("noted.flow.yaml", flow("Noted", [
      'assert: "page does not show Invoice #1002"',
      "assert: 'page shows Invoice #1001' # the first invoice",
      'rules: Click "Open" # opens it',
    ]));
    const res = await runCli(["record", spec], { cwd: project.dir });
    expect({ code: res.code, stderr: res.stderr }).toMatchObject({ code: 0 });
    const trace = project.read("noted.trace.jsonl");
    expect(trace).toContain("page does not show Invoice #1002");
    expect(trace).not.toContain("opens it");
  });
});
