// `flowproof codegen` on the command line: its refusals (exit 2 with what to do instead) and what
// it prints once a session ended. The headed session itself: test/e2e/codegen.test.ts.
import { describe, expect, test } from "bun:test";
import { runCli } from "../../test/support/cli.ts";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { renderCodegen } from "./codegen.ts";
import type { CodegenResult } from "../commands/codegen.ts";

describe("flowproof codegen refusals", () => {
  const p = tmpProject("flowproof-codegen-cli-");
  test.each<[string, string[], Record<string, string | undefined>, RegExp]>([
    ["no URL", ["codegen"], { DISPLAY: ":0" }, /codegen takes exactly one URL/],
    ["two URLs", ["codegen", "http://a/", "http://b/"], { DISPLAY: ":0" }, /codegen takes exactly one URL/],
    [
      "a machine without a display, naming xvfb-run",
      ["codegen", "http://127.0.0.1:9/"],
      { DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
      /no display[\s\S]*xvfb-run/,
    ],
    ["an unknown flag", ["codegen", "http://127.0.0.1:9/", "--outt", "x.flow.yaml"], { DISPLAY: ":0" }, /did you mean --out/],
  ])("refuses %s with exit 2", async (_what, args, env, message) => {
    const r = await runCli(args, { cwd: p.dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
  test("leaves no file behind after a refusal", () => {
    expect(p.files()).toEqual([]);
    p.remove();
  });
});

const result = (over: Partial<CodegenResult> = {}): CodegenResult => ({
  flow_path: `${process.cwd()}/sign-in.flow.yaml`,
  steps: [
    { key: "rules", text: 'Type ${PASSWORD} into the "Password" field' },
    { key: "rules", text: 'Press the "Sign in" button', todo: "check this step" },
  ],
  variables: [
    { name: "APP_URL", for: "the app's origin (http://127.0.0.1:3000)" },
    { name: "PASSWORD", for: 'the "Password" field' },
  ],
  todos: 1,
  not_written: [],
  ended: "the window was closed",
  ...over,
});

describe("renderCodegen", () => {
  test("says where the flow is, what to set (never a secret's value) and the record command to run next", () => {
    expect(renderCodegen(result(), "http://127.0.0.1:3000")).toEqual([
      "Wrote 2 steps to sign-in.flow.yaml (1 marked # TODO to review)",
      'Set before recording: PASSWORD (the "Password" field); their values were never written.',
      "Next: APP_URL=http://127.0.0.1:3000 PASSWORD=… flowproof record sign-in.flow.yaml",
    ]);
  });

  test("after --record, says where the trace is and to run it, or why recording failed", () => {
    const ok = renderCodegen(
      result({ variables: [{ name: "APP_URL", for: "the app" }], todos: 0, record: { ok: true, trace_path: `${process.cwd()}/sign-in.trace.jsonl` } }),
      "http://h:1",
    );
    expect(ok).toEqual(["Wrote 2 steps to sign-in.flow.yaml", "Recorded it: sign-in.trace.jsonl", "Next: APP_URL=http://h:1 flowproof run sign-in.flow.yaml"]);
    const failed = renderCodegen(result({ record: { ok: false, trace_path: null, error: "step 2 failed" } }), "http://h:1");
    expect(failed[2]).toBe("Recording it failed: step 2 failed (see # TODO in sign-in.flow.yaml)");
    expect(failed[3]).toBe("Next: APP_URL=http://h:1 PASSWORD=… flowproof record sign-in.flow.yaml");
  });

  test("names each navigation it wrote no step for, with why and what to add by hand", () => {
    const why =
      "no step for the navigation to ${APP_URL}/orders: the browser's history showed no entry for it; if you did, add `Go to ${APP_URL}/orders` there yourself";
    const lines = renderCodegen(result({ variables: [{ name: "APP_URL", for: "the app" }], todos: 0, not_written: [why] }), "http://h:1");
    expect(lines).toEqual(["Wrote 2 steps to sign-in.flow.yaml", `Not written: ${why}.`, "Next: APP_URL=http://h:1 flowproof record sign-in.flow.yaml"]);
  });
});
