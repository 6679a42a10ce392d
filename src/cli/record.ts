// `flowproof record`: parse flags → commands/record → render.
import { record } from "../commands/record.ts";
import type { AuthorMode } from "../commands/common.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { ParsedArgs } from "./flags.ts";
import { keepOpenOption } from "./keep-open.ts";
import { UsageError, recordingControls } from "./flags.ts";
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

export async function recordCommand(args: ParsedArgs, io: Io): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1) throw new UsageError("record takes exactly one flow file", "usage: flowproof record <flow.yaml> [--author auto|rules|llm] [-o <trace>] [--json]");
  const json = args.flags["json"] === true;
  const keepOpen = keepOpenOption(args, io);
  const result = await record({
    spec,
    ...(typeof args.flags["out"] === "string" ? { out: args.flags["out"] } : {}),
    ...(typeof args.flags["author"] === "string" ? { author: args.flags["author"] as AuthorMode } : {}),
    ...(args.flags["reuse"] === true ? { reuse: true } : {}),
    ...(args.flags["verify"] === true ? { verify: true } : {}),
    ...recordingControls(args.flags),
    ...(keepOpen ? { keepOpen } : {}),
    log: (line) => io.err(line),
  });
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
    io.out(JSON.stringify({
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
    }, null, 2));
  } else if (result.ok && result.trace_path) {
    const reused = result.reused_steps > 0 ? ` (${result.reused_steps} reused)` : "";
    const known = result.expected_failure ? ` (a known failure: ${result.expected_failure.step} failed as \`expect:\` declares — ${result.expected_failure.reason}; the trace ends there)` : "";
    io.out(`Recorded '${result.name}': ${result.steps} ${result.steps === 1 ? "step" : "steps"}${reused}${known} -> ${displayPath(result.trace_path)}${result.verified ? " (verified by one replay)" : ""}`);
  } else {
    io.err(`RECORD FAILED: ${result.error ?? "unknown error"}`);
  }
  if (result.ok) return EXIT.pass;
  // A fresh trace that cannot reproduce itself is a harness problem, not a verdict on the app.
  if (result.verified === false) return EXIT.error;
  return result.step_results.some((r) => r.status === "failed") ? EXIT.failed : EXIT.error;
}
