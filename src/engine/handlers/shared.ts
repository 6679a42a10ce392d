// Helpers shared by the step handlers: the outcome shape, the action auto-wait, and how a
// selector ladder is named in messages.
import type { Attempt, Selector } from "../../plugins/api.ts";
import type { ActionOf, ActionType, TraceStep } from "../../trace/schema.ts";
import type { ExecutionContext } from "../context.ts";
import { poll } from "../poll.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../compile.ts";
import { describeScopedPayload, ordinal } from "../scoped.ts";
import { anchorTextOf, nativeIdOf } from "../../trace/selector.ts";
import { ambiguousLabel } from "../ambiguity.ts";

export interface StepOutcome {
  readonly status: "passed" | "failed" | "errored";
  readonly detail?: string;
  /** The ladder rung that matched (native_id, text_anchor, …). */
  readonly tier?: string;
  /** Evidence files the step wrote, relative to the run bundle (e.g. `visual/x.diff.png`). */
  readonly evidence?: readonly string[];
  /** An agent run's conversation, for the report (tool calls, reply, the failed assertion). */
  readonly agent?: AgentRunReport;
  /** An agent run: one line per authored step (its prompts, follow-ups and assertions), reported in place of the step. */
  readonly lines?: readonly StepLine[];
  /** A failed assertion: what it expected (as authored), what the app showed, and what to check. */
  readonly expected?: string;
  readonly actual?: string;
  readonly hint?: string;
}

/** One authored step of a step that runs several (an agent run's prompts, follow-ups and assertions). */
export interface StepLine {
  readonly intent: string;
  readonly status: "passed" | "failed" | "errored" | "skipped";
  readonly detail?: string;
}

/** What report.html shows of an agent run: every tool call with arguments and result, the reply, the failed assertion. */
export interface AgentRunReport {
  turns: number;
  /** Model requests forwarded to the upstream model: 0 at replay. */
  model_calls: number;
  calls: { turn: number; name: string; arguments: unknown; result?: string }[];
  reply?: string;
  /** Record under `heal`: turns kept from the recording, and the conversation the recording held. */
  healed?: { kept_turns: number; recorded: { turns: number; calls: { turn: number; name: string; arguments: unknown; result?: string }[]; reply?: string } };
  /** A spawned agent: its stdout and stderr files (redacted), relative to the run bundle. */
  output?: { stdout: string; stderr: string };
  /** Replay: the turn whose request diverged; `calls` are then as they happened at replay, up to it. */
  diverged_turn?: number;
  /** Replay: request fields that differed but were not compared (`match: conversation`). */
  notes?: string[];
  failed_check?: { text: string; call?: number };
  /** The containment tier of the run, and (contained runs only) what the agent attempted outside allow_egress. */
  containment?: string;
  egress_attempts?: { destination: string; at_ms: number }[];
}

export type Handler = (step: TraceStep, ctx: ExecutionContext) => Promise<StepOutcome>;

/** A trace step whose action is of one of the types `T`, its params typed accordingly. */
export type StepOf<T extends ActionType> = Omit<TraceStep, "action"> & { readonly action: ActionOf<T> };

const isOf = <T extends ActionType>(step: TraceStep, types: readonly T[]): step is TraceStep & StepOf<T> =>
  (types as readonly ActionType[]).includes(step.action.type);

/** A handler for the action types `types`: the step reaches `run` with its params typed. */
export function handlerFor<T extends ActionType>(types: readonly T[], run: (step: StepOf<T>, ctx: ExecutionContext) => Promise<StepOutcome>): Handler {
  return async (step, ctx) => (isOf(step, types) ? run(step, ctx) : errored(`a ${step.action.type} step reached the ${types.join("/")} handler`));
}

export const passed = (tier?: string): StepOutcome => (tier ? { status: "passed", tier } : { status: "passed" });
export const failed = (
  detail: string,
  why: { readonly expected?: string | undefined; readonly actual?: string | undefined; readonly hint?: string | undefined } = {},
): StepOutcome => ({
  status: "failed",
  detail,
  ...(why.expected !== undefined ? { expected: why.expected } : {}),
  ...(why.actual !== undefined ? { actual: why.actual } : {}),
  ...(why.hint !== undefined ? { hint: why.hint } : {}),
});
export const errored = (detail: string): StepOutcome => ({ status: "errored", detail });

/** `the "Save" button`, `"css:#total"`, `the 2nd "Row value" field`. */
export function describeLadder(selectors: readonly Selector[]): string {
  const s = selectors[0];
  if (!s) return "the page";
  const p = s.payload;
  const scoped = describeScopedPayload(p);
  if (scoped !== undefined) return scoped;
  const nth = p.nth !== undefined ? `${ordinal(p.nth)} ` : "";
  const role = p.role !== undefined ? ` ${p.role}` : "";
  if ("css" in p) return `the ${nth}"css:${p.css}"${role}`;
  if ("id" in p) return `the ${nth}"id:${p.id}"${role}`;
  const text = anchorTextOf(s);
  if (text !== undefined) return `the ${nth}${JSON.stringify(text)}${role}`;
  // A recorded desktop rung (an automation id) comes first in its ladder: name the control by the
  // words the flow used when a later rung carries them, else as a control with that id.
  const words = selectors.slice(1).find((r) => anchorTextOf(r) !== undefined);
  if (words !== undefined) return describeLadder([words]);
  const id = nativeIdOf(s);
  return id !== undefined ? `the control with id ${JSON.stringify(id)}` : "the target";
}

/** The element-exists budget recorded in the step's sync conditions. */
export function stepTimeoutMs(step: TraceStep): number {
  const pre = step.sync.pre[0];
  return pre && typeof pre.timeout_ms === "number" ? pre.timeout_ms : DEFAULT_STEP_TIMEOUT_MS;
}

/** What the action was waiting for, as the end of "waiting for <target> to …". */
const WAITING_FOR: Record<string, string> = {
  "not-found": "appear",
  attached: "be attached to a loaded page",
  visible: "be visible",
  stable: "stop moving",
  enabled: "be enabled",
  editable: "be editable",
  "receives-pointer": "receive the pointer",
  unsupported: "be usable",
  dialog: "answer without a dialog",
  ambiguous: "name exactly one element",
};

/** Auto-waits an action until its target is actionable and the action landed. */
export async function runAction(step: TraceStep, ctx: ExecutionContext, attempt: () => Promise<Attempt>): Promise<StepOutcome> {
  const timeoutMs = stepTimeoutMs(step);
  /** The last attempt that found a condition false (not one that held off as a precaution). */
  let finding: Attempt | undefined;
  const result = await poll<Attempt>(ctx.clock, timeoutMs, async () => {
    // While recording, a plain label that names several elements is a question, not the first match.
    const ambiguous = await ambiguousLabel(step, ctx);
    if (ambiguous !== undefined) return { done: false, retryable: false, last: { ok: false, failed: "ambiguous", detail: ambiguous, retryable: false } };
    const r = await attempt();
    if (!r.ok && !r.precaution) finding = r;
    return r.ok ? { done: true, value: r } : { done: false, retryable: r.retryable, last: r };
  });
  // A bound that ran out on a precaution (the target restyled a moment ago) reports what the attempts found before it.
  const r = result.timedOut && !result.value.ok && result.value.precaution && finding ? finding : result.value;
  if (r.ok) return passed(r.tier);
  const what = describeLadder(step.selectors);
  if (r.failed === "dialog") return failed(r.detail);
  return failed(
    result.timedOut ? `timed out after ${timeoutMs} ms waiting for ${what} to ${WAITING_FOR[r.failed] ?? r.failed}: ${r.detail}` : `${what}: ${r.detail}`,
  );
}
