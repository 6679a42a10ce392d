// The tools' arguments from the CLI's flag table: flag types carry over, and drift is caught.
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { COMMANDS, type CommandSpec } from "../cli/flags.ts";
import { inputSchemaFor, mcpDrift } from "./tool-flags.ts";
import { TOOLS, type McpTool } from "./tools.ts";

describe("MCP tool arguments from CLI flags", () => {
  test("a new CLI flag without an MCP argument fails the drift check", () => {
    const grown: CommandSpec[] = COMMANDS.map((c) =>
      c.name === "run"
        ? { ...c, flags: [...c.flags, { name: "max-failures", kind: "string", placeholder: "N", description: "Stop after N failed flows." }] }
        : c,
    );
    expect(mcpDrift(grown, TOOLS)).toEqual(["--max-failures of `flowproof run` has no argument `max_failures` in flowproof_run"]);
    const newCommand: CommandSpec[] = [...COMMANDS, { name: "watch", summary: "Re-run on change", usage: "flowproof watch", flags: [] }];
    expect(mcpDrift(newCommand, TOOLS)).toEqual(["`flowproof watch` has no MCP tool (and no reason in CLI_ONLY_COMMANDS)"]);
  });

  test("a hand-written argument that is not a CLI flag, or of another type, fails the drift check", () => {
    const run = TOOLS.find((t) => t.name === "flowproof_run")!;
    const extra: McpTool = { ...run, inputSchema: Type.Object({ ...run.inputSchema.properties, colour: Type.Optional(Type.String()) }) };
    expect(
      mcpDrift(
        COMMANDS,
        TOOLS.map((t) => (t === run ? extra : t)),
      ),
    ).toEqual(["flowproof_run takes `spec`, `colour` besides the flags of `flowproof run`; only its positional argument may be"]);
    const retyped: McpTool = { ...run, inputSchema: Type.Object({ ...run.inputSchema.properties, retries: Type.Optional(Type.String()) }) };
    expect(
      mcpDrift(
        COMMANDS,
        TOOLS.map((t) => (t === run ? retyped : t)),
      ),
    ).toEqual(["`retries` of flowproof_run does not match --retries of `flowproof run`"]);
  });

  test("flag types carry over: booleans, enumerations, bounded whole numbers, strings", () => {
    const p = inputSchemaFor("run", { spec: Type.String() }).properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(p)).toEqual([
      "spec",
      "trace",
      "retries",
      "repeat_each",
      "strict",
      "record_missing",
      "author",
      "workers",
      "shard",
      "recording_detail",
      "video",
      "highlight_cursor",
      "grid",
      "browser",
    ]);
    expect(p["video"]!["type"]).toBe("boolean");
    expect((p["recording_detail"]!["anyOf"] as Array<{ const: string }>).map((a) => a.const)).toEqual(["full", "low", "off"]);
    expect([p["workers"]!["type"], p["workers"]!["minimum"], p["workers"]!["maximum"]]).toEqual(["integer", 1, 64]);
    expect([p["retries"]!["type"], p["retries"]!["minimum"], p["retries"]!["maximum"]]).toEqual(["integer", 0, 255]);
    expect(p["shard"]!["type"]).toBe("string");
  });
});
