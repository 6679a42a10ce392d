import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { record } from "./record.ts";
import { runInSuiteContext } from "./run-single.ts";
import { TraceError } from "../diagnostics/diagnostic.ts";

let server: TestServer;
let p: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  p = tmpProject();
});
afterAll(() => {
  server.stop();
  p.remove();
});

describe("runInSuiteContext", () => {
  test("applies the nearest suite.yaml's env and hooks and writes a run record with the control", async () => {
    const log = join(p.dir, "hooks.log");
    p.write("suite.yaml", `env: { WHO: Ada }\nbefore_each: echo before >> ${log}\nafter_each: echo after >> ${log}\n`);
    const spec = p.write(
      "flows/g.flow.yaml",
      `${flowYaml("G", `${server.url}/greeter.html`, ['rules: Type ${WHO} into the "Your name" field', 'rules: Press the "Greet" button', "assert: page shows Hello, Ada!"])}control: { id: greet.ada }\n`,
    );
    expect((await record({ spec, env: { WHO: "Ada" }, recordingDetail: "off" })).ok).toBe(true);
    const lines: string[] = [];
    const r = await runInSuiteContext({ spec, env: {}, recordingDetail: "off", log: (l) => lines.push(l) });
    expect(r.report.passed).toBe(true);
    expect(r.suite_file).toBe(join(p.dir, "suite.yaml"));
    expect(lines[0]).toContain("suite: ");
    // The hooks ran around the recording, then around the replay.
    expect(readFileSync(log, "utf8")).toBe("before\nafter\nbefore\nafter\n");
    const rec = JSON.parse(readFileSync(r.record_path!, "utf8")) as {
      flows: Array<{ flow: string; status: string; control: { verdict: string }; result: string }>;
    };
    expect(rec.flows[0]).toMatchObject({ flow: "flows/g.flow.yaml", status: "pass", control: { verdict: "pass" } });
    expect(existsSync(join(r.record_path!, "..", rec.flows[0]!.result))).toBe(true);
  });
  test("one run writes one run folder: the run record goes into the run's own bundle", async () => {
    const q = tmpProject();
    try {
      const spec = q.write("g.flow.yaml", flowYaml("G", `${server.url}/greeter.html`, ['rules: Press the "Greet" button']));
      expect((await record({ spec, env: {}, recordingDetail: "off" })).ok).toBe(true);
      const runs = join(q.dir, ".flowproof", "runs");
      const before = existsSync(runs) ? readdirSync(runs) : [];
      const r = await runInSuiteContext({ spec, env: {}, recordingDetail: "off" });
      const added = readdirSync(runs).filter((d) => !before.includes(d));
      expect(added).toHaveLength(1);
      expect(r.record_path).toBe(join(runs, added[0]!, "report.json"));
      expect(existsSync(join(runs, added[0]!, "result.json"))).toBe(true);
    } finally {
      q.remove();
    }
  });
  test("after_each runs even when the flow cannot start", async () => {
    const spec = p.write("flows/none.flow.yaml", flowYaml("None", `${server.url}/greeter.html`, ['rules: Click "Greet"']));
    await expect(runInSuiteContext({ spec, env: {} })).rejects.toBeInstanceOf(TraceError);
    expect(readFileSync(join(p.dir, "hooks.log"), "utf8").endsWith("before\nafter\nbefore\nafter\n")).toBe(true);
  });
  test("--retries re-runs a failed flow in a fresh context", async () => {
    const q = tmpProject();
    try {
      let served = 0;
      server.setRoute("/flaky-single.html", () => {
        served++;
        return new Response(`<!doctype html><title>F</title><p id="s">${served === 2 ? "not yet" : "ready"}</p>`, { headers: { "content-type": "text/html" } });
      });
      const spec = q.write("f.flow.yaml", flowYaml("Flaky", `${server.url}/flaky-single.html`, ['assert: the "id:s" shows ready within 1s']));
      expect((await record({ spec, env: {}, recordingDetail: "off" })).ok).toBe(true);
      const lines: string[] = [];
      const r = await runInSuiteContext({ spec, env: {}, retries: 1, recordingDetail: "off", log: (l) => lines.push(l) });
      expect(r.report.passed).toBe(true);
      expect(lines.join("\n")).toContain("retry 1/1 Flaky");
    } finally {
      q.remove();
    }
  });
});
