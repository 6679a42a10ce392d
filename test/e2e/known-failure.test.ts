// A known failure (`expect: {fail: …}`) is expected only while its step fails the same way it did
// at record, through the real CLI and real Chromium: the same wrong total replays as XFAIL; a
// maintenance page in its place is a FAIL naming both failures (exit 1, a junit failure); an app
// that is down is never the known failure, at replay or at record.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";

let server: TestServer;
let project: TmpProject;
/** What the shop page is: the wrong total (the known bug), a maintenance page, or a server error. */
let page: "bug" | "maintenance" | "error" = "bug";

const html = (body: string, status = 200) =>
  new Response(`<!doctype html><title>Shop</title>${body}`, { status, headers: { "content-type": "text/html; charset=utf-8" } });

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/shop.html", () =>
    page === "bug"
      ? html("<p>Greet</p><p>Total 100.00</p>")
      : page === "maintenance"
        ? html("<p>Maintenance: everything is down</p>")
        : html("<p>Internal error</p>", 503),
  );
  server.setRoute("/broken.html", () => html("<p>Internal error</p>", 500));
  project = tmpProject("flowproof-known-");
});
afterAll(() => {
  server.stop();
  project.remove();
});

const KNOWN = 'expect:\n  fail: "BUG-2: total wrong"\n';
const STEPS = ["assert: page shows Total 90.00 within 2s"];
const resultOf = (stdout: string) =>
  JSON.parse(readFileSync(join(project.dir, /result: (.*)/.exec(stdout)![1]!), "utf8")) as {
    outcome: string;
    expected_failure?: unknown;
    steps: { id: string; status: string; detail?: string }[];
  };

describe("a known failure is the same failure", () => {
  let spec = "";
  beforeAll(async () => {
    page = "bug";
    spec = project.write("shop/total.flow.yaml", `${flowYaml("Known bug first step", `${server.url}/shop.html`, STEPS)}${KNOWN}`);
    const rec = await runCli(["record", spec, "--recording-detail", "off"], { cwd: project.dir });
    expect(rec.code).toBe(0);
    const trace = join(project.dir, "shop", "total.trace.jsonl");
    expectValidTrace(trace);
    expect(JSON.parse(readFileSync(trace, "utf8").split("\n")[0]!).expect).toEqual({
      fail: "BUG-2: total wrong",
      step: "s0001",
      check: "assert value_contains",
      actual: "Greet Total 100.00",
      failure: 'expected the page to show "Total 90.00" within 2000 ms; the page shows Greet Total 100.00',
    });
  });

  test("the same page replays as the expected failure (XFAIL, exit 0)", async () => {
    page = "bug";
    const r = await runCli(["run", spec, "--recording-detail", "off"], { cwd: project.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("[XFAIL] s0001 page shows Total 90.00 within 2s");
    expect(r.stdout).toContain("XFAIL: Known bug first step");
    expect(resultOf(r.stdout).outcome).toBe("expected_failure");
  });

  test("a maintenance page in its place fails, naming the recorded and the new failure (exit 1, a junit failure)", async () => {
    page = "maintenance";
    const r = await runCli(["run", spec, "--recording-detail", "off"], { cwd: project.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("XFAIL");
    expect(r.stdout).toContain(
      '[FAIL] s0001 page shows Total 90.00 within 2s — failed, but not as the known failure (BUG-2: total wrong) was recorded (the app shows something else): at record expected the page to show "Total 90.00" within 2000 ms; the page shows Greet Total 100.00; now expected the page to show "Total 90.00" within 2000 ms; the page shows Maintenance: everything is down',
    );
    const resultPath = join(project.dir, /result: (.*)/.exec(r.stdout)![1]!);
    expectValidResult(resultPath);
    const result = resultOf(r.stdout);
    expect(result.outcome).toBe("failed");
    expect(result.expected_failure).toBeUndefined();
    const junit = readFileSync(resultPath.replace("result.json", "junit.xml"), "utf8");
    expect(junit).toContain("<failure");
    expect(junit).not.toContain('type="xfail"');
    expect(junit).toContain('failures="1"');
  });

  test("an app that is down (a server error page) is never the known failure", async () => {
    page = "error";
    const r = await runCli(["run", spec, "--recording-detail", "off"], { cwd: project.dir });
    expect(r.code).not.toBe(0);
    expect(r.stdout).not.toContain("XFAIL");
    expect(r.stderr).toContain("answered HTTP 503");
    expect(resultOf(r.stdout).outcome).not.toBe("expected_failure");
  });

  test("an app that is down (connection refused) is never the known failure", async () => {
    const gone = await startServer();
    gone.setRoute("/shop.html", () => html("<p>Greet</p><p>Total 100.00</p>"));
    const downSpec = project.write("gone/total.flow.yaml", `${flowYaml("Known bug, app gone", `${gone.url}/shop.html`, STEPS)}${KNOWN}`);
    expect((await runCli(["record", downSpec, "--recording-detail", "off"], { cwd: project.dir })).code).toBe(0);
    gone.stop();
    const r = await runCli(["run", downSpec, "--recording-detail", "off"], { cwd: project.dir });
    expect(r.code).not.toBe(0);
    expect(r.stdout).not.toContain("XFAIL");
    expect(r.stderr).toContain("could not open the flow's url");
  });

  test("a step failing because the app is down is not recorded as the known failure", async () => {
    page = "bug";
    const downSpec = project.write(
      "down/go.flow.yaml",
      `${flowYaml("Known bug behind a broken page", `${server.url}/shop.html`, ["rules: Go to /broken.html", ...STEPS])}${KNOWN}`,
    );
    const rec = await runCli(["record", downSpec, "--recording-detail", "off"], { cwd: project.dir });
    expect(rec.code).not.toBe(0);
    expect(rec.stderr).toContain("answered HTTP 500");
    expect(rec.stderr).toContain("an app that is down is never the known failure `expect:` declares");
    expect(project.files().filter((f) => f.startsWith("down/") && f.endsWith(".trace.jsonl"))).toEqual([]);
  });
});
