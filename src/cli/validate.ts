// `flowproof validate`: parse flags → commands/validate → render. Unset variables are warnings on
// stderr (the exit code stays 0: CI may set them later).
import { validateFlow, type ValidateOptions } from "../commands/validate.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs, CommandFlags, FlagsMatchOptions } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

/** ValidateOptions no flag sets, and why. */
export const VALIDATE_OPTIONS_WITHOUT_FLAG = {
  spec: "the positional <flow.yaml>",
  env: "the process environment",
  log: "validate reports problems, not progress",
  headed: "validate starts no app",
  grid: "validate starts no browser",
  browser: "validate starts no browser",
  keepOpen: "validate starts no app",
  plugins: "the project's plugins, loaded by the command",
  lifecycle: "validate starts nothing to stop",
} as const;

// The flags of `flowproof validate` are ValidateOptions, field for field.
true satisfies FlagsMatchOptions<CommandFlags<"validate">, ValidateOptions, "json", keyof typeof VALIDATE_OPTIONS_WITHOUT_FLAG>;

export async function validateCommand(args: CommandArgs<"validate">, io: Io): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1)
    throw new UsageError("validate takes exactly one flow file", "usage: flowproof validate <flow.yaml> [--root <dir>] [--json]");
  const result = await validateFlow({ spec, ...(args.flags.root !== undefined ? { root: args.flags.root } : {}) });
  if (args.flags.json) {
    io.out(JSON.stringify({ valid: true, ...result }, null, 2));
    return EXIT.pass;
  }
  for (const w of result.warnings ?? []) io.err(`${w.file}:${w.line}:${w.column}: warning: ${w.message}`);
  io.out(`OK: ${spec} (${result.name}: ${result.steps} ${result.steps === 1 ? "step" : "steps"})`);
  return EXIT.pass;
}
