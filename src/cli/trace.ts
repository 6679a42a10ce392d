// `flowproof trace`: parse flags → commands/get-trace → print the recorded trace (JSON, or a summary);
// with --reseal, commands/reseal seals a trusted trace in place.
import { getTrace, type GetTraceOptions } from "../commands/get-trace.ts";
import { resealTrace } from "../commands/reseal.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs, CommandFlags, FlagsMatchOptions } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

// The flags of `flowproof trace` are GetTraceOptions, field for field (`spec` is the positional).
true satisfies FlagsMatchOptions<CommandFlags<"trace">, GetTraceOptions, "json" | "reseal", "spec">;

const SEALS = { signed: "sealed and signed", sealed: "sealed", steps: "sealed over its steps only", none: "not sealed" } as const;

export async function traceCommand(args: CommandArgs<"trace">, io: Io): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1)
    throw new UsageError("trace takes exactly one flow file", "usage: flowproof trace <flow.yaml> [-t <trace>] [--reseal] [--json]");
  const { json, reseal, ...options } = args.flags;
  if (reseal) {
    const r = await resealTrace({ spec, ...options });
    if (json) io.out(JSON.stringify(r, null, 2));
    else io.out(`${displayPath(r.trace_path)}: was ${SEALS[r.was]}, now ${SEALS[r.now]}`);
    return EXIT.pass;
  }
  const result = getTrace({ spec, ...options });
  if (json) {
    io.out(JSON.stringify(result, null, 2));
    return EXIT.pass;
  }
  io.out(
    `${displayPath(result.trace_path)}: ${result.header.spec?.name ?? ""} (${result.header.app.adapter}, recorded ${result.header.recorded_at} by flowproof ${result.header.flowproof_version})`,
  );
  io.out(result.steps.map((s) => `  ${s.id} ${s.action.type.padEnd(12)} ${s.intent}`).join("\n"));
  return EXIT.pass;
}
