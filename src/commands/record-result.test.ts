import { describe, expect, test } from "bun:test";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { clarification } from "../authoring/clarification.ts";
import { record } from "./record.ts";
import { clarificationRecord, notRecorded, skippedRecord } from "./record-result.ts";

describe("record results without a recording", () => {
  test("a failing before_each records nothing and says so", () => {
    expect(notRecorded("before_each hook `exit 5` failed (exit code 5)")).toMatchObject({
      ok: false,
      trace_path: null,
      steps: 0,
      error: "before_each hook `exit 5` failed (exit code 5); nothing was recorded",
    });
  });
  test("an unmet gate is ok and names what is not set", () => {
    expect(skippedRecord("G", ["A"])).toMatchObject({ ok: true, name: "G", trace_path: null, skipped: "skip_unless_env: A is not set" });
    expect(skippedRecord("G", ["A", "B"]).skipped).toBe("skip_unless_env: A, B are not set");
  });
  test("a clarification carries the question and writes no trace", () => {
    const c = clarification({
      step: "Fill out the form",
      stepIndex: 2,
      stage: "no_model",
      reason: "unclear",
      hint: "say which",
      completed: [],
      scene: undefined,
    });
    expect(clarificationRecord(c, ["W"])).toMatchObject({
      ok: false,
      warnings: ["W"],
      clarification: c,
      error: "step 2 (Fill out the form) needs clarification: unclear; no trace was written",
    });
  });
});

describe("record and skip_unless_env", () => {
  test("an unmet gate records nothing and says why", async () => {
    const p = tmpProject();
    try {
      const spec = p.write("g.flow.yaml", 'name: G\napp: web\nurl: http://127.0.0.1:9/\nskip_unless_env: [NOT_SET_HERE]\nsteps:\n  - rules: Click "Go"\n');
      const r = await record({ spec, env: {} });
      expect(r).toMatchObject({ ok: true, trace_path: null, skipped: "skip_unless_env: NOT_SET_HERE is not set" });
    } finally {
      p.remove();
    }
  });
});
