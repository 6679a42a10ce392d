import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { record } from "./record.ts";
import { knownFailure, run, runOutcome } from "./run.ts";
import { TraceError } from "../diagnostics/diagnostic.ts";
import { resealed } from "../../test/support/trace.ts";

let server: TestServer;
let project: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  project.remove();
});

describe("run", () => {
  test("replays the trace and writes a bundle under .flowproof/runs next to the flow", async () => {
    const spec = project.write(
      "r.flow.yaml",
      flowYaml("R", `${server.url}/greeter.html`, [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows Hello, Ada!",
      ]),
    );
    expect((await record({ spec, env: {} })).ok).toBe(true);
    const r = await run({ spec, env: {} });
    expect(r.report.passed).toBe(true);
    expect(r.report.outcome).toBe("passed");
    expect(r.run_dir.startsWith(`${project.dir}/.flowproof/runs/`)).toBe(true);
    for (const p of [r.report_path, r.junit_path, r.html_path]) expect(existsSync(p)).toBe(true);
    expect(JSON.parse(readFileSync(r.report_path, "utf8"))).toEqual(r.report);
  });
  test("a flow edited since its trace was recorded replays but is stale: not passed, with both hashes", async () => {
    const spec = project.write(
      "r.flow.yaml",
      flowYaml("R", `${server.url}/greeter.html`, [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows Hello, Ada!",
      ]) + "# edited\n",
    );
    const r = await run({ spec, env: {} });
    expect(r.report.passed).toBe(false);
    expect(r.report.outcome).toBe("stale");
    expect(r.report.steps.every((s) => s.status === "passed")).toBe(true);
    expect(r.report.stale?.trace_hash).toMatch(/^sha256:/);
    expect(r.report.stale?.flow_hash).not.toBe(r.report.stale?.trace_hash);
    expect(r.report.error).toContain("changed since");
    expect(r.error_hint).toContain("flowproof record");
    expect(readFileSync(r.junit_path, "utf8")).toContain('<error type="stale"');
    project.write(
      "r.flow.yaml",
      flowYaml("R", `${server.url}/greeter.html`, [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows Hello, Ada!",
      ]),
    );
  });
  test("a trace recorded from another flow (name or file) is a TraceError naming both", async () => {
    const other = project.write("other.flow.yaml", flowYaml("Other", `${server.url}/greeter.html`, ['rules: Press the "Greet" button']));
    await expect(run({ spec: other, trace: `${project.dir}/r.trace.jsonl`, env: {} })).rejects.toThrow(
      /r\.trace\.jsonl was recorded from the flow "R" \(.*r\.flow\.yaml\), not from "Other" \(.*other\.flow\.yaml\)/,
    );
    // Same name, another file: still another flow.
    const twin = project.write("twin/r.flow.yaml", readFileSync(`${project.dir}/r.flow.yaml`, "utf8"));
    await expect(run({ spec: twin, trace: `${project.dir}/r.trace.jsonl`, env: {} })).rejects.toBeInstanceOf(TraceError);
  });
  test("a flow that cannot start is a report with an error, not an exception", async () => {
    const spec = project.write("down.flow.yaml", flowYaml("Down", "http://127.0.0.1:9/", ['rules: Click "Greet"']));
    project.write(
      "down.trace.jsonl",
      resealed(
        readFileSync(`${project.dir}/r.trace.jsonl`, "utf8")
          .replace(/"url":"[^"]*"/, '"url":"http://127.0.0.1:9/"')
          .replace(
            /"spec":\{[^}]*\}/,
            `"spec":{"name":"Down","path":"down.flow.yaml","hash":"sha256:${createHash("sha256").update(readFileSync(spec, "utf8")).digest("hex")}"}`,
          ),
      ),
    );
    const r = await run({ spec, env: {} });
    expect(r.report.passed).toBe(false);
    expect(r.report.error).toContain("could not open the flow's url");
    expect(r.report.outcome).toBe("errored");
    expect(r.report.steps.every((s) => s.status === "skipped")).toBe(true);
  });
  test("a missing trace throws a TraceError", async () => {
    const spec = project.write("none.flow.yaml", flowYaml("None", `${server.url}/greeter.html`, ['rules: Click "Greet"']));
    await expect(run({ spec, env: {} })).rejects.toBeInstanceOf(TraceError);
  });
});

describe("runOutcome", () => {
  const steps = (...statuses: ("passed" | "failed" | "errored" | "skipped")[]) => statuses.map((status) => ({ status }));
  const none = { error: undefined, stale: false, interrupted: false };
  test("passed only when every step passed and nothing else went wrong", () => {
    expect(runOutcome({ ...none, steps: steps("passed", "passed") })).toBe("passed");
    expect(runOutcome({ ...none, steps: [] })).toBe("failed");
    expect(runOutcome({ ...none, steps: steps("passed", "failed", "skipped") })).toBe("failed");
  });
  test("an error of the run or an errored step errors the flow", () => {
    expect(runOutcome({ ...none, steps: steps("passed", "errored") })).toBe("errored");
    expect(runOutcome({ ...none, error: "leak", steps: steps("passed") })).toBe("errored");
  });
  test("stale wins over everything, then interrupted", () => {
    expect(runOutcome({ steps: steps("passed"), error: "changed since", stale: true, interrupted: false })).toBe("stale");
    expect(runOutcome({ steps: steps("errored"), error: "x", stale: true, interrupted: true })).toBe("stale");
    expect(runOutcome({ steps: steps("errored", "skipped"), error: undefined, stale: false, interrupted: true })).toBe("interrupted");
  });
});

describe("knownFailure", () => {
  const header = {
    expect: {
      fail: "BUG-1: wrong total",
      step: "s0002",
      failure: 'expected the page to show "Total 90.00" within 2000 ms; the page shows Total 100.00',
      check: "assert value_contains",
      actual: "Total 100.00",
    },
  } as unknown as Parameters<typeof knownFailure>[0];
  const assertion = (id: string) => ({
    id,
    intent: id,
    action: {
      type: "assert",
      params: { kind: "element_state", expect: { scope: "surface", timeout_ms: 2000, value_contains: "Total 90.00" }, selector_ref: null },
    },
    selectors: [],
    sync: { pre: [], post: [] },
    artifacts: {},
  });
  const steps = [assertion("s0001"), assertion("s0002")] as unknown as Parameters<typeof knownFailure>[1];
  const step = (id: string, status: "passed" | "failed" | "errored" | "skipped", detail?: string, actual?: string) => ({
    id,
    intent: id,
    status,
    started_ms: 0,
    duration_ms: 0,
    ...(detail ? { detail } : {}),
    ...(actual ? { actual } : {}),
  });
  const failing = (actual: string) => step("s0002", "failed", `expected the page to show "Total 90.00" within 2000 ms; the page shows ${actual}`, actual);

  test("the recorded step failing first again, the same way, is the expected failure", () => {
    expect(knownFailure(header, steps, [step("s0001", "passed"), failing("Total  100.00 ")], undefined, "c.flow.yaml").expected).toEqual({
      reason: "BUG-1: wrong total",
      step: "s0002",
      detail: 'expected the page to show "Total 90.00" within 2000 ms; the page shows Total  100.00 ',
    });
  });

  test("the recorded step failing another way fails, naming both failures", () => {
    const r = knownFailure(header, steps, [step("s0001", "passed"), failing("Maintenance: everything is down")], undefined, "c.flow.yaml");
    expect(r.expected).toBeUndefined();
    expect(r.results[1]!.status).toBe("failed");
    expect(r.results[1]!.detail).toBe(
      'failed, but not as the known failure (BUG-1: wrong total) was recorded (the app shows something else): at record expected the page to show "Total 90.00" within 2000 ms; the page shows Total 100.00; now expected the page to show "Total 90.00" within 2000 ms; the page shows Maintenance: everything is down. Fix the app, or, if this is the known failure now, record the flow again',
    );
  });

  test("another step failing first, an errored step or an error of the run is the run's own verdict", () => {
    expect(knownFailure(header, steps, [step("s0001", "failed"), step("s0002", "skipped")], undefined, "c.flow.yaml").expected).toBeUndefined();
    expect(knownFailure(header, steps, [step("s0001", "passed"), step("s0002", "errored")], undefined, "c.flow.yaml").expected).toBeUndefined();
    expect(knownFailure(header, steps, [step("s0001", "passed"), failing("Total 100.00")], "could not open", "c.flow.yaml").expected).toBeUndefined();
  });

  test("the recorded step passing fails it, naming the marker to remove", () => {
    const r = knownFailure(header, steps, [step("s0001", "passed"), step("s0002", "passed")], undefined, "c.flow.yaml");
    expect(r.expected).toBeUndefined();
    expect(r.results[1]).toMatchObject({
      status: "failed",
      detail: "expected to fail (BUG-1: wrong total), but it passed: the known failure is gone; remove `expect:` from c.flow.yaml and record it again",
    });
  });
});
