// Control blocks in real Chromium: foreach expands at load, repeat/when expand while recording
// against the live page, the trace holds exactly the passes that ran, and replay passes from it.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { webE2e } from "../support/e2e.ts";
import { runCli } from "../support/cli.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";

const { server, project } = await webE2e();

const flowText = (name: string, page: string, steps: string) => `name: ${JSON.stringify(name)}\napp: web\nurl: ${server.url}/${page}\nsteps:\n${steps}`;

interface TraceLine {
  readonly id: string;
  readonly intent: string;
  readonly action: { readonly type: string };
}

function traceSteps(path: string): TraceLine[] {
  return readTrace<unknown, TraceLine>(path).steps;
}

/** Records the flow, checks the trace is valid and holds `intents` exactly, then replays it to PASS. */
async function recordAndReplay(file: string, text: string, intents: readonly string[]): Promise<{ lines: string[] }> {
  const spec = project.write(file, text);
  const lines: string[] = [];
  const recorded = await record({ spec, author: "rules", env: {}, log: (l) => lines.push(l) });
  expect(recorded.error).toBeUndefined();
  expect(recorded.ok).toBe(true);
  expectValidTrace(recorded.trace_path!);
  // Nothing of a block reaches the trace: only ordinary concrete steps.
  const stepLines = readFileSync(recorded.trace_path!, "utf8").trim().split("\n").slice(1).join("\n");
  expect(stepLines).not.toMatch(/"(repeat|when|foreach|until|max)"|\$\{each/);
  expect(traceSteps(recorded.trace_path!).map((s) => s.intent)).toEqual([...intents]);
  expect(recorded.steps).toBe(intents.length);
  expect(recorded.routing.map((r) => [r.step, r.intent])).toEqual(intents.map((t, i) => [i + 1, t]));

  const replay = await run({ spec, env: {} });
  expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
  expect(replay.report.passed).toBe(true);
  expect(replay.report.steps.map((s) => s.intent)).toEqual([...intents]);
  expectValidResult(replay.report_path);
  return { lines };
}

const PRESS_UNTIL_ENOUGH = (max: number) => `  - repeat:
      until: the "id:label" shows Enough
      max: ${max}
      steps:
        - rules: Press the "id:button" button
`;
const PRESS = 'Press the "id:button" button';

describe("repeat: in real Chromium", () => {
  test("presses until the label says Enough; the trace holds the three passes that ran", async () => {
    const { lines } = await recordAndReplay(
      "press.flow.yaml",
      flowText("Press until enough", "press-until.html?enough=3", `${PRESS_UNTIL_ENOUGH(15)}  - assert: the "id:presses" shows 3\n`),
      [PRESS, PRESS, PRESS, 'the "id:presses" shows 3'],
    );
    expect(lines).toEqual([
      `[AUTHOR rules] 1: ${PRESS}`,
      `[AUTHOR rules] 2: ${PRESS}`,
      `[AUTHOR rules] 3: ${PRESS}`,
      'repeat (line 5): until the "id:label" shows Enough — held after 3 passes',
      '[AUTHOR rules] 4: the "id:presses" shows 3',
    ]);
  });

  test("a repeat whose condition already holds runs zero times", async () => {
    await recordAndReplay(
      "settled.flow.yaml",
      flowText("Already enough", "press-until.html?enough=0", `${PRESS_UNTIL_ENOUGH(15)}  - assert: the "id:presses" shows 0\n`),
      ['the "id:presses" shows 0'],
    );
  });

  test("a flow whose blocks all ran nothing records no empty trace", async () => {
    const spec = project.write("nothing.flow.yaml", flowText("Nothing", "press-until.html?enough=0", PRESS_UNTIL_ENOUGH(3)));
    const r = await record({ spec, author: "rules", env: {} });
    expect(r.ok).toBe(false);
    expect(r.error).toStartWith("no step ran");
    expect(existsSync(join(project.dir, "nothing.trace.jsonl"))).toBe(false);
  });

  test("a repeat that never settles fails the recording naming the bound, and writes no trace", async () => {
    const spec = project.write(
      "never.flow.yaml",
      flowText("Never enough", "press-until.html?enough=100", `${PRESS_UNTIL_ENOUGH(4)}  - assert: the "id:label" shows Enough\n`),
    );
    const r = await record({ spec, author: "rules", env: {} });
    expect(r.ok).toBe(false);
    expect(r.error).toContain("reached its bound of max: 4 passes");
    expect(r.error).toContain('`the "id:label" shows Enough` still does not hold');
    expect(r.error).toContain("still does not hold; raise `max:` or fix the condition; no trace was written; the failure's evidence (");
    expect(r.error).toEndWith(` is in ${r.failed_record_dir}`);
    expect(r.step_results.filter((s) => s.status === "passed")).toHaveLength(4);
    expect(existsSync(join(project.dir, "never.trace.jsonl"))).toBe(false);
  });

  test("the CLI prints the routing for the expanded steps and exits 2 when the bound is exceeded", async () => {
    const ok = project.write("cli-press.flow.yaml", flowText("CLI press", "press-until.html?enough=2", `${PRESS_UNTIL_ENOUGH(5)}`));
    const rec = await runCli(["record", ok], { cwd: project.dir });
    expect(rec.code).toBe(0);
    expect(rec.stderr).toContain(
      `[AUTHOR rules] 1: ${PRESS}\n[AUTHOR rules] 2: ${PRESS}\nrepeat (line 5): until the "id:label" shows Enough — held after 2 passes`,
    );
    expect(rec.stdout).toContain("Recorded 'CLI press': 2 steps");
    const bad = project.write("cli-never.flow.yaml", flowText("CLI never", "press-until.html?enough=9", `${PRESS_UNTIL_ENOUGH(1)}`));
    const failed = await runCli(["record", bad], { cwd: project.dir });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("RECORD FAILED: repeat at cli-never.flow.yaml:5:5 reached its bound of max: 1 pass");
  });
});

describe("when: in real Chromium", () => {
  const FLOW = `  - when: the "id:fault" is visible
    steps:
      - rules: Press the "Dismiss" button
  - rules: Press the "Continue" button
  - assert: the "id:status" shows Continued
`;

  test("dismisses a fault banner that is showing; the taken branch is recorded", async () => {
    await recordAndReplay("fault.flow.yaml", flowText("Fault", "fault-banner.html?fault=1", FLOW), [
      'Press the "Dismiss" button',
      'Press the "Continue" button',
      'the "id:status" shows Continued',
    ]);
  });

  test("leaves nothing in the trace when the banner is not showing", async () => {
    await recordAndReplay("no-fault.flow.yaml", flowText("No fault", "fault-banner.html", FLOW), [
      'Press the "Continue" button',
      'the "id:status" shows Continued',
    ]);
  });

  test("replay decides nothing: a trace recorded with the banner fails where the banner no longer shows", async () => {
    const page = readFileSync(join(import.meta.dir, "../fixtures/pages/fault-banner.html"), "utf8");
    let faulty = true;
    server.setRoute(
      "/toggled-fault.html",
      () => new Response(faulty ? page.replace('role="alert" hidden>', 'role="alert">') : page, { headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    const spec = project.write("toggled.flow.yaml", flowText("Toggled fault", "toggled-fault.html", FLOW));
    const recorded = await record({ spec, author: "rules", env: { FLOWPROOF_STEP_TIMEOUT_MS: "1000" } });
    expect(recorded.ok).toBe(true);
    expect(traceSteps(recorded.trace_path!).map((s) => s.intent)[0]).toBe('Press the "Dismiss" button');
    faulty = false;
    const replay = await run({ spec, env: {} });
    expect(replay.report.passed).toBe(false);
    expect(replay.report.steps.map((s) => s.status)).toEqual(["failed", "skipped", "skipped"]);
  });

  test("compares two numbers as numbers: 10 is greater than 9", async () => {
    await recordAndReplay(
      "compare.flow.yaml",
      flowText(
        "Compare",
        "compare.html",
        `  - when: the "id:on-hand" is greater than the "id:reorder"
    steps:
      - rules: Press the "Mark healthy" button
  - when: the "id:on-hand" is less than the "id:reorder"
    steps:
      - rules: Press the "Reorder" button
  - assert: the "id:out" shows healthy
`,
      ),
      ['Press the "Mark healthy" button', 'the "id:out" shows healthy'],
    );
  });

  test("a side that does not read as a number fails the recording and is quoted", async () => {
    const spec = project.write(
      "nan.flow.yaml",
      flowText(
        "Not a number",
        "compare.html",
        `  - when: the "id:supplier" is greater than the "id:reorder"\n    steps:\n      - rules: Press the "Reorder" button\n`,
      ),
    );
    const r = await record({ spec, author: "rules", env: {} });
    expect(r.ok).toBe(false);
    expect(r.error).toStartWith("when at ");
    expect(r.error).toContain(
      'nan.flow.yaml:5:5: the "id:supplier" reads "n/a", which is not a number, so it cannot be compared; no trace was written; the failure\'s evidence (',
    );
    expect(existsSync(join(project.dir, "nan.trace.jsonl"))).toBe(false);
  });
});

describe("foreach: in real Chromium", () => {
  test("types three values into a field, one ordinary step per pass", async () => {
    const values = ["apple", "pear", "fig"];
    await recordAndReplay(
      "foreach.flow.yaml",
      flowText(
        "Shopping",
        "list-entry.html",
        `  - foreach:
      values: [apple, pear, fig]
      steps:
        - rules: Type \${each} into the "Item" field
        - rules: Press the "Add" button
        - assert: the "id:list" shows \${each}
  - assert: the "id:count" shows 3
`,
      ),
      [...values.flatMap((v) => [`Type ${v} into the "Item" field`, 'Press the "Add" button', `the "id:list" shows ${v}`]), 'the "id:count" shows 3'],
    );
  });
});

describe("validate", () => {
  test("reports block problems with their positions", async () => {
    const spec = project.write(
      "bad-blocks.flow.yaml",
      `name: Bad
app: web
url: ${server.url}/press-until.html
steps:
  - repeat:
      until: the "id:label" is enabled
      steps:
        - rules: Press the "id:button" button
  - foreach:
      values: []
      steps:
        - rules: Type \${each} into the "Item" field
`,
    );
    const r = await runCli(["validate", spec, "--json"], { cwd: project.dir });
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { error: { diagnostics: Array<{ code: string; message: string; file: string; line: number; column: number }> } };
    expect(out.error.diagnostics.map((d) => [d.file, d.line, d.column, d.code, d.message])).toEqual([
      ["bad-blocks.flow.yaml", 5, 5, "missing-key", "a `repeat:` block needs `max:`, the most passes it may take"],
      ["bad-blocks.flow.yaml", 6, 29, "refused-step", "`is enabled` is not allowed as a condition."],
      ["bad-blocks.flow.yaml", 10, 15, "bad-value", "`values:` must be a non-empty list"],
    ]);
  });
});
