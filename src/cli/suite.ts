// `flowproof run <dir>`: parse the suite flags → commands/suite → one line per flow as it
// finishes, then the summary; or one JSON document with --json.
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { runSuite, type SuiteFlowResult } from "../commands/suite.ts";
import { suiteDocument } from "../commands/suite-document.ts";
import { displayPath } from "../commands/paths.ts";
import { parseShard } from "../commands/suite-plan.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { UsageError, checkRepeatEach, type CommandArgs } from "./flags.ts";
import { boundLines, warningLines, type Io } from "./io.ts";

const USAGE = "usage: flowproof run <dir> [--retries N] [--strict | --record-missing] [--workers N] [--shard i/n] [--json]";

/** The suite verdict line of one flow, and its detail lines. */
export function flowLines(f: SuiteFlowResult): string[] {
  const ms = `(${f.report.duration_ms} ms)`;
  const lines: string[] = [];
  switch (f.outcome) {
    case "skipped":
      lines.push(`[SKIP] ${f.name} (${f.reason ?? "skipped"})`);
      break;
    case "errored":
      lines.push(`[ERROR] ${f.name}: ${f.reason ?? "could not run"}`);
      break;
    case "stale":
      lines.push(`[STALE] ${f.name}: ${f.reason ?? "the flow changed since its trace was recorded"}`);
      break;
    case "expected_failure":
      lines.push(`[XFAIL] ${f.name} ${ms}: ${f.reason ?? "a known failure"}`);
      break;
    case "flaky":
      lines.push(`[FLAKY] ${f.name} ${ms}: ${f.report.flaky?.summary ?? "the repeats disagreed"}`);
      for (const s of f.report.flaky?.steps ?? []) lines.push(`  [FLAKY] ${s.id} ${s.intent} — ${s.outcomes.join("/")}${s.detail ? `: ${s.detail}` : ""}`);
      break;
    default: {
      lines.push(
        `[${f.outcome === "passed" ? "PASS" : "FAIL"}] ${f.name} ${ms}${f.report.degraded ? " DEGRADED" : ""}${f.attempts > 1 ? ` (after ${f.attempts} attempts)` : ""}`,
      );
      if (f.outcome === "failed")
        for (const s of f.report.steps.filter((s) => s.status === "failed" || s.status === "errored"))
          lines.push(`  [${s.status === "failed" ? "FAIL" : "ERROR"}] ${s.id} ${s.intent}${s.detail ? ` — ${s.detail}` : ""}`);
      lines.push(...warningLines(f.report.steps));
    }
  }
  if (f.exports.length > 0) lines.push(`  [EXPORT] ${f.exports.join(", ")}`);
  return lines;
}

export async function suiteCommand(dir: string, args: CommandArgs<"run">, io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  const { json, trace, keepOpen: _keepOpenFlag, shard: shardText, ...options } = args.flags;
  if (trace !== undefined) throw new UsageError("-t/--trace names one flow's trace; a directory run uses each flow's own <stem>.trace.jsonl", USAGE);
  if (options.strict && options.recordMissing)
    throw new UsageError("--strict and --record-missing contradict each other: one errors on a missing trace, the other records it", USAGE);
  const shard = shardText !== undefined ? parseShard(shardText) : undefined;
  if (shardText !== undefined && !shard) throw new UsageError(`--shard must be i/n with 1 ≤ i ≤ n, not ${JSON.stringify(shardText)}`, "e.g. --shard 2/3");
  checkRepeatEach(options);
  const result = await runSuite({
    dir,
    ...options,
    lifecycle,
    ...(shard ? { shard } : {}),
    log: (line) => io.err(line),
    onFlow: (f) => {
      if (!json) io.out(boundLines(flowLines(f).join("\n")));
    },
  });
  const code: ExitCode = result.errored > 0 || result.stale > 0 ? EXIT.error : result.failed > 0 || result.flaky > 0 ? EXIT.failed : EXIT.pass;
  if (json) {
    io.out(JSON.stringify(suiteDocument(result), null, 2));
    return code;
  }
  const total = result.flows.length;
  const ok = result.passed + result.skipped + result.expected_failures;
  const extra = `${result.flaky > 0 ? `, ${result.flaky} flaky` : ""}${result.expected_failures > 0 ? `, ${result.expected_failures} expected to fail` : ""}${result.skipped > 0 ? `, ${result.skipped} skipped` : ""}${result.errored > 0 ? `, ${result.errored} errored` : ""}${result.stale > 0 ? `, ${result.stale} stale` : ""}`;
  io.out(`${code === EXIT.pass ? "PASS" : "FAIL"}: ${ok}/${total} flows passed${extra} -> ${displayPath(result.junit_path)}`);
  io.out(`run record: ${displayPath(result.record_path)}`);
  return code;
}
