import { describe, expect, test } from "bun:test";
import type { Flow } from "./flow.ts";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { renderDiagnostic } from "../diagnostics/render.ts";

const flow = (steps: string) => `name: B\napp: web\nurl: http://x/\nsteps:\n${steps}`;

function loaded(steps: string): Flow {
  const r = loadFlowText("b.flow.yaml", flow(steps));
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics, null, 2));
  return r.flow;
}

function refused(steps: string) {
  const r = loadFlowText("b.flow.yaml", flow(steps));
  if (r.ok) throw new Error("expected the flow to be refused");
  return r.diagnostics;
}

describe("repeat: blocks", () => {
  test("load with their condition, bound and body, spans kept", () => {
    const f = loaded(`  - repeat:
      until: the "id:button" shows Enough
      max: 15
      steps:
        - rules: Press the "id:button" button
  - assert: page shows Enough
`);
    expect(f.body.map((n) => n.kind)).toEqual(["repeat", "step"]);
    const repeat = f.body[0]!;
    if (repeat.kind !== "repeat") throw new Error("expected a repeat");
    expect(repeat.max).toBe(15);
    expect(repeat.span).toMatchObject({ line: 5, column: 5, length: 6 });
    expect(repeat.until.text).toBe('the "id:button" shows Enough');
    expect(repeat.until.span).toMatchObject({ line: 6, column: 14, length: 28 });
    expect(repeat.until.condition).toMatchObject({ kind: "shows", text: { raw: "Enough" } });
    expect(repeat.body.map((n) => n.kind === "step" && n.step.text)).toEqual(['Press the "id:button" button']);
    expect(f.steps.map((s) => [s.index, s.text])).toEqual([
      [0, 'Press the "id:button" button'],
      [1, "page shows Enough"],
    ]);
  });

  test("nest: a when inside a repeat", () => {
    const f = loaded(`  - repeat:
      until: page shows Done
      max: 3
      steps:
        - when: the "css:.fault" is visible
          steps:
            - rules: Click "Dismiss"
        - rules: Click "Next"
`);
    const repeat = f.body[0]!;
    expect(repeat.kind === "repeat" && repeat.body.map((n) => n.kind)).toEqual(["when", "step"]);
  });

  test.each([
    [
      "no max",
      '  - repeat:\n      until: page shows X\n      steps:\n        - rules: Click "A"\n',
      "missing-key",
      "a `repeat:` block needs `max:`, the most passes it may take",
      5,
    ],
    [
      "no until",
      '  - repeat:\n      max: 3\n      steps:\n        - rules: Click "A"\n',
      "missing-key",
      "a `repeat:` block needs `until:`, the condition that ends it",
      5,
    ],
    ["no steps", "  - repeat:\n      until: page shows X\n      max: 3\n", "missing-key", "a `repeat:` block needs a `steps:` list", 5],
    [
      "a zero max",
      '  - repeat:\n      until: page shows X\n      max: 0\n      steps:\n        - rules: Click "A"\n',
      "bad-value",
      "`max:` must be a whole number of passes, at least 1",
      7,
    ],
    [
      "a text max",
      '  - repeat:\n      until: page shows X\n      max: lots\n      steps:\n        - rules: Click "A"\n',
      "bad-value",
      "`max:` must be a whole number of passes, at least 1",
      7,
    ],
    [
      "empty steps",
      "  - repeat:\n      until: page shows X\n      max: 2\n      steps: []\n",
      "bad-value",
      "the `steps:` of a `repeat:` block must be a non-empty list",
      8,
    ],
    ["a scalar", "  - repeat: 3\n", "bad-value", "`repeat:` takes a mapping with `until`, `max` and `steps`", 5],
    [
      "an unknown key",
      '  - repeat:\n      until: page shows X\n      max: 2\n      timeout: 3\n      steps:\n        - rules: Click "A"\n',
      "unknown-key",
      "unknown key `timeout` in a `repeat:` block",
      8,
    ],
    ["an empty until", '  - repeat:\n      until:\n      max: 2\n      steps:\n        - rules: Click "A"\n', "bad-value", "`until:` takes a condition", 6],
    [
      "a waiting condition",
      '  - repeat:\n      until: page shows X within 5s\n      max: 2\n      steps:\n        - rules: Click "A"\n',
      "refused-step",
      "A condition reads the app once and never waits, so it takes no `within` bound.",
      6,
    ],
    [
      "a condition that is not one",
      '  - repeat:\n      until: the "id:a" is enabled\n      max: 2\n      steps:\n        - rules: Click "A"\n',
      "refused-step",
      "`is enabled` is not allowed as a condition.",
      6,
    ],
    [
      "a bad step in the body",
      "  - repeat:\n      until: page shows X\n      max: 2\n      steps:\n        - rules: Frobnicate\n",
      "unknown-step",
      undefined,
      9,
    ],
  ])("refuses %s, at its line", (_name, steps, code, message, line) => {
    const d = refused(steps);
    expect(d.map((x): [string, number | undefined] => [x.code, x.span?.line])).toEqual([[code, line]]);
    if (message !== undefined) expect(d[0]!.message).toBe(message);
    expect(d[0]!.hint).toBeTruthy();
  });

  test("a refused condition points at the refused words", () => {
    const [d] = refused('  - repeat:\n      until: the "id:a" is enabled\n      max: 2\n      steps:\n        - rules: Click "A"\n');
    expect(renderDiagnostic(d!)).toContain("^^^^^^^^^^");
    expect(d!.span).toMatchObject({ line: 6, column: 25, length: 10 });
  });
});

describe("when: blocks", () => {
  test("load as a two-key mapping of condition and steps", () => {
    const f = loaded(`  - when: the "id:b1" is not visible
    steps:
      - rules: Press the "id:tech" button
`);
    const when = f.body[0]!;
    if (when.kind !== "when") throw new Error("expected a when");
    expect(when.condition.condition).toMatchObject({ kind: "visible", negate: true });
    expect(when.condition.span).toMatchObject({ line: 5, column: 11 });
    expect(when.body).toHaveLength(1);
  });

  test("take the numeric comparison", () => {
    const f = loaded(`  - when: the "id:a" is greater than the "id:b"
    steps:
      - rules: Click "A"
`);
    expect(f.body[0]!.kind === "when" && f.body[0]!.condition.condition.kind).toBe("compare");
  });

  test.each([
    ["no steps", "  - when: page shows X\n", "missing-key", "a `when:` block needs a `steps:` list", 5],
    [
      "a third key",
      '  - when: page shows X\n    steps:\n      - rules: Click "A"\n    else:\n      - rules: Click "B"\n',
      "unknown-key",
      "unknown key `else` in a `when:` block",
      8,
    ],
    ["a bare steps", '  - steps:\n      - rules: Click "A"\n    rules: Click "B"\n', "bad-value", "a step mapping must have exactly one key", 5],
    [
      "an in: block without apps:",
      '  - in: admin\n    steps:\n      - rules: Click "A"\n',
      "bad-value",
      "`in:` blocks need the flow's surfaces declared under `apps:`",
      5,
    ],
    ["an unknown condition", '  - when: the dialog is open\n    steps:\n      - rules: Click "A"\n', "refused-step", undefined, 5],
  ])("refuses %s", (_name, steps, code, message, line) => {
    const d = refused(steps);
    expect(d.map((x): [string, number | undefined] => [x.code, x.span?.line])).toEqual([[code, line]]);
    if (message !== undefined) expect(d[0]!.message).toBe(message);
  });
});

describe("checkDragsAsserted", () => {
  const DRAG = 'rules: Drag "css:#a" onto "css:#b"';

  test("accepts a Drag followed by an assertion, at the top level and inside blocks", () => {
    expect(loaded(`  - ${DRAG}\n  - assert: page shows Moved\n`).steps).toHaveLength(2);
    expect(loaded(`  - when: page shows X\n    steps:\n      - ${DRAG}\n      - assert: page shows Moved\n`).steps).toHaveLength(2);
  });

  test.each([
    ["last in the flow", `  - ${DRAG}\n`, 5],
    ["followed by an action", `  - ${DRAG}\n  - rules: Click "Save"\n`, 5],
    ["last in a repeat body", `  - repeat:\n      until: page shows X\n      max: 2\n      steps:\n        - ${DRAG}\n  - assert: page shows X\n`, 9],
    [
      "inside a when, followed by a nested block",
      `  - when: page shows X\n    steps:\n      - ${DRAG}\n      - when: page shows Y\n        steps:\n          - assert: page shows Z\n`,
      7,
    ],
  ])("refuses a Drag %s, at the Drag's span", (_name, steps, line) => {
    const d = refused(steps);
    expect(d.map((x) => [x.code, x.span?.line])).toEqual([["unverified-drag", line]]);
    expect(d[0]!.message).toBe("a Drag step must be immediately followed by an assertion step");
    expect(d[0]!.hint).toContain("assert:");
    expect(d[0]!.span?.lineText).toContain("Drag");
  });

  test("does not blame a Drag whose next step failed to load: that step's own error is reported", () => {
    const d = refused(`  - ${DRAG}\n  - assert: page showz Moved\n`);
    expect(d.map((x) => [x.code, x.span?.line])).toEqual([["unknown-step", 6]]);
  });

  test("renders as a code frame under the Drag", () => {
    const [d] = refused(`  - ${DRAG}\n  - rules: Click "Save"\n`);
    expect(renderDiagnostic(d!).split("\n").slice(0, 3).join("\n")).toBe(
      'b.flow.yaml:5:12: error[unverified-drag] a Drag step must be immediately followed by an assertion step\n  5 |   - rules: Drag "css:#a" onto "css:#b"\n    |            ^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    );
  });
});
