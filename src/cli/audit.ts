// `flowproof audit`: parse flags → commands/audit → YAML (default) or JSON; exit 1 on a failing
// control, or with --since on a regression.
import { stringify } from "yaml";
import { audit, type AuditOptions } from "../commands/audit.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { UsageError, type CommandArgs, type CommandFlags, type FlagsMatchOptions } from "./flags.ts";
import type { Io } from "./io.ts";

// The flags of `flowproof audit` are AuditOptions, field for field (`dir` is the positional).
true satisfies FlagsMatchOptions<CommandFlags<"audit">, AuditOptions, "json", "dir">;

export async function auditCommand(args: CommandArgs<"audit">, io: Io): Promise<ExitCode> {
  const dir = args.positional[0];
  const usage = "usage: flowproof audit <dir> [--run <run-id> | --since <run-id>] [--json]";
  if (!dir || args.positional.length > 1) throw new UsageError("audit takes exactly one suite directory", usage);
  const { json, ...options } = args.flags;
  if (options.run !== undefined && options.since !== undefined)
    throw new UsageError("--run and --since cannot be combined: --since always compares against the latest run", usage);
  const result = audit({ dir, ...options });
  const doc = result.kind === "map" ? result.map : result.diff;
  io.out(json ? JSON.stringify(doc, null, 2) : stringify(doc));
  if (result.kind === "diff") return result.regression ? EXIT.failed : EXIT.pass;
  return result.failed ? EXIT.failed : EXIT.pass;
}
