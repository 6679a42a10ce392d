import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";

const flow = (extra: string) => `name: Checkout\napp: web\nurl: http://127.0.0.1:1/\n${extra}steps:\n  - assert: page shows Total 90\n`;

describe("expect:", () => {
  test("a known failure with its reason", () => {
    const r = loadFlowText("c.flow.yaml", flow('expect:\n  fail: "BUG-123: the total ignores the discount"\n'));
    expect(r.ok && r.flow.expect).toEqual({ fail: "BUG-123: the total ignores the discount" });
  });

  test.each([
    ["a bare `expect: fail`", "expect: fail\n", "a known failure needs its reason"],
    ["an empty reason", 'expect:\n  fail: ""\n', "`expect:` takes one key, `fail:`"],
    ["another key", "expect:\n  pass: yes\n", "`expect:` takes one key, `fail:`"],
  ])("%s is refused with the form to write", (_what, extra, message) => {
    const line = extra.split("\n").length === 2 ? 4 : 5;
    const r = loadFlowText("c.flow.yaml", flow(extra));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]).toMatchObject({ code: "bad-value", span: { file: "c.flow.yaml", line } });
    expect(r.diagnostics[0]!.message).toContain(message);
    expect(r.diagnostics[0]!.hint).toContain('fail: "BUG-123');
  });
});
