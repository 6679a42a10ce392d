// `flowproof run`: parse flags → commands/run → render `[PASS|FAIL] sNNNN intent` lines and a verdict.
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { runInSuiteContext, type SingleRunOptions } from "../commands/run-single.ts";
import type { SuiteOptions } from "../commands/suite.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs, CommandFlags, FlagsMatchOptions } from "./flags.ts";
import type { RunOutcome } from "../report/schema.ts";
import { UsageError, checkRepeatEach } from "./flags.ts";
import { boundLines, warningLines, type Io } from "./io.ts";
import { keepOpenOption } from "./keep-open.ts";
import { existsSync, statSync } from "node:fs";

/** Flags that only make sense for a directory. */
const SUITE_ONLY: readonly (readonly [keyof CommandFlags<"run">, string])[] = [
  ["strict", "--strict"],
  ["recordMissing", "--record-missing"],
  ["author", "--author"],
  ["workers", "--workers"],
  ["shard", "--shard"],
];

/** The options of a single-flow run and of a suite run that no flag sets, and why. */
export const RUN_OPTIONS_WITHOUT_FLAG = {
  spec: "the positional <flow.yaml>",
  dir: "the positional <dir>",
  env: "the process environment (and the suite's)",
  log: "progress goes to stderr",
  headed: "FLOWPROOF_HEADED, or --keep-open",
  keepOpen: "--keep-open, turned into a wait for the person at the screen (keep-open.ts)",
  pool: "a suite run's shared browser sessions, internal to the suite",
  runDir: "chosen by the run (.flowproof/runs/<id>/)",
  suiteDefaults: "read from the governing suite.yaml",
  loaded: "the flow as the run itself loads it",
  label: "a suite's `browsers:` matrix entry, set by the suite run",
  onStep: "progress, rendered as the steps finish",
  onFlow: "progress, rendered as the flows finish",
  shard: "--shard, parsed from i/n (commands/suite-plan.ts)",
  lifecycle: "the process lifecycle the CLI's main created, passed to the command",
} as const;

// The flags of `flowproof run` are the options of a single run and of a suite run, field for field.
true satisfies FlagsMatchOptions<CommandFlags<"run">, SingleRunOptions & SuiteOptions, "json" | "keepOpen" | "shard", keyof typeof RUN_OPTIONS_WITHOUT_FLAG>;

const LABEL = { passed: "PASS", failed: "FAIL", skipped: "SKIP", errored: "ERROR" } as const;
const EXIT_CODE: Record<RunOutcome, ExitCode> = {
  passed: EXIT.pass,
  skipped: EXIT.pass,
  failed: EXIT.failed,
  errored: EXIT.error,
  stale: EXIT.error,
  interrupted: EXIT.error,
  expected_failure: EXIT.pass,
  flaky: EXIT.failed,
};
const VERDICT: Record<RunOutcome, string> = {
  passed: "PASS",
  skipped: "PASS",
  failed: "FAIL",
  errored: "ERROR",
  stale: "STALE",
  interrupted: "ERROR",
  expected_failure: "XFAIL",
  flaky: "FLAKY",
};

export async function runCommand(args: CommandArgs<"run">, io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1)
    throw new UsageError(
      "run takes exactly one flow file",
      "usage: flowproof run <flow.yaml> or flowproof run <dir> [-t <trace>] [--recording-detail full|low|off] [--video] [--highlight-cursor] [--json]",
    );
  if (existsSync(spec) && statSync(spec).isDirectory()) {
    if (args.flags.keepOpen === true)
      throw new UsageError("--keep-open applies to one flow, not to a directory", "run one flow with --keep-open: flowproof run <flow.yaml> --keep-open");
    const { suiteCommand } = await import("./suite.ts");
    return suiteCommand(spec, args, io, lifecycle);
  }
  const suiteOnly = SUITE_ONLY.find(([key]) => args.flags[key] !== undefined)?.[1];
  if (suiteOnly)
    throw new UsageError(
      `${suiteOnly} applies to a suite run (a directory), not to one flow file`,
      `run the flow's directory: flowproof run <dir> ${suiteOnly}`,
    );
  checkRepeatEach(args.flags);
  const { json, keepOpen: _keepOpenFlag, strict: _s, recordMissing: _r, author: _a, workers: _w, shard: _h, ...options } = args.flags;
  const keepOpen = keepOpenOption(args.flags, io, process.env, lifecycle);
  const result = await runInSuiteContext({ spec, ...options, lifecycle, ...(keepOpen ? { keepOpen } : {}), log: (line) => io.err(line) });
  const { report } = result;
  if (result.skipped !== undefined) {
    if (json) io.out(JSON.stringify({ report, report_path: null, skipped: result.skipped }, null, 2));
    else io.out(`[SKIP] ${report.name} (${result.skipped})`);
    return EXIT.pass;
  }
  const code = EXIT_CODE[report.outcome];
  if (json) {
    io.out(
      JSON.stringify(
        {
          report,
          report_path: result.report_path,
          run_dir: result.run_dir,
          junit_path: result.junit_path,
          html_path: result.html_path,
          ...(result.error_hint ? { hint: result.error_hint } : {}),
        },
        null,
        2,
      ),
    );
    return code;
  }
  const lines = report.steps
    .filter((s) => s.status !== "skipped" || report.error === undefined)
    .flatMap((s) => [
      `  [${report.expected_failure?.step === s.id && s.status === "failed" ? "XFAIL" : LABEL[s.status]}] ${s.id} ${s.intent}${s.detail && s.status !== "skipped" ? ` — ${s.detail}` : ""}`,
      ...warningLines([s]),
    ]);
  if (lines.length > 0) io.out(boundLines(lines.join("\n")));
  if (report.error) io.err(`error: ${report.error}${result.error_hint ? `\n  hint: ${result.error_hint}` : ""}`);
  const verdict = VERDICT[report.outcome];
  io.out(
    `${verdict}: ${report.name} (${report.duration_ms} ms)${report.expected_failure ? ` — a known failure (${report.expected_failure.reason})` : ""} -> ${displayPath(result.html_path)}`,
  );
  io.out(`result: ${displayPath(result.report_path)}`);
  return code;
}
