// `flowproof heal`: parse flags → commands/heal → render. Exit 0 healthy or applied, 1 changes
// proposed, 2 error (a clarification with --json prints its payload).
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { heal, type HealOptions } from "../commands/heal.ts";
import { displayPath } from "../commands/paths.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs, CommandFlags, FlagsMatchOptions } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";
import { renderClarification } from "./record.ts";

/** HealOptions no flag sets, and why. */
export const HEAL_OPTIONS_WITHOUT_FLAG = {
  spec: "the positional <flow.yaml>",
  env: "the process environment (and the suite's)",
  log: "progress goes to stderr",
  headed: "FLOWPROOF_HEADED",
  keepOpen: "a heal proposes a diff for review; --keep-open is for record and run",
  model: "configured from FLOWPROOF_AI_* in the environment",
  lifecycle: "the process lifecycle the CLI's main created, passed to the command",
} as const;

// The flags of `flowproof heal` are HealOptions, field for field.
true satisfies FlagsMatchOptions<CommandFlags<"heal">, HealOptions, "json", keyof typeof HEAL_OPTIONS_WITHOUT_FLAG>;

export async function healCommand(args: CommandArgs<"heal">, io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  const spec = args.positional[0];
  if (!spec || args.positional.length > 1)
    throw new UsageError("heal takes exactly one flow file", "usage: flowproof heal <flow.yaml> [--apply [--accept-effect-changes]] [--json]");
  const { json, ...options } = args.flags;
  const result = await heal({ spec, ...options, lifecycle, log: (line) => io.err(line) });
  if (!result.ok) {
    if (result.clarification) {
      if (json) io.out(JSON.stringify({ needs_clarification: result.clarification }, null, 2));
      else io.err(renderClarification(result.clarification));
    } else if (json) {
      io.out(JSON.stringify({ error: { code: "step-failed", message: result.error } }, null, 2));
    } else {
      io.err(`HEAL FAILED: ${result.error}`);
    }
    return EXIT.error;
  }
  const r = result.report;
  if (json) {
    io.out(JSON.stringify({ report: r, applied: result.applied }, null, 2));
  } else if (!r.changed) {
    io.out(`HEALTHY: ${result.name} — the live app still matches ${displayPath(result.trace_path)}`);
  } else {
    for (const c of r.steps_changed) io.out(`  [CHANGED] ${c.id} ${c.intent} (${c.fields.join(", ")})`);
    for (const a of r.agent_runs ?? [])
      io.out(
        `  [CHANGED] ${a.id} agent run: ${a.kept_turns} of ${a.recorded_turns} recorded turn${a.recorded_turns === 1 ? "" : "s"} kept, re-recorded from turn ${a.kept_turns + 1} (${a.turns} turn${a.turns === 1 ? "" : "s"} now)`,
      );
    for (const e of r.effect_changes) io.out(`  [EFFECT CHANGED] ${e.id} ${e.intent}`);
    if (r.steps_added > 0 || r.steps_removed > 0) io.out(`  steps added: ${r.steps_added}, removed: ${r.steps_removed}`);
    if (r.diff_html) io.out(`REVIEW: ${displayPath(r.diff_html)}`);
    if (result.applied) io.out(`APPLIED: ${displayPath(result.trace_path)} updated in place`);
    else if (r.refused) io.out(`NOT APPLIED: ${r.refused}`);
    else if (r.proposed_path) io.out(`PROPOSED: review ${displayPath(r.proposed_path)} then re-run with --apply`);
  }
  if (!r.changed || result.applied) return EXIT.pass;
  return EXIT.failed;
}
