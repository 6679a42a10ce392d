import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { errorLine, runSuite } from "./suite.ts";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";

const p = tmpProject();
afterAll(() => p.remove());
const flow = (name: string, extra = "") => `name: ${name}\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - rules: Click "Go"\n${extra}`;

// These suites never reach a browser: every flow is skipped or errored before replay.
describe("runSuite", () => {
  test("records skipped and errored flows, writes junit, html and the run record", async () => {
    p.write("a.flow.yaml", flow("A"));
    p.write("b.flow.yaml", "name: B\napp: web\nsteps: []\n");
    p.write("c.flow.yaml", flow("C", "skip_unless_env: [NOPE_NOT_SET]\n"));
    const seen: string[] = [];
    const r = await runSuite({ dir: p.dir, env: {}, onFlow: (f) => seen.push(`${f.spec}:${f.outcome}`) });
    expect(seen.sort()).toEqual(["a.flow.yaml:skipped", "b.flow.yaml:errored", "c.flow.yaml:skipped"]);
    expect([r.passed, r.failed, r.skipped, r.errored]).toEqual([0, 0, 2, 1]);
    expect(r.flows.find((f) => f.spec === "a.flow.yaml")!.reason).toMatch(/^no trace recorded at .*a\.trace\.jsonl/);
    expect(r.flows.find((f) => f.spec === "c.flow.yaml")!.reason).toBe("skip_unless_env: NOPE_NOT_SET is not set");
    for (const path of [r.junit_path, r.record_path, r.html_path]) expect(existsSync(path)).toBe(true);
    expect(JSON.parse(readFileSync(r.record_path, "utf8")).flows.map((f: { status: string }) => f.status)).toEqual(["skipped", "errored", "skipped"]);
  });
  test("--strict errors a missing trace", async () => {
    const r = await runSuite({ dir: p.dir, env: {}, strict: true });
    expect(r.flows.find((f) => f.spec === "a.flow.yaml")!.outcome).toBe("errored");
  });
  test("an empty directory is an error", async () => {
    const empty = tmpProject();
    try {
      await expect(runSuite({ dir: empty.dir, env: {} })).rejects.toBeInstanceOf(SpecError);
    } finally {
      empty.remove();
    }
  });
  test("errorLine gives the first diagnostic with its place and hint", () => {
    const e = new SpecError([diagnostic("bad-value", "bad", { hint: "fix it" }), diagnostic("bad-value", "worse")]);
    expect(errorLine(e)).toBe("bad (hint: fix it) (+1 more)");
  });
});
