// The MCP tools against the CLI's flag table: the same options under the same types, or a reason.
import { describe, expect, test } from "bun:test";
import { COMMANDS } from "../cli/flags.ts";
import { CLI_ONLY_COMMANDS, CLI_ONLY_FLAGS, TOOLS, argName, mcpDrift } from "./tools.ts";

describe("MCP tools and CLI flags", () => {
  test("every command has a tool taking each of its flags with the flag's type, or says why not", () => {
    expect(mcpDrift(COMMANDS, TOOLS)).toEqual([]);
    for (const c of COMMANDS) {
      const tool = TOOLS.find((t) => t.command === c.name);
      if (!tool) {
        expect(CLI_ONLY_COMMANDS[c.name]).toBeTruthy();
        continue;
      }
      for (const f of c.flags) {
        if (f.name in CLI_ONLY_FLAGS) expect(tool.inputSchema.properties[argName(f.name)]).toBeUndefined();
        else expect(tool.inputSchema.properties[argName(f.name)]).toBeDefined();
      }
    }
  });
});
