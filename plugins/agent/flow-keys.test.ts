import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { executionArgs } from "./flow-keys.ts";

const load = (text: string) => loadFlowText("f.flow.yaml", text);

describe("agent.allow_egress and assert_no_egress", () => {
  const flow = (allow: string, steps = ["  - prompt: go", "  - assert_no_egress"]) =>
    ["name: n", "app: agent", "agent:", "  command: node a.js", `  allow_egress: ${allow}`, "steps:", ...steps, ""].join("\n");
  const problemsOf = (text: string) => {
    const r = load(text);
    return r.ok ? [] : r.diagnostics;
  };

  test("host:port, ip:port, cidr:port, [ipv6]:port and ${VAR} entries load as written; assert_no_egress is a bare step", () => {
    const r = load(flow('[localhost:443, 10.0.0.5:8080, 10.1.0.0/16:5432, "[fd00::1]:443", "${API_DEST}"]'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const args = (r.flow.steps[0]!.ast as { args: { agent: { allow_egress: string[] }; steps: { kind: string }[] } }).args;
    expect(args.agent.allow_egress).toEqual(["localhost:443", "10.0.0.5:8080", "10.1.0.0/16:5432", "[fd00::1]:443", "${API_DEST}"]);
    expect(args.steps.map((s) => s.kind)).toEqual(["prompt", "no_egress"]);
  });

  test("a bare host or address (IPv6 with or without brackets) allows every port and loads as written", () => {
    const r = load(flow('[localhost, 10.0.0.5, "[fd00::7]", "fd00::8"]'));
    expect(r.ok).toBe(true);
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
    const d = problemsOf(
      [
        "name: n",
        "app: agent",
        "agent:",
        "  url: http://127.0.0.1:9/run",
        "  proxy_port: 8787",
        "  allow_egress: [10.0.0.5:80]",
        "steps:",
        "  - prompt: go",
        "",
      ].join("\n"),
    );
    expect(d.map((x) => x.message).join("\n")).toContain("`allow_egress` goes with `agent.command`");
    expect(d[0]!.span).toMatchObject({ line: 6, column: 3 });
  });

  test("assert_no_egress with a value is refused", () => {
    const d = problemsOf(flow("[10.0.0.5:80]", ["  - prompt: go", "  - assert_no_egress: 10.0.0.5"]));
    expect(d[0]!.message).toContain("bare step");
  });
});

describe("executionArgs", () => {
  test("the agent, its steps, tools and MCP servers, strict only when true, and the bound in ms (300 s by default)", () => {
    expect(executionArgs({ agent: { command: "node a.js", env: { N: 1 } }, strict: false, tools: [] }, [{ kind: "prompt", text: "go" }])).toEqual({
      agent: { command: "node a.js", env: { N: "1" } },
      steps: [{ kind: "prompt", text: "go" }],
      timeout_ms: 300_000,
    });
    expect(executionArgs({ agent: { url: "http://x/", proxy_port: 1, timeout_seconds: 5 }, strict: true, tools: [{ name: "t" }] }, [])).toEqual({
      agent: { url: "http://x/", proxy_port: 1, timeout_seconds: 5 },
      steps: [],
      tools: [{ name: "t" }],
      strict: true,
      timeout_ms: 5_000,
    });
  });
});

describe("match:", () => {
  const flow = (match: string) => ["name: n", "app: agent", "agent: {command: node a.js}", `match: ${match}`, "steps:", "  - prompt: go", ""].join("\n");
  const problemsOf = (text: string) => {
    const r = load(text);
    return r.ok ? [] : r.diagnostics;
  };

  test("conversation, strict and {by, ignore, compare} load, and reach the execution as written", () => {
    for (const m of [
      "conversation",
      "strict",
      "{ignore: [metadata, tools.*.description]}",
      "{by: conversation, compare: [temperature]}",
      "{by: strict, ignore: [store]}",
    ])
      expect(problemsOf(flow(m))).toEqual([]);
    expect(executionArgs({ agent: { command: "a" }, match: { ignore: ["store"] } }, [])).toMatchObject({ match: { ignore: ["store"] } });
  });

  test.each([
    ["exact", 4, 8, "is not a way to match"],
    ["{by: loose}", 4, 13, "`match.by` must be `conversation` or `strict`"],
    ['{ignore: ["a..b"]}', 4, 18, "is not a request path"],
    ["{ignore: store}", 4, 17, "must be a list of request paths"],
    ["{by: strict, compare: [temperature]}", 4, 21, "`strict` already compares every field"],
    ["{paths: [a]}", 4, 9, "unknown key `paths`"],
  ])("`match: %s` is refused at %d:%d", (m, line, column, words) => {
    const d = problemsOf(flow(m));
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain(words);
    expect(d[0]!.span).toMatchObject({ line, column });
    expect(d[0]!.hint).toBeTruthy();
  });
});
