// `flowproof doctor --agent "<command>"`: parse flags → commands/doctor → render. Exit 0 when the
// agent reached the proxy, 1 when it did not (with what to wire), 2 on bad usage.
import { doctor } from "../commands/doctor.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

export async function doctorCommand(args: CommandArgs<"doctor">, io: Io): Promise<ExitCode> {
  const { agent, timeout, json } = args.flags;
  if (agent === undefined || agent.trim() === "" || args.positional.length > 0) {
    throw new UsageError("doctor needs the agent's command line in --agent", 'usage: flowproof doctor --agent "node agent.js" [--timeout <seconds>] [--json]');
  }
  const r = await doctor({ agent, ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}) });
  if (json) {
    io.out(JSON.stringify(r, null, 2));
    return r.reached ? EXIT.pass : EXIT.failed;
  }
  if (r.reached) {
    io.out(
      `OK: the agent reached flowproof's model proxy (${r.dialect ?? r.protocol}, POST ${r.path}${r.model ? `, model ${r.model}` : ""}); it can be recorded with \`app: agent\``,
    );
    return EXIT.pass;
  }
  io.out(`NOT WIRED: the agent made no model request to flowproof's proxy${r.timedOut ? " before the bound" : ` (exit code ${r.exitCode ?? "signal"})`}`);
  for (const line of r.advice) io.out(`  - ${line}`);
  if (r.stderrTail)
    io.out(
      `  stderr tail:\n${r.stderrTail
        .split("\n")
        .map((l) => `    ${l}`)
        .join("\n")}`,
    );
  return EXIT.failed;
}
