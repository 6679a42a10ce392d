import { describe, expect, test } from "bun:test";
import { COMMANDS, COMMAND_TABLE, mainHelp } from "./flags.ts";

describe("mainHelp", () => {
  test("names the version, every command and the exit codes", () => {
    const help = mainHelp("9.9.9");
    expect(help).toStartWith("flowproof 9.9.9 ");
    for (const c of COMMANDS) expect(help).toMatch(new RegExp(`^  ${c.name}\\s+${c.summary}$`, "m"));
    expect(help).toContain("Exit codes: 0 pass, 1 a step failed, 2 could not run");
  });
});

describe("COMMANDS", () => {
  test("lists the table's commands in its order", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(Object.keys(COMMAND_TABLE));
  });

  test("gives every command a json flag (mcp speaks JSON-RPC already) and unique flag names and short forms", () => {
    for (const c of COMMANDS) {
      expect(c.flags.some((f) => f.name === "json")).toBe(c.name !== "mcp");
      const names = c.flags.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      const shorts = c.flags.flatMap((f) => (f.short ? [f.short] : []));
      expect(new Set(shorts).size).toBe(shorts.length);
      expect(shorts).not.toContain("h");
    }
  });
});
