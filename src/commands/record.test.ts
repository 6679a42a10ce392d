import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { record } from "./record.ts";
import { readTrace } from "../../test/support/trace.ts";

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

describe("record", () => {
  test("writes the trace next to the flow and reports routing per step", async () => {
    const spec = project.write(
      "a.flow.yaml",
      flowYaml("A", `${server.url}/greeter.html`, ['Type Ada into the "Your name" field', 'rules: Press the "Greet" button']),
    );
    const lines: string[] = [];
    const r = await record({ spec, env: {}, log: (l) => lines.push(l) });
    expect(r.ok).toBe(true);
    expect(r.trace_path).toBe(join(project.dir, "a.trace.jsonl"));
    expect(r.routing).toEqual([
      { step: 1, intent: 'Type Ada into the "Your name" field', route: "fallback" },
      { step: 2, intent: 'Press the "Greet" button', route: "rules" },
    ]);
    expect(lines[0]).toContain("WARNING: no authoring model is available");
    const header = readTrace<{ spec: { path: string; name: string } }>(r.trace_path!).header;
    expect(header.spec).toMatchObject({ path: "a.flow.yaml", name: "A" });
  });
  test("writes no trace when a step fails, and says which", async () => {
    const spec = project.write("b.flow.yaml", flowYaml("B", `${server.url}/greeter.html`, ['rules: Click "Not there"']));
    const r = await record({ spec, env: { FLOWPROOF_STEP_TIMEOUT_MS: "300" }, author: "rules" });
    expect(r.ok).toBe(false);
    expect(r.error).toContain('step s0001 (Click "Not there") failed');
    expect(existsSync(join(project.dir, "b.trace.jsonl"))).toBe(false);
  });
});

describe("record in a suite", () => {
  test("applies the suite's env and runs between its hooks; a failing hook fails the recording, naming it", async () => {
    const p = tmpProject();
    try {
      const log = join(p.dir, "hooks.log");
      p.write("suite.yaml", `env: { WHO_IN_SUITE: Ada }\nbefore_each: echo before >> ${log}\nafter_each: echo after >> ${log}\n`);
      const spec = p.write(
        "flows/g.flow.yaml",
        flowYaml("G", `${server.url}/greeter.html`, [
          'rules: Type ${WHO_IN_SUITE} into the "Your name" field',
          'rules: Press the "Greet" button',
          "assert: page shows Hello, Ada!",
        ]),
      );
      const lines: string[] = [];
      const r = await record({ spec, env: {}, recordingDetail: "off", log: (l) => lines.push(l) });
      expect(r).toMatchObject({ ok: true, steps: 3 });
      expect(lines[0]).toMatch(/^suite: .*suite\.yaml$/);
      expect(readFileSync(log, "utf8")).toBe("before\nafter\n");

      // A failing before_each: nothing is recorded, and the trace already there stays as it was.
      const before = readFileSync(r.trace_path!, "utf8");
      p.write("suite.yaml", `env: { WHO_IN_SUITE: Ada }\nbefore_each: exit 5\nafter_each: echo after >> ${log}\n`);
      const refused = await record({ spec, env: {}, recordingDetail: "off" });
      expect(refused).toMatchObject({ ok: false, trace_path: null, error: "before_each hook `exit 5` failed (exit code 5); nothing was recorded" });
      expect(readFileSync(r.trace_path!, "utf8")).toBe(before);
      expect(readFileSync(log, "utf8")).toBe("before\nafter\nafter\n");

      // A failing after_each fails a recording that succeeded; the trace it wrote is kept and named.
      p.write("suite.yaml", "env: { WHO_IN_SUITE: Ada }\nafter_each: exit 6\n");
      const late = await record({ spec, env: {}, recordingDetail: "off" });
      expect(late.ok).toBe(false);
      expect(late.trace_path).toBe(r.trace_path);
      expect(late.error).toStartWith("after_each hook `exit 6` failed (exit code 6); the trace was written to ");
      expect(late.error).toEndWith(join("flows", "g.trace.jsonl"));
    } finally {
      p.remove();
    }
  });

  test("refuses a suite that needs a newer flowproof before anything starts", async () => {
    const p = tmpProject();
    try {
      p.write("suite.yaml", 'min_version: "99.0.0"\n');
      const spec = p.write("g.flow.yaml", flowYaml("G", "http://127.0.0.1:9/", ['rules: Click "Go"']));
      await expect(record({ spec, env: {} })).rejects.toThrow(/needs flowproof 99\.0\.0 or newer/);
    } finally {
      p.remove();
    }
  });
});
