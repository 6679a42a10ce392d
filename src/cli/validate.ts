// `flowproof validate`: parse flags → commands/validate → render. Unset variables are warnings on
// stderr (the exit code stays 0: CI may set them later).
import { validateFlow } from "../commands/validate.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { ParsedArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

export async function validateCommand(args: ParsedArgs, io: Io): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1) throw new UsageError("validate takes exactly one flow file", "usage: flowproof validate <flow.yaml> [--json]");
  const result = await validateFlow({ spec });
  if (args.flags["json"] === true) {
    io.out(JSON.stringify({ valid: true, ...result }, null, 2));
    return EXIT.pass;
  }
  for (const w of result.warnings ?? []) io.err(`${w.file}:${w.line}:${w.column}: warning: ${w.message}`);
  io.out(`OK: ${spec} (${result.name}: ${result.steps} ${result.steps === 1 ? "step" : "steps"})`);
  return EXIT.pass;
}
