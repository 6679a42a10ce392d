// Input and output faults through the real CLI and real Chromium: a step YAML cut at a comment is
// refused at load instead of passing shortened; page text that is hostile to terminals and XML is
// sanitised; unwritable and full output directories are an io-error before anything runs, with no
// temporary file left; retry bundles never take another flow's bundle name.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

let server: TestServer;
let project: TmpProject;
/** The word the hostile page shows in its total: a test changes it to make a recorded assertion fail. */
let hostileTotal = "Total";
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/invoice", () => new Response(
    "<!doctype html><title>Invoices</title><h1>Invoice #1001</h1><button>Open</button>",
    { headers: { "content-type": "text/html; charset=utf-8" } },
  ));
  server.setRoute("/hostile", () => new Response(
    `<!doctype html><title>Hostile \u001b]0;PWNED\u0007</title><h1 id="total">${hostileTotal} \u001b]0;PWNED\u0007\u001b[31mRED\u009b2J \uFFFE\uFFFF end</h1><button>Pay</button>`,
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

/** Characters that change a terminal's state instead of printing. */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Whether `file` is well-formed XML, by a real XML parser (Python's expat). */
function wellFormedXml(file: string): { ok: boolean; error: string } {
  const proc = Bun.spawnSync(["python3", "-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", file]);
  return { ok: proc.exitCode === 0, error: proc.stderr.toString() };
}

describe("page text hostile to terminals and XML", () => {
  test("escape sequences never reach the terminal raw and junit.xml stays well-formed", async () => {
    const spec = project.write("hostile.flow.yaml", [
      "name: Hostile",
      "app: web",
      `url: ${server.url}/hostile`,
      "steps:",
      '  - rules: Click "Pay"',
      '  - assert: the "id:total" shows Total within 1s',
      "",
    ].join("\n"));
    expect((await runCli(["record", spec], { cwd: project.dir })).code).toBe(0);
    // The app changed: the page no longer shows the total the trace asserts.
    hostileTotal = "Sum";
    const run = await runCli(["run", spec], { cwd: project.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "1000" } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("[FAIL] s0002");
    expect(run.stdout + run.stderr).toContain("\\u001b]0;PWNED\\u0007");
    expect({ stdout: TERMINAL_CONTROL.test(run.stdout), stderr: TERMINAL_CONTROL.test(run.stderr) }).toEqual({ stdout: false, stderr: false });
    const junit = join(project.dir, /result: (.*)result\.json/.exec(run.stdout)![1]!, "junit.xml");
    expect(readFileSync(junit, "utf8")).toContain("PWNED");
    expect(wellFormedXml(junit)).toEqual({ ok: true, error: "" });
  });

  test("a 1 MB step line is refused with a bounded code frame", async () => {
    const huge = "x".repeat(1_000_000);
    const spec = project.write("huge.flow.yaml", flow("Huge", [`rules: Click "${huge}" now please`]));
    const res = await runCli(["validate", spec], { cwd: project.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^huge\.flow\.yaml:5:\d+: error\[unknown-step\] Unexpected text after the target/);
    expect(res.stderr).toContain("now please");
    expect(res.stderr.length).toBeLessThan(3_000);
  });
});
