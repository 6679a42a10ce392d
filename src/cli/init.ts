// `flowproof init [dir]`: parse flags → commands/init → render.
import { init } from "../commands/init.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

export async function initCommand(args: CommandArgs<"init">, io: Io): Promise<ExitCode> {
  if (args.positional.length > 1) throw new UsageError("init takes at most one directory", "usage: flowproof init [dir] [--json]");
  const dir = args.positional[0];
  const result = init(dir !== undefined ? { dir } : {});
  if (args.flags.json) {
    io.out(JSON.stringify(result, null, 2));
    return EXIT.pass;
  }
  for (const f of result.created) io.out(`created ${f}`);
  for (const f of result.skipped) io.out(`kept    ${f} (already there)`);
  io.out("next: flowproof record example.flow.yaml && flowproof run example.flow.yaml");
  return EXIT.pass;
}
