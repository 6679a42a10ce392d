import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";

const flow = (surface: string, block: string) =>
  `name: M\napps:\n  shop: { app: web, url: http://127.0.0.1:1/ }\n  bot:\n${surface}steps:\n  - in: shop\n    steps:\n      - rules: Remember the "id:t" as t\n  - in: bot\n    steps:\n${block}`;
const AGENT = "    app: agent\n    agent: {command: node agent.js}\n    strict: true\n";

describe("agent surfaces", () => {
  test("each block on an agent surface loads as one agent_run step carrying the surface's contract, references raw", () => {
    const r = loadFlowText(
      "m.flow.yaml",
      flow(
        AGENT,
        "      - prompt: Close ticket ${captured.t}\n      - assert_tool_call: close where id equals ${captured.t}\n  - in: bot\n    steps:\n      - prompt: Reopen it\n",
      ),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    expect(r.flow.apps?.["bot"]).toEqual({ app: "agent", keys: { agent: { command: "node agent.js" }, strict: true } });
    const runs = r.flow.steps.filter((s) => s.ast.kind === "agent_run");
    expect(runs.map((s) => [s.index, s.surface])).toEqual([
      [1, "bot"],
      [2, "bot"],
    ]);
    const args = (runs[0]!.ast as { args: { agent: unknown; strict: boolean; steps: Array<{ text: string }> } }).args;
    expect(args).toMatchObject({ agent: { command: "node agent.js" }, strict: true, timeout_ms: 300_000 });
    expect(args.steps[0]!.text).toBe("Close ticket ${captured.t}");
  });

  test("a UI step in an agent block, a block without a prompt, and a surface without agent: are load errors", () => {
    const ui = loadFlowText("m.flow.yaml", flow(AGENT, '      - prompt: hi\n      - rules: Click "Send"\n'));
    expect(ui.ok).toBe(false);
    if (!ui.ok)
      expect(ui.diagnostics.map((d) => d.message)).toContain("`rules:` is a UI/structured step (rules grammar); an agent flow takes agent steps only");
    const noPrompt = loadFlowText("m.flow.yaml", flow(AGENT, "      - assert: reply contains ok\n"));
    if (!noPrompt.ok) expect(noPrompt.diagnostics[0]!.message).toContain("needs at least one `prompt:` step");
    else throw new Error("loaded");
    const noAgent = loadFlowText("m.flow.yaml", flow("    app: agent\n    url: http://x/\n", "      - prompt: hi\n"));
    if (!noAgent.ok)
      expect(noAgent.diagnostics.map((d) => d.message).join("\n")).toMatch(
        /agent surface `bot` has no start page, so it takes no `url`[\s\S]*surface `bot` needs `agent`/,
      );
    else throw new Error("loaded");
  });
});
