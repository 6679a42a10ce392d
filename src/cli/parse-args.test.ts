import { describe, expect, test } from "bun:test";
import { COMMANDS, COMMAND_TABLE } from "./flags.ts";
import { UsageError, commandHelp, optionName, parseArgs, type CommandSpec } from "./parse-args.ts";

const record = COMMAND_TABLE.record;
const run = COMMAND_TABLE.run;

/** The UsageError that parsing throws. */
function usageError(spec: CommandSpec, argv: string[]): UsageError {
  try {
    parseArgs(spec, argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`expected ${argv.join(" ")} to be refused`);
}

describe("parseArgs", () => {
  test.each<[string[], string[], Record<string, string | number | boolean>]>([
    [["a.flow.yaml"], ["a.flow.yaml"], {}],
    [["a.flow.yaml", "b.flow.yaml"], ["a.flow.yaml", "b.flow.yaml"], {}],
    [["a.flow.yaml", "--out", "t.jsonl"], ["a.flow.yaml"], { out: "t.jsonl" }],
    [["--out=t.jsonl", "a.flow.yaml"], ["a.flow.yaml"], { out: "t.jsonl" }],
    [["--out=a=b.jsonl"], [], { out: "a=b.jsonl" }],
    [["-o", "t.jsonl", "a.flow.yaml"], ["a.flow.yaml"], { out: "t.jsonl" }],
    [["--out", "-"], [], { out: "-" }],
    [["a.flow.yaml", "--json"], ["a.flow.yaml"], { json: true }],
    [["--author", "rules", "a.flow.yaml"], ["a.flow.yaml"], { author: "rules" }],
    [["--author=llm"], [], { author: "llm" }],

    [["-"], ["-"], {}],
    [["--json", "--", "--weird.flow.yaml", "-o"], ["--weird.flow.yaml", "-o"], { json: true }],
    [["--out", "x", "--out", "y"], [], { out: "y" }],
    [["--recording-detail", "low", "--highlight-cursor"], [], { recordingDetail: "low", highlightCursor: true }],
  ])("parses record %j", (argv, positional, flags) => {
    expect(parseArgs(record, argv)).toEqual({ positional, flags });
  });

  test.each([["--help"], ["-h"]])("takes %s as help, apart from the command's flags", (flag) => {
    expect(parseArgs(record, [flag, "a.flow.yaml"])).toEqual({ positional: ["a.flow.yaml"], flags: {}, help: true });
  });

  test("takes -t as the run command's trace", () => {
    expect(parseArgs(run, ["a.flow.yaml", "-t", "x.jsonl"])).toEqual({ positional: ["a.flow.yaml"], flags: { trace: "x.jsonl" } });
  });

  test("gives a whole-number flag its number, under the option's name", () => {
    expect(parseArgs(run, ["tests", "--retries", "2", "--workers=3", "--record-missing"])).toEqual({
      positional: ["tests"],
      flags: { retries: 2, workers: 3, recordMissing: true },
    });
  });

  test.each([
    [["--retries", "x"], '--retries must be a whole number from 0 to 255, not "x"'],
    [["--retries", "256"], '--retries must be a whole number from 0 to 255, not "256"'],
    [["--retries", "1.5"], '--retries must be a whole number from 0 to 255, not "1.5"'],
    [["--workers", "0"], '--workers must be a whole number from 1 to 64, not "0"'],
    [["--workers=1e1"], '--workers must be a whole number from 1 to 64, not "1e1"'],
  ])("refuses %j outside its whole-number range", (argv, message) => {
    const e = usageError(run, ["tests", ...argv]);
    expect(e.message).toBe(message);
    expect(e.hint).toBe(`usage: ${run.usage}`);
  });

  test("refuses an unknown long flag and suggests the nearest one", () => {
    const e = usageError(record, ["--ouput", "t.jsonl"]);
    expect(e.message).toBe("unknown flag --ouput for `flowproof record`");
    expect(e.hint).toStartWith("did you mean --out?");
    expect(e.hint).toContain(record.usage);
    expect(e.name).toBe("UsageError");
  });

  test("refuses an unknown flag without a close match, giving the usage", () => {
    const e = usageError(record, ["--zzzzzzzzzz"]);
    expect(e.hint).toBe(`usage: ${record.usage}`);
  });

  test("refuses a flag that belongs to another command", () => {
    const e = usageError(run, ["--out", "x"]);
    expect(e.message).toContain("unknown flag --out for `flowproof run`");
  });

  test("refuses an unknown short flag", () => {
    expect(usageError(record, ["-x"]).message).toBe("unknown flag -x for `flowproof record`");
  });

  test("refuses a value outside a flag's allowed values, listing them", () => {
    const e = usageError(record, ["--author", "magic"]);
    expect(e.message).toBe('--author must be one of auto, rules, llm, not "magic"');
  });

  test("refuses an enum value given inline too", () => {
    expect(usageError(record, ["--author=Rules"]).message).toContain("must be one of");
  });

  test.each([[["--out"]], [["-o"]], [["--out", "--json"]], [["-o", "-x"]], [["--out="]]])("refuses a missing value in %j", (argv) => {
    expect(usageError(record, argv).message).toBe("--out needs a value");
  });

  test("refuses a value given to a boolean flag", () => {
    expect(usageError(record, ["--json=yes"]).message).toBe("--json takes no value");
  });
});

describe("declared flags", () => {
  const config = COMMAND_TABLE.config;
  const tenant = { name: "tenant", placeholder: "id", description: "`vault`: The tenant. With --user." };

  test("a plugin's declared flag is parsed as text into `declared`, apart from the table's typed flags", () => {
    expect(parseArgs(config, ["vault", "--user", "ada", "--tenant", "t1"], [tenant])).toEqual({
      positional: ["vault"],
      flags: { user: "ada" },
      declared: { tenant: "t1" },
    });
    expect(parseArgs(config, ["vault", "--show"], [tenant])).toEqual({ positional: ["vault"], flags: { show: true }, declared: {} });
  });

  test("the table's own flag of the same name wins; without the declaration the flag is unknown", () => {
    expect(parseArgs(config, ["vault", "--user", "ada"], [{ ...tenant, name: "user" }])).toEqual({ positional: ["vault"], flags: { user: "ada" } });
    expect(usageError(config, ["vault", "--tenant", "t1"]).message).toBe("unknown flag --tenant for `flowproof config`");
    expect(() => parseArgs(config, ["vault", "--tenant"], [tenant])).toThrow("--tenant needs a value");
  });

  test("the help lists them after the table's flags, with what the row says of them", () => {
    const help = commandHelp(config, [tenant]);
    expect(help).toContain("--tenant <id>  `vault`: The tenant. With --user.");
    expect(help.indexOf("--tenant")).toBeGreaterThan(help.indexOf("--json"));
    expect(help).toEndWith(config.declares);
  });
});

describe("commandHelp", () => {
  test.each(COMMANDS.map((c) => [c.name, c] as const))("lists every flag of %s with its description", (_name, c) => {
    const help = commandHelp(c);
    expect(help).toContain(`Usage: ${c.usage}`);
    for (const f of c.flags) {
      expect(help).toContain(`--${f.name}`);
      expect(help).toContain(f.description);
      if (f.short) expect(help).toContain(`-${f.short}, --${f.name}`);
    }
    expect(help).toContain("-h, --help");
  });

  test("shows a string flag's placeholder", () => {
    expect(commandHelp(record)).toContain("-o, --out <path>");
    expect(commandHelp(record)).toContain("--author <auto|rules|llm>");
  });

  test.each(COMMANDS.map((c) => [c.name, c] as const))("keeps at least two spaces between each flag of %s and its description", (_name, c) => {
    for (const f of c.flags) {
      const line = commandHelp(c)
        .split("\n")
        .find((l) => l.includes(`--${f.name}`) && l.includes(f.description))!;
      const gap = line.slice(0, line.indexOf(f.description));
      expect(gap.endsWith("  ")).toBe(true);
    }
  });
});

describe("optionName", () => {
  test.each([
    ["out", "out"],
    ["recording-detail", "recordingDetail"],
    ["accept-effect-changes", "acceptEffectChanges"],
  ])("names --%s's option %s", (flag, option) => {
    expect(optionName(flag)).toBe(option);
  });
});
