// `flowproof trace`: parse flags → commands/get-trace → print the recorded trace (JSON, or a summary).
import { getTrace } from "../commands/get-trace.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { ParsedArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

export async function traceCommand(args: ParsedArgs, io: Io): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1) throw new UsageError("trace takes exactly one flow file", "usage: flowproof trace <flow.yaml> [-t <trace>] [--json]");
  const result = getTrace({ spec, ...(typeof args.flags["trace"] === "string" ? { trace: args.flags["trace"] } : {}) });
  if (args.flags["json"] === true) {
    io.out(JSON.stringify(result, null, 2));
    return EXIT.pass;
  }
  io.out(`${displayPath(result.trace_path)}: ${result.header.spec?.name ?? ""} (${result.header.app.adapter}, recorded ${result.header.recorded_at} by flowproof ${result.header.flowproof_version})`);
  io.out(result.steps.map((s) => `  ${s.id} ${s.action.type.padEnd(12)} ${s.intent}`).join("\n"));
  return EXIT.pass;
}
