// `flowproof run`: parse flags → commands/run → render `[PASS|FAIL] sNNNN intent` lines and a verdict.
import { runInSuiteContext } from "../commands/run-single.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { ParsedArgs } from "./flags.ts";
import type { RunOutcome } from "../report/schema.ts";
import { UsageError, recordingControls, repeatEachOption } from "./flags.ts";
import { boundLines, type Io } from "./io.ts";
import { suiteCommand, warningLines } from "./suite.ts";
import { keepOpenOption } from "./keep-open.ts";
import { existsSync, statSync } from "node:fs";

/** Flags that only make sense for a directory. */
const SUITE_ONLY = ["strict", "record-missing", "author", "workers", "shard"] as const;

const LABEL = { passed: "PASS", failed: "FAIL", skipped: "SKIP", errored: "ERROR" } as const;
const EXIT_CODE: Record<RunOutcome, ExitCode> = { passed: EXIT.pass, skipped: EXIT.pass, failed: EXIT.failed, errored: EXIT.error, stale: EXIT.error, interrupted: EXIT.error, expected_failure: EXIT.pass, flaky: EXIT.failed };
const VERDICT: Record<RunOutcome, string> = { passed: "PASS", skipped: "PASS", failed: "FAIL", errored: "ERROR", stale: "STALE", interrupted: "ERROR", expected_failure: "XFAIL", flaky: "FLAKY" };

export async function runCommand(args: ParsedArgs, io: Io): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1) throw new UsageError("run takes exactly one flow file", "usage: flowproof run <flow.yaml> or flowproof run <dir> [-t <trace>] [--recording-detail full|low|off] [--video] [--highlight-cursor] [--json]");
  if (existsSync(spec) && statSync(spec).isDirectory()) {
    if (args.flags["keep-open"] === true) throw new UsageError("--keep-open applies to one flow, not to a directory", "run one flow with --keep-open: flowproof run <flow.yaml> --keep-open");
    return suiteCommand(spec, args, io);
  }
  const suiteOnly = SUITE_ONLY.find((f) => args.flags[f] !== undefined);
  if (suiteOnly) throw new UsageError(`--${suiteOnly} applies to a suite run (a directory), not to one flow file`, "run the flow's directory: flowproof run <dir> --" + suiteOnly);
  const json = args.flags["json"] === true;
  const retriesText = args.flags["retries"];
  const retries = typeof retriesText === "string" && /^\d+$/.test(retriesText) && Number(retriesText) <= 255 ? Number(retriesText) : undefined;
  if (retriesText !== undefined && retries === undefined) throw new UsageError(`--retries must be a whole number from 0 to 255, not ${JSON.stringify(retriesText)}`, "e.g. --retries 2");
  const repeatEach = repeatEachOption(args);
  const keepOpen = keepOpenOption(args, io);
  const result = await runInSuiteContext({ spec, ...(keepOpen ? { keepOpen } : {}), ...(retries !== undefined ? { retries } : {}), ...(repeatEach !== undefined ? { repeatEach } : {}), ...(typeof args.flags["trace"] === "string" ? { trace: args.flags["trace"] } : {}), ...recordingControls(args.flags), log: (line) => io.err(line) });
  const { report } = result;
  if (result.skipped !== undefined) {
    if (json) io.out(JSON.stringify({ report, report_path: null, skipped: result.skipped }, null, 2));
    else io.out(`[SKIP] ${report.name} (${result.skipped})`);
    return EXIT.pass;
  }
  const code = EXIT_CODE[report.outcome];
  if (json) {
    io.out(JSON.stringify({ report, report_path: result.report_path, run_dir: result.run_dir, junit_path: result.junit_path, html_path: result.html_path, ...(result.error_hint ? { hint: result.error_hint } : {}) }, null, 2));
    return code;
  }
  const lines = report.steps
    .filter((s) => s.status !== "skipped" || report.error === undefined)
    .flatMap((s) => [`  [${report.expected_failure?.step === s.id && s.status === "failed" ? "XFAIL" : LABEL[s.status]}] ${s.id} ${s.intent}${s.detail && s.status !== "skipped" ? ` — ${s.detail}` : ""}`, ...warningLines([s])]);
  if (lines.length > 0) io.out(boundLines(lines.join("\n")));
  if (report.error) io.err(`error: ${report.error}${result.error_hint ? `\n  hint: ${result.error_hint}` : ""}`);
  const verdict = VERDICT[report.outcome];
  io.out(`${verdict}: ${report.name} (${report.duration_ms} ms)${report.expected_failure ? ` — a known failure (${report.expected_failure.reason})` : ""} -> ${displayPath(result.html_path)}`);
  io.out(`result: ${displayPath(result.report_path)}`);
  return code;
}
