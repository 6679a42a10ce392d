// `flowproof run <flow.yaml>` inside a suite: the nearest suite.yaml (walking up) applies as it
// would in the suite run — min_version, env_from, env, server, before_each/after_each hooks,
// browser defaults and identities — so a flow behaves the same alone as in its suite; and every
// run leaves a run record for `flowproof audit`. Never prints: progress goes to `log`.
import { envOf, lifecycleOf } from "./common.ts";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { existsSync } from "node:fs";
import { run, type RunOptions, type RunResult } from "./run.ts";
import { withinRoot } from "./common.ts";
import { displayPath, defaultTracePath, flowStem } from "./paths.ts";
import { loadFlowForReplay, type ReplayFlow } from "./flow-load.ts";
import { runContextsOf } from "./project-plugins.ts";
import type { Flow } from "../spec/flow.ts";
import { suiteOfFlow, withSuiteHooks, withSuiteServer } from "./suite-context.ts";
import { createRecordDir, logPruned, pruneRecords, runsRoot, writeRecord } from "./run-records.ts";
import { controlRecord, flowReason, flowStatus, type RunRecord } from "../report/run-record.ts";
import { createRunDir, writeRunBundle } from "../report/bundle.ts";
import { erroredReport } from "./flow-outcome.ts";
import { checkRepeatOptions, combineRepeats } from "./repeat.ts";
import { FLOWPROOF_VERSION } from "../version.ts";

export interface SingleRunOptions extends RunOptions {
  /** Re-run a failed flow up to this many more times, each in a fresh context. */
  readonly retries?: number;
  /** Replay the flow this many times (`--repeat-each`): one verdict, FLAKY when the repeats disagree. */
  readonly repeatEach?: number;
}

export interface SingleRunResult extends RunResult {
  /** The governing suite.yaml, when one was found. */
  readonly suite_file?: string;
  /** The run record written for this run (undefined when it could not be written: a warning). */
  readonly record_path?: string;
}

export function runInSuiteContext(options: SingleRunOptions): Promise<SingleRunResult> {
  return withinRoot(options.root, { "the flow": options.spec, "the trace": options.trace }, () => runInSuiteConfined(options));
}

async function runInSuiteConfined(options: SingleRunOptions): Promise<SingleRunResult> {
  checkRepeatOptions(options);
  const log = options.log ?? (() => undefined);
  const specPath = resolve(options.spec);
  const suite = suiteOfFlow(specPath, envOf(options), log);
  const env = suite.env;
  // The flow is loaded once, as replay reads it, and handed to the run and to its run record.
  let loaded: ReplayFlow | undefined;
  const lifecycle = lifecycleOf(options);
  const result = await withSuiteServer(
    suite,
    log,
    async (): Promise<RunResult> => {
      let loadError: { error: unknown } | undefined;
      try {
        loaded = options.loaded ?? (await loadFlowForReplay(specPath, runContextsOf(env, lifecycle), suite.defaults));
      } catch (error) {
        loadError = { error };
      }
      // after_each always runs, also when the flow could not start (a missing trace, a bad spec).
      const hooked = await withSuiteHooks(
        suite,
        specPath,
        log,
        async () => {
          if (loadError) throw loadError.error;
          // --retries: a failed flow (a verdict, not an error) runs again in a fresh context.
          const retries = options.retries ?? 0;
          const repeats: RunResult[] = [];
          for (let attempt = 1; ; attempt++) {
            const ran = await run({ ...options, env, lifecycle, ...(loaded ? { loaded } : {}), ...(suite.defaults ? { suiteDefaults: suite.defaults } : {}) });
            // Repeats (`--repeat-each`) and retries never mix (checkRepeatOptions): only repeats are combined.
            if ((options.repeatEach ?? 1) > 1) repeats.push(ran);
            if (repeats.length > 0 && repeats.length < (options.repeatEach ?? 1)) {
              log(`  repeat ${repeats.length}/${options.repeatEach} ${ran.report.outcome} ${ran.report.name}`);
              continue;
            }
            if (repeats.length > 1) return repeated(repeats);
            if (ran.report.outcome !== "failed" || attempt > retries) return ran;
            log(`  retry ${attempt}/${retries} ${ran.report.name}`);
          }
        },
        lifecycle,
      );
      if (hooked.hookError === undefined) return hooked.value;
      const ran = hooked.ran ? hooked.value : undefined;
      const report = erroredReport(
        loaded?.flow.name ?? flowStem(specPath),
        displayPath(specPath),
        displayPath(options.trace ?? defaultTracePath(specPath)),
        hooked.hookError,
      );
      const dir = ran?.run_dir ?? createRunDir(dirname(specPath), new Date());
      const paths = writeRunBundle(dir, report);
      return { report, report_path: paths.result, run_dir: dir, junit_path: paths.junit, html_path: paths.html, warnings: ran?.warnings ?? [] };
    },
    lifecycle,
  );
  const record_path = writeSingleRecord(suite.ctx?.dir ?? dirname(specPath), specPath, loaded?.flow, result, log);
  return { ...result, ...(suite.file ? { suite_file: suite.file } : {}), ...(record_path ? { record_path } : {}) };
}

/** The result of a flow's repeats: their combined report, written over the bundle of the repeat it shows. */
function repeated(repeats: readonly RunResult[]): RunResult {
  const shown = repeats.find((r) => r.report.outcome !== "passed" && r.report.outcome !== "expected_failure") ?? repeats[repeats.length - 1]!;
  const report = combineRepeats(
    repeats.map((r) => r.report),
    repeats.map((r) => relative(shown.run_dir, r.report_path).split(sep).join("/")),
  );
  writeRunBundle(shown.run_dir, report);
  return { ...shown, report };
}

function writeSingleRecord(suiteDir: string, specPath: string, flow: Flow | undefined, result: RunResult, log: (line: string) => void): string | undefined {
  try {
    const { report } = result;
    const status = flowStatus(report);
    const reason = flowReason(report);
    // One run, one folder: the record goes into the run's own bundle when that is a run folder of this suite.
    const own = resolve(dirname(result.run_dir)) === resolve(runsRoot(suiteDir)) && !existsSync(join(result.run_dir, "report.json"));
    const { runId, dir } = own ? { runId: basename(result.run_dir), dir: result.run_dir } : createRecordDir(suiteDir, new Date(report.started_at));
    const rel = (p: string) => relative(suiteDir, p).split(sep).join("/");
    const record: RunRecord = {
      run_id: runId,
      started_at: report.started_at,
      flowproof_version: FLOWPROOF_VERSION,
      env: { os: process.platform },
      suite: displayPath(suiteDir) || ".",
      flows: [
        {
          flow: rel(specPath),
          name: report.name,
          status,
          position: 0,
          duration_ms: report.duration_ms,
          ...(report.degraded ? { degraded: true } : {}),
          ...(reason ? { reason } : {}),
          result: relative(dir, result.report_path).split(sep).join("/"),
          ...(result.exported ? { exports: Object.keys(result.exported) } : {}),
          ...(flow?.control ? { control: controlRecord(flow.control, status, reason, report, rel(defaultTracePath(specPath))) } : {}),
        },
      ],
    };
    const path = writeRecord(dir, record);
    logPruned(pruneRecords(suiteDir), log);
    return path;
  } catch (error) {
    // A run record that cannot be written never changes the verdict.
    log(`WARNING: could not write the run record: ${(error as Error).message}`);
    return undefined;
  }
}
