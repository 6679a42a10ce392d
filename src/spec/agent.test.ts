import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { parseToolCall } from "./agent.ts";

const load = (text: string) => loadFlowText("f.flow.yaml", text);
const problems = (text: string) => {
  const r = load(text);
  return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
};

describe("agent flows load", () => {
  test("prompts and assertions become one agent_run step", () => {
    const r = load(
      "name: x\napp: agent\nagent: {command: node a.js}\nstrict: true\ntools:\n  - name: w\n    result: {t: 1}\nsteps:\n  - prompt: a\n  - assert_tool_call: w where a.0 matches ^x and b is absent\n  - assert: reply contains ok\n",
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.flow.steps).toHaveLength(1);
    const ast = r.flow.steps[0]!.ast;
    expect(ast.kind).toBe("agent_run");
    expect(JSON.stringify(ast)).toContain('"matcher":"absent"');
  });
  test("bad input is refused with its position", () => {
    expect(problems("name: x\napp: agent\nagent: {command: a, url: http://h}\nsteps:\n  - prompt: a\n")).toEqual([
      expect.stringContaining("3:21 bad-value `agent:` has both `command:` and `url:`"),
    ]);
    expect(problems("name: x\napp: agent\nagent: {url: http://h}\nsteps:\n  - prompt: a\n")[0]).toContain("3:9 missing-key `agent.url` needs `proxy_port:`");
    expect(problems("name: x\napp: agent\nagent: {command: a, bogus: 1}\nsteps:\n  - prompt: a\n")[0]).toContain("3:21 unknown-key");
    expect(problems("name: x\napp: agent\nagent: {command: a}\nsteps:\n  - prompt: a\n  - assert_tool_call: t where a matches (\n")[0]).toContain(
      "6:31 bad-value `(` is not a valid regular expression",
    );
    expect(problems('name: x\napp: agent\nagent: {command: a}\nsteps:\n  - prompt: a\n  - rules: Click "Save"\n')[0]).toMatch(
      /6:5 unsupported-step .*rules grammar.*agent steps/,
    );
    expect(problems('name: x\napp: web\nurl: http://h\nagent: {command: a}\nsteps:\n  - rules: Click "Save"\n')[0]).toContain(
      "4:1 unsupported-feature `agent:` belongs to agent flows",
    );
    expect(problems("name: x\napp: web\nurl: http://h\nsteps:\n  - prompt: hi\n")[0]).toMatch(
      /5:5 unsupported-step .*agent step \(agent grammar\).*rules grammar/,
    );
  });
  test("tool-call forms", () => {
    expect(parseToolCall("book where a equals 1 and b.0 exists")).toEqual({
      ok: true,
      tool: "book",
      where: [
        { path: "a", matcher: "equals", value: "1" },
        { path: "b.0", matcher: "exists" },
      ],
    });
    expect(parseToolCall("book flights").ok).toBe(false);
  });
});
