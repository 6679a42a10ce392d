// `flowproof trace`: parse flags → commands/get-trace → print the recorded trace (JSON, or a summary).
import { getTrace, type GetTraceOptions } from "../commands/get-trace.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs, CommandFlags, FlagsMatchOptions } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

// The flags of `flowproof trace` are GetTraceOptions, field for field (`spec` is the positional).
true satisfies FlagsMatchOptions<CommandFlags<"trace">, GetTraceOptions, "json", "spec">;

export async function traceCommand(args: CommandArgs<"trace">, io: Io): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1) throw new UsageError("trace takes exactly one flow file", "usage: flowproof trace <flow.yaml> [-t <trace>] [--json]");
  const { json, ...options } = args.flags;
  const result = getTrace({ spec, ...options });
  if (json) {
    io.out(JSON.stringify(result, null, 2));
    return EXIT.pass;
  }
  io.out(`${displayPath(result.trace_path)}: ${result.header.spec?.name ?? ""} (${result.header.app.adapter}, recorded ${result.header.recorded_at} by flowproof ${result.header.flowproof_version})`);
  io.out(result.steps.map((s) => `  ${s.id} ${s.action.type.padEnd(12)} ${s.intent}`).join("\n"));
  return EXIT.pass;
}
