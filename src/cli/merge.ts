// `flowproof merge`: parse → commands/merge → a summary line (or JSON); the exit code is the
// merged suite's verdict (2 errored, 1 failed, 0 passed).
import { merge, type MergeOptions } from "../commands/merge.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { UsageError, type CommandArgs, type CommandFlags, type FlagsMatchOptions } from "./flags.ts";
import type { Io } from "./io.ts";

// The flags of `flowproof merge` are MergeOptions, field for field (`runDirs` are the positionals).
true satisfies FlagsMatchOptions<CommandFlags<"merge">, MergeOptions, "json", "runDirs" | "log">;

export async function mergeCommand(args: CommandArgs<"merge">, io: Io): Promise<ExitCode> {
  if (args.positional.length === 0)
    throw new UsageError("merge needs the run directories of the shards", "usage: flowproof merge <run-dir>... [-o <suite dir>] [--json]");
  const { json, ...options } = args.flags;
  const r = merge({ runDirs: args.positional, ...options, log: (l) => io.err(l) });
  const code: ExitCode = r.errored > 0 ? EXIT.error : r.failed > 0 ? EXIT.failed : EXIT.pass;
  if (json) {
    io.out(
      JSON.stringify(
        {
          run_id: r.record.run_id,
          merged_from: r.record.merged_from,
          flows: r.record.flows,
          passed: r.passed,
          failed: r.failed,
          skipped: r.skipped,
          errored: r.errored,
          expected_failures: r.expected_failures,
          record_path: r.record_path,
          junit_path: r.junit_path,
          html_path: r.html_path,
        },
        null,
        2,
      ),
    );
    return code;
  }
  const total = r.record.flows.length;
  io.out(
    `${code === EXIT.pass ? "PASS" : "FAIL"}: ${r.passed + r.skipped + r.expected_failures}/${total} flows passed${r.skipped ? `, ${r.skipped} skipped` : ""}${r.expected_failures ? `, ${r.expected_failures} expected to fail` : ""}${r.errored ? `, ${r.errored} errored` : ""} (merged ${r.record.merged_from?.length ?? 0} runs) -> ${displayPath(r.junit_path)}`,
  );
  io.out(`run record: ${displayPath(r.record_path)}`);
  return code;
}
