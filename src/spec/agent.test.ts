import { describe, expect, test } from "bun:test";
import { loadFlowText } from "./flow.ts";
import { parseEgressEntry, parseToolCall } from "./agent.ts";

const load = (text: string) => loadFlowText("f.flow.yaml", text);
const problems = (text: string) => {
  const r = load(text);
  return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
};

describe("agent flows load", () => {
  test("prompts and assertions become one agent_run step", () => {
    const r = load("name: x\napp: agent\nagent: {command: node a.js}\nstrict: true\ntools:\n  - name: w\n    result: {t: 1}\nsteps:\n  - prompt: a\n  - assert_tool_call: w where a.0 matches ^x and b is absent\n  - assert: reply contains ok\n");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.flow.steps).toHaveLength(1);
    const ast = r.flow.steps[0]!.ast;
    expect(ast.kind).toBe("agent_run");
    expect(JSON.stringify(ast)).toContain("\"matcher\":\"absent\"");
  });
  test("bad input is refused with its position", () => {
    expect(problems("name: x\napp: agent\nagent: {command: a, url: http://h}\nsteps:\n  - prompt: a\n")).toEqual([expect.stringContaining("3:21 bad-value `agent:` has both `command:` and `url:`")]);
    expect(problems("name: x\napp: agent\nagent: {url: http://h}\nsteps:\n  - prompt: a\n")[0]).toContain("3:9 missing-key `agent.url` needs `proxy_port:`");
    expect(problems("name: x\napp: agent\nagent: {command: a, bogus: 1}\nsteps:\n  - prompt: a\n")[0]).toContain("3:21 unknown-key");
    expect(problems("name: x\napp: agent\nagent: {command: a}\nsteps:\n  - prompt: a\n  - assert_tool_call: t where a matches (\n")[0]).toContain("6:31 bad-value `(` is not a valid regular expression");
    expect(problems("name: x\napp: agent\nagent: {command: a}\nsteps:\n  - prompt: a\n  - rules: Click \"Save\"\n")[0]).toMatch(/6:5 unsupported-step .*rules grammar.*agent steps/);
    expect(problems("name: x\napp: web\nurl: http://h\nagent: {command: a}\nsteps:\n  - rules: Click \"Save\"\n")[0]).toContain("4:1 unsupported-feature `agent:` belongs to agent flows");
    expect(problems("name: x\napp: web\nurl: http://h\nsteps:\n  - prompt: hi\n")[0]).toMatch(/5:5 unsupported-step .*agent step \(agent grammar\).*rules grammar/);
  });
  test("tool-call forms", () => {
    expect(parseToolCall("book where a equals 1 and b.0 exists")).toEqual({ ok: true, tool: "book", where: [{ path: "a", matcher: "equals", value: "1" }, { path: "b.0", matcher: "exists" }] });
    expect(parseToolCall("book flights").ok).toBe(false);
  });
});

describe("agent.allow_egress and assert_no_egress", () => {
  const flow = (allow: string, steps = ["  - prompt: go", "  - assert_no_egress"]) => ["name: n", "app: agent", "agent:", "  command: node a.js", `  allow_egress: ${allow}`, "steps:", ...steps, ""].join("\n");
  const problemsOf = (text: string) => {
    const r = load(text);
    return r.ok ? [] : r.diagnostics;
  };

  test("host:port, ip:port, cidr:port, [ipv6]:port and ${VAR} entries load as written; assert_no_egress is a bare step", () => {
    const r = load(flow("[localhost:443, 10.0.0.5:8080, 10.1.0.0/16:5432, \"[fd00::1]:443\", \"${API_DEST}\"]"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const args = (r.flow.steps[0]!.ast as { args: { agent: { allow_egress: string[] }; steps: { kind: string }[] } }).args;
    expect(args.agent.allow_egress).toEqual(["localhost:443", "10.0.0.5:8080", "10.1.0.0/16:5432", "[fd00::1]:443", "${API_DEST}"]);
    expect(args.steps.map((s) => s.kind)).toEqual(["prompt", "no_egress"]);
  });

  test("a bare host or address (IPv6 with or without brackets) allows every port and loads as written", () => {
    const r = load(flow("[localhost, 10.0.0.5, \"[fd00::7]\", \"fd00::8\"]"));
    expect(r.ok).toBe(true);
    expect(parseEgressEntry("10.0.0.5")).toEqual({ ok: true, entry: { kind: "ip", ip: "10.0.0.5" } });
    expect(parseEgressEntry("[fd00::7]")).toEqual({ ok: true, entry: { kind: "ip", ip: "fd00::7" } });
    expect(parseEgressEntry("fd00::8")).toEqual({ ok: true, entry: { kind: "ip", ip: "fd00::8" } });
    expect(parseEgressEntry("API.Example.com.")).toEqual({ ok: true, entry: { kind: "host", host: "api.example.com" } });
  });

  test.each([
    ["10.0.0.0/16", "a CIDR range is allowed on the ports you name"],
    ["999.1.1.1", "not an IPv4 address"],
    ["10.0.0.5:70000", "out of range"],
    ["10.0.0.5:0", "out of range"],
    ["api.example.com:https", "out of range"],
    ["10.0.0.0/33:80", "prefix length"],
    ["999.1.1.1:80", "not an IPv4 address"],
    ["http://x:80", "is a URL"],
    ["a b", "not a destination"],
    ["no-such-host.invalid:443", "does not resolve"],
  ])("`%s` is refused at its line and column: %s", (entry, words) => {
    const d = problemsOf(flow(`[${entry}]`));
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain(words);
    expect(d[0]!.span).toMatchObject({ line: 5, column: 18 });
    expect(d[0]!.hint).toBeTruthy();
  });

  test("allow_egress on a url: agent is refused: flowproof does not start the service", () => {
    const d = problemsOf(["name: n", "app: agent", "agent:", "  url: http://127.0.0.1:9/run", "  proxy_port: 8787", "  allow_egress: [10.0.0.5:80]", "steps:", "  - prompt: go", ""].join("\n"));
    expect(d.map((x) => x.message).join("\n")).toContain("`allow_egress` goes with `agent.command`");
    expect(d[0]!.span).toMatchObject({ line: 6, column: 3 });
  });

  test("assert_no_egress with a value is refused", () => {
    const d = problemsOf(flow("[10.0.0.5:80]", ["  - prompt: go", "  - assert_no_egress: 10.0.0.5"]));
    expect(d[0]!.message).toContain("bare step");
  });
});
