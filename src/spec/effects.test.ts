import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";

const flow = (extra: string, step = '- rules: Click "Save"') => `name: f\napp: web\nurl: http://127.0.0.1/\n${extra}steps:\n  ${step}\n`;

describe("effects: in a flow", () => {
  test("the flow's policy: on (kept implicit), strict, off", () => {
    const on = loadFlowText("f.flow.yaml", flow("effects: on\n"));
    expect(on.ok && on.flow.effects).toBeUndefined();
    const strict = loadFlowText("f.flow.yaml", flow("effects: strict\n"));
    expect(strict.ok && strict.flow.effects).toBe("strict");
    const off = loadFlowText("f.flow.yaml", flow("effects: off\n"));
    expect(off.ok && off.flow.effects).toBe("off");
  });

  test("another value is a bad-value error at its position, saying what to write", () => {
    const r = loadFlowText("f.flow.yaml", flow("effects: loud\n"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]).toMatchObject({ code: "bad-value", message: '`effects:` must be on, strict or off, not "loud"', span: { line: 4, column: 10 } });
    expect(r.diagnostics[0]!.hint).toContain("effects: strict");
  });

  test("a step's effects: off beside rules:, and only off", () => {
    const r = loadFlowText("f.flow.yaml", flow("", '- rules: Click "Save"\n    effects: off'));
    expect(r.ok && r.flow.steps[0]!.effects).toBe("off");
    expect(r.ok && r.flow.steps[0]!.text).toBe('Click "Save"');
    const bad = loadFlowText("f.flow.yaml", flow("", '- rules: Click "Save"\n    effects: strict'));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.diagnostics[0]).toMatchObject({
      code: "bad-value",
      message: 'a step\'s `effects:` can only be off, not "strict"',
      span: { line: 6, column: 14 },
    });
  });
});
