// Input and output faults through the real CLI and real Chromium: a step YAML cut at a comment is
// refused at load instead of passing shortened; page text that is hostile to terminals and XML is
// sanitised; unwritable and full output directories are an io-error before anything runs, with no
// temporary file left; retry bundles never take another flow's bundle name.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { resealed } from "../support/trace.ts";

let server: TestServer;
let project: TmpProject;
/** The word the hostile page shows in its total: a test changes it to make a recorded assertion fail. */
let hostileTotal = "Total";
/** What the status page shows: a test changes it to make a recorded flow fail on replay. */
let status = "Ready";
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute(
    "/invoice",
    () =>
      new Response("<!doctype html><title>Invoices</title><h1>Invoice #1001</h1><button>Open</button>", {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  server.setRoute(
    "/hostile",
    () =>
      new Response(
        `<!doctype html><title>Hostile \u001b]0;PWNED\u0007</title><h1 id="total">${hostileTotal} \u001b]0;PWNED\u0007\u001b[31mRED\u009b2J \uFFFE\uFFFF end</h1><button>Pay</button>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  );
  server.setRoute(
    "/status",
    () => new Response(`<!doctype html><title>Status</title><p id="status">${status}</p>`, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
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
    expect(res.stderr).toContain('quote.flow.yaml:5:27: error[yaml-comment] YAML read ` #1001"` as a comment');
    expect(res.stderr).toContain("`- rules: 'Click \"Invoice #1001\"'`");
  });

  test("the quoted step keeps its `#`, and `# note` after a complete step stays a comment", async () => {
    // Cut at the `#`, "does not show Invoice" would fail on this page; whole, it holds.
    const spec = project.write(
      "noted.flow.yaml",
      flow("Noted", ['assert: "page does not show Invoice #1002"', "assert: 'page shows Invoice #1001' # the first invoice", 'rules: Click "Open" # opens it']),
    );
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
    const spec = project.write(
      "hostile.flow.yaml",
      [
        "name: Hostile",
        "app: web",
        `url: ${server.url}/hostile`,
        "steps:",
        '  - rules: Click "Pay"',
        '  - assert: the "id:total" shows Total within 1s',
        "",
      ].join("\n"),
    );
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

/** Runs a system command that must succeed (chattr, mount: these tests run as root). */
function sh(...cmd: string[]): void {
  const proc = Bun.spawnSync(cmd);
  if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (these tests need root and a file system with chattr): ${proc.stderr.toString()}`);
}

/** Every file under `dir`, relative. */
function filesUnder(dir: string, rel = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? filesUnder(join(dir, e), `${rel}${e}/`) : [`${rel}${e}`]));
}

const STEPS = [
  'rules: Click "Open"',
  "assert: 'page shows Invoice #1001'",
  'rules: Click "Open"',
  'assert: the "Open" button is visible',
  'rules: Click "Open"',
  "assert: page does not show Error",
];

describe("output that cannot be written", () => {
  const immutable: string[] = [];
  const mounts: string[] = [];
  afterAll(() => {
    for (const dir of immutable) sh("chattr", "-i", dir);
    for (const dir of mounts) sh("umount", dir);
  });
  const makeImmutable = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    sh("chattr", "+i", dir);
    immutable.push(dir);
  };
  /** A 100 KiB tmpfs at `dir`: a few frames fill it. */
  const smallDisk = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    sh("mount", "-t", "tmpfs", "-o", "size=100k", "tmpfs", dir);
    mounts.push(dir);
    return dir;
  };

  test("record refuses an unwritable .flowproof/ before starting the browser", async () => {
    const dir = join(project.dir, "immutable-record");
    const spec = project.write("immutable-record/inv.flow.yaml", flow("Immutable", STEPS));
    makeImmutable(join(dir, ".flowproof"));
    const res = await runCli(["record", spec], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`error: cannot write ${join(dir, ".flowproof", "recordings")} (the recording's frames): permission denied (EPERM) [io-error]`);
    expect(res.stderr).toContain(`hint: make ${join(dir, ".flowproof")} writable`);
    expect(res.stderr).not.toContain("[AUTHOR");
    expect(filesUnder(dir)).toEqual(["inv.flow.yaml"]);
  });

  test("record refuses an unwritable trace directory before starting the browser", async () => {
    const dir = join(project.dir, "immutable-trace");
    const spec = project.write("immutable-trace/inv.flow.yaml", flow("Immutable trace", STEPS));
    makeImmutable(join(dir, "traces"));
    const res = await runCli(["record", spec, "-o", "traces/inv.trace.jsonl"], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`error: cannot write ${join(dir, "traces")} (the trace): permission denied (EPERM) [io-error]`);
    expect(res.stderr).toContain(`hint: make ${join(dir, "traces")} writable`);
    expect(res.stderr).not.toContain("[AUTHOR");
  });

  test("run refuses an unwritable run directory before starting the browser", async () => {
    const dir = join(project.dir, "immutable-run");
    const spec = project.write("immutable-run/inv.flow.yaml", flow("Immutable run", STEPS));
    expect((await runCli(["record", spec, "--recording-detail", "off"], { cwd: dir })).code).toBe(0);
    makeImmutable(join(dir, ".flowproof", "runs"));
    const res = await runCli(["run", spec, "--json"], { cwd: dir });
    expect(res.code).toBe(2);
    const out = JSON.parse(res.stdout) as { error: { code: string; message: string; diagnostics: Array<{ hint?: string }> } };
    expect(out.error.code).toBe("io-error");
    expect(out.error.message).toMatch(
      /^cannot write .*\.flowproof\/runs\/\d{8}T[\d.]+Z \(the run's result\.json, junit\.xml, report\.html and frames\): permission denied \(EPERM\)$/,
    );
    expect(out.error.diagnostics[0]!.hint).toContain("writable");
  });

  test("a disk that fills up during record is an io-error with a hint; no trace, bundle or temp file is left", async () => {
    const dir = smallDisk(join(project.dir, "full-record"));
    const spec = project.write("full-record/inv.flow.yaml", flow("Full record", STEPS));
    const res = await runCli(["record", spec], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/error: cannot write \S+: the disk is full \(ENOSPC\) \[io-error\]\n  hint: free space on the disk holding /);
    expect(res.stderr).not.toContain("frame-worker.ts");
    expect(res.stderr).not.toMatch(/^\s+at /m);
    expect(filesUnder(dir)).toEqual(["inv.flow.yaml"]);
  });

  /** Fills the disk holding `dir` until about `leaveBytes` are free. */
  const fillUntil = (dir: string, leaveBytes: number) => {
    const df = Bun.spawnSync(["df", "--output=avail", "-B1", dir]).stdout.toString().trim().split("\n");
    const avail = Number(df[df.length - 1]);
    writeFileSync(join(dir, "filler.bin"), new Uint8Array(Math.max(0, avail - leaveBytes)));
  };
  /** Every result.json and junit.xml under `dir`, and what each says. */
  const verdicts = (dir: string) =>
    filesUnder(dir)
      .filter((f) => /(result\.json|junit\.xml|report\.json)$/.test(f))
      .map((f) => {
        const text = readFileSync(join(dir, f), "utf8");
        const junit = /<testsuites [^>]*failures="(\d+)" errors="(\d+)"/.exec(text);
        if (junit) return { file: f, says: Number(junit[1]) + Number(junit[2]) > 0 ? "not passed" : "passed" };
        const json = JSON.parse(text) as { outcome?: string; flows?: { status: string }[] };
        const passed = f.endsWith("report.json") ? (json.flows ?? []).some((fl) => fl.status === "pass") : json.outcome === "passed";
        return { file: f, says: passed ? "passed" : "not passed" };
      });

  test("a disk with room for result.json but not the whole bundle: exit 2, and nothing written says the run passed", async () => {
    const dir = smallDisk(join(project.dir, "full-report"));
    const spec = project.write("full-report/inv.flow.yaml", flow("Full report", STEPS));
    expect((await runCli(["record", spec, "--recording-detail", "off"], { cwd: dir })).code).toBe(0);
    fillUntil(dir, 8 * 1024);
    const res = await runCli(["run", spec, "--recording-detail", "off"], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/cannot write \S+(report\.html|junit\.xml): the disk is full \(ENOSPC\)/);
    const written = verdicts(dir);
    expect(written.map((v) => v.file)).toContainEqual(expect.stringMatching(/result\.json$/));
    expect(written.filter((v) => v.says === "passed")).toEqual([]);
    const result = JSON.parse(readFileSync(join(dir, written.find((v) => v.file.endsWith("result.json"))!.file), "utf8")) as {
      outcome: string;
      passed: boolean;
      error: string;
    };
    expect(result).toMatchObject({ outcome: "errored", passed: false });
    expect(result.error).toContain("the run's evidence could not be written whole: cannot write");
    expect(filesUnder(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    // The same flow in a suite run: its junit and the suite's say it errored, never that it passed.
    rmSync(join(dir, ".flowproof"), { recursive: true, force: true });
    rmSync(join(dir, "filler.bin"));
    fillUntil(dir, 12 * 1024);
    const suite = await runCli(["run", ".", "--recording-detail", "off"], { cwd: dir });
    expect(suite.code).toBe(2);
    expect(verdicts(dir).filter((v) => v.says === "passed")).toEqual([]);
  });

  test("a disk that fills up during run is an io-error with a hint and leaves no temp file", async () => {
    const dir = smallDisk(join(project.dir, "full-run"));
    const spec = project.write("full-run/inv.flow.yaml", flow("Full run", STEPS));
    expect((await runCli(["record", spec, "--recording-detail", "off"], { cwd: dir })).code).toBe(0);
    const res = await runCli(["run", spec], { cwd: dir });
    expect(res.code).toBe(2);
    // Said in result.json when it still fits, else as the command's error: the same words either way.
    expect(res.stderr).toMatch(/error: cannot write \S+: the disk is full \(ENOSPC\)( \[io-error\])?\n  hint: free space on the disk holding /);
    expect(res.stderr).not.toContain("driver fault");
    expect(res.stderr).not.toMatch(/^\s+at /m);
    expect(filesUnder(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("retry bundles", () => {
  test("a retried flow never writes into the bundle of a flow named like its retry", async () => {
    const suite = join(project.dir, "retry-suite");
    const statusFlow = (name: string) =>
      [`name: ${name}`, "app: web", `url: ${server.url}/status`, "steps:", "  - assert: page shows Ready within 1s", ""].join("\n");
    const checkout = project.write("retry-suite/checkout.flow.yaml", statusFlow("Checkout"));
    const other = project.write("retry-suite/checkout-attempt-2.flow.yaml", statusFlow("Checkout attempt two"));
    for (const spec of [checkout, other]) expect((await runCli(["record", spec, "--recording-detail", "off"], { cwd: suite })).code).toBe(0);
    // `checkout-attempt-2` now passes on its own trace; `checkout` fails, is retried, and fails again.
    project.write(
      "retry-suite/checkout-attempt-2.trace.jsonl",
      resealed(project.read("retry-suite/checkout-attempt-2.trace.jsonl").replaceAll("Ready", "Busy")),
    );
    status = "Busy";
    const res = await runCli(["run", ".", "--retries", "1", "--json", "--recording-detail", "off"], { cwd: suite });
    status = "Ready";
    const out = JSON.parse(res.stdout) as { run_dir: string; flows: Array<{ spec: string; outcome: string; attempts: number; report_path: string }> };
    expect(res.code).toBe(1);
    const bySpec = Object.fromEntries(out.flows.map((f) => [f.spec, f]));
    expect(bySpec["checkout.flow.yaml"]).toMatchObject({
      outcome: "failed",
      attempts: 2,
      report_path: join(out.run_dir, "attempts", "2", "checkout", "result.json"),
    });
    expect(bySpec["checkout-attempt-2.flow.yaml"]).toMatchObject({
      outcome: "passed",
      attempts: 1,
      report_path: join(out.run_dir, "flows", "checkout-attempt-2", "result.json"),
    });
    const kept = JSON.parse(readFileSync(join(out.run_dir, "flows", "checkout-attempt-2", "result.json"), "utf8")) as { name: string; passed: boolean };
    expect(kept).toMatchObject({ name: "Checkout attempt two", passed: true });
    const first = JSON.parse(readFileSync(join(out.run_dir, "flows", "checkout", "result.json"), "utf8")) as { name: string; passed: boolean };
    expect(first).toMatchObject({ name: "Checkout", passed: false });
  });
});
