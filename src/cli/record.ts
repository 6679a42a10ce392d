// `flowproof record`: parse flags → commands/record → render. The governing suite.yaml is the
// command's to apply (commands/record.ts), as for MCP and the library.
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { record, type RecordOptions } from "../commands/record.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs, CommandFlags, FlagsMatchOptions } from "./flags.ts";
import { keepOpenOption } from "./keep-open.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";
import type { Clarification } from "../authoring/clarification.ts";

/** A clarification for people: the reason, the candidates, and what to do. */
export function renderClarification(c: Clarification): string {
  const lines = [`NEEDS CLARIFICATION: step ${c.step_index} (${c.step}): ${c.reason}`];
  if (c.capture_candidates) lines.push(`  candidates: ${c.capture_candidates.join(", ")}`);
  if (c.completed_steps.length > 0) lines.push(`  completed: ${c.completed_steps.length} ${c.completed_steps.length === 1 ? "step" : "steps"}`);
  lines.push(`  hint: ${c.hint}`);
  lines.push("  (no trace was written; `--json` gives the whole payload, with the scene)");
  return lines.join("\n");
}

/** RecordOptions no flag sets, and why. */
export const RECORD_OPTIONS_WITHOUT_FLAG = {
  spec: "the positional <flow.yaml>",
  env: "the process environment (and the suite's)",
  log: "progress goes to stderr",
  headed: "FLOWPROOF_HEADED, or --keep-open",
  model: "configured from FLOWPROOF_AI_* in the environment",
  keepOpen: "--keep-open, turned into a wait for the person at the screen (keep-open.ts)",
  pool: "a suite run's shared browser sessions, internal to the suite",
  prior: "`flowproof heal` of an agent flow: the recorded cassettes, internal to heal",
  lifecycle: "the process lifecycle the CLI's main created, passed to the command",
} as const;

// The flags of `flowproof record` are RecordOptions, field for field.
true satisfies FlagsMatchOptions<CommandFlags<"record">, RecordOptions, "json" | "keepOpen", keyof typeof RECORD_OPTIONS_WITHOUT_FLAG>;

export async function recordCommand(args: CommandArgs<"record">, io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1)
    throw new UsageError("record takes exactly one flow file", "usage: flowproof record <flow.yaml> [--author auto|rules|llm] [-o <trace>] [--json]");
  const { json, keepOpen: _held, ...options } = args.flags;
  const keepOpen = keepOpenOption(args.flags, io, process.env, lifecycle);
  const result = await record({ spec, ...options, lifecycle, ...(keepOpen ? { keepOpen } : {}), log: (line) => io.err(line) });
  if (result.clarification) {
    if (json) io.out(JSON.stringify({ needs_clarification: result.clarification }, null, 2));
    else io.err(renderClarification(result.clarification));
    return EXIT.error;
  }
  if (result.skipped !== undefined) {
    io.out(json ? JSON.stringify({ skipped: result.skipped }, null, 2) : `[SKIP] ${result.name} (${result.skipped})`);
    return EXIT.pass;
  }
  if (json) {
    io.out(
      JSON.stringify(
        {
          trace_path: result.trace_path,
          steps: result.steps,
          reused_steps: result.reused_steps,
          routing: result.routing,
          ...(result.recording_dir ? { recording_dir: result.recording_dir } : {}),
          ...(result.failed_record_dir ? { failed_record_dir: result.failed_record_dir } : {}),
          ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
          ...(result.agent ? { agent: result.agent } : {}),
          ...(result.verified !== undefined ? { verified: result.verified } : {}),
          ...(result.error ? { error: result.error, step_results: result.step_results } : {}),
        },
        null,
        2,
      ),
    );
  } else if (result.ok && result.trace_path) {
    const reused = result.reused_steps > 0 ? ` (${result.reused_steps} reused)` : "";
    const known = result.expected_failure
      ? ` (a known failure: ${result.expected_failure.step} failed as \`expect:\` declares — ${result.expected_failure.reason}; the trace ends there)`
      : "";
    io.out(
      `Recorded '${result.name}': ${result.steps} ${result.steps === 1 ? "step" : "steps"}${reused}${known} -> ${displayPath(result.trace_path)}${result.verified ? " (verified by one replay)" : ""}`,
    );
  } else {
    io.err(`RECORD FAILED: ${result.error ?? "unknown error"}`);
  }
  if (result.ok) return EXIT.pass;
  // A fresh trace that cannot reproduce itself is a harness problem, not a verdict on the app.
  if (result.verified === false) return EXIT.error;
  return result.step_results.some((r) => r.status === "failed") ? EXIT.failed : EXIT.error;
}
