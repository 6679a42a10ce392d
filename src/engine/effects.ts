// Step effects: what an action did (a navigation, a request it sent, a dialog, a download, the
// target's own state, focus, the DOM), observed at record and written into the trace step, then
// observed again at replay and compared conservatively. A missing navigation, write request,
// dialog, download or target change fails the step, naming both sides; a missing DOM, focus or
// GET effect is a warning unless the flow is `effects: strict`; extra effects never count.
// A structured step (`assert_api`) is observed only on a surface that observes the requests its
// own steps send (`api`): the step reports each request it sent through the watch open around it.
import { AsyncLocalStorage } from "node:async_hooks";
import type { EffectKind, EffectWatch, ObservedEffect } from "../plugins/api.ts";
import { isWriteMethod } from "../plugins/api.ts";
import type { ActionType, StepEffect, TraceStep } from "../trace/schema.ts";
import type { Clock, EffectSettings, ExecutionContext } from "./context.ts";
import { redact } from "./context.ts";
import { joinAnd } from "../diagnostics/word-list.ts";

export type { EffectPolicy, EffectSettings } from "./context.ts";

/** An effect as result.json holds it. */
export interface EffectData {
  navigated?: string;
  requests?: string[];
  dialog?: string;
  download?: boolean;
  target?: string[];
  focus?: boolean;
  dom?: "near" | "page";
}

/** What a step's report says about its effect. */
export interface EffectReport {
  /** `on`/`strict`: compared; `off`: turned off by the flow or the step; `unjudged`: nothing recorded to compare (or not observed). */
  readonly check: "on" | "strict" | "off" | "unjudged";
  /** The kinds observed (record: written into the trace). */
  readonly observes?: EffectKind[];
  /** The effect in the trace (replay). */
  readonly recorded?: EffectData;
  /** The effect observed in this execution. */
  readonly seen?: EffectData;
  /** A DOM, focus or GET effect that did not happen again (not a failure unless strict). */
  readonly warning?: string;
}

/** Actions whose effect is observed: input a user gives an element or the page. */
const OBSERVED_ACTIONS: ReadonlySet<ActionType> = new Set<ActionType>([
  "click",
  "double_click",
  "right_click",
  "hover",
  "drag",
  "type_text",
  "press_key",
  "upload",
  "set_checked",
]);

/** Record: the effect has settled once nothing happened for this long… */
export const EFFECT_QUIET_MS = 100;
/** …or after this long in all (a page with a busy timer never goes quiet). */
export const EFFECT_SETTLE_MAX_MS = 1_500;
/** Replay: a recorded navigation, write, dialog, download or target change may take the step's bound; this is the least it gets. */
export const EFFECT_MIN_BOUND_MS = 2_000;
const POLL_MS = 20;

const isWrite = (r: string) => isWriteMethod(r.slice(0, r.indexOf(" ")));

/** A structured step (`- assert_api: {…}`): observed only by a surface that observes its own requests. */
const isStructured = (step: TraceStep): boolean => step.action.type === "assert" && step.action.params.kind === "structured";

/** The watch open around the step running now, for the requests a structured step reports sending. */
const openWatch = new AsyncLocalStorage<EffectWatch>();

/** A request a structured step sent (AssertionContext.sent): handed to the watch open around the step, if its surface observes requests. */
export function reportSent(method: string, url: string): void {
  openWatch.getStore()?.sent?.(method, url);
}

/** Whether the step's effect is observed at all. */
export function observesEffect(step: TraceStep, settings: EffectSettings | undefined): boolean {
  if (!settings || settings.policy === "off" || !(OBSERVED_ACTIONS.has(step.action.type) || isStructured(step)) || step.effect?.off) return false;
  if (settings.mode === "record") return true;
  // Replay: only a recorded, non-empty effect is judged; a trace from before effects replays as before.
  return step.effect !== undefined && hasEffect(step.effect);
}

/** True when the effect holds anything at all. */
export function hasEffect(e: ObservedEffect): boolean {
  return (
    e.navigated !== undefined ||
    (e.requests?.length ?? 0) > 0 ||
    e.dialog !== undefined ||
    e.download === true ||
    (e.target?.length ?? 0) > 0 ||
    e.focus === true ||
    e.dom !== undefined
  );
}

/** The signature record writes: GETs only when the action sent nothing else and did not navigate; secrets as their references. */
export function signatureOf(seen: ObservedEffect, secrets: ReadonlyMap<string, string>): ObservedEffect {
  const clean = redactEffect(seen, secrets);
  const requests = clean.requests ?? [];
  const writes = requests.filter(isWrite);
  const kept = writes.length > 0 || clean.navigated !== undefined ? writes : requests;
  return {
    ...(clean.navigated !== undefined ? { navigated: clean.navigated } : {}),
    ...(kept.length > 0 ? { requests: [...new Set(kept)] } : {}),
    ...(seen.dialog !== undefined ? { dialog: seen.dialog } : {}),
    ...(seen.download ? { download: true } : {}),
    ...(seen.target && seen.target.length > 0 ? { target: [...seen.target] } : {}),
    ...(seen.focus ? { focus: true } : {}),
    ...(seen.dom !== undefined ? { dom: seen.dom } : {}),
  };
}

/** The effect with every `${VAR}` value in a path replaced by its reference. */
export function redactEffect(e: ObservedEffect, secrets: ReadonlyMap<string, string>): ObservedEffect {
  return {
    ...e,
    ...(e.navigated !== undefined ? { navigated: redact(e.navigated, secrets) } : {}),
    ...(e.requests ? { requests: [...new Set(e.requests.map((r) => redact(r, secrets)))] } : {}),
  };
}

/** The trace's `effect` for a step recorded with `watchKinds` observed. */
export function traceEffect(observes: readonly EffectKind[], effect: ObservedEffect): StepEffect {
  const d = dataOf(effect);
  return { observes: [...observes], ...d, ...(d.download ? { download: true as const } : {}), ...(d.focus ? { focus: true as const } : {}) } as StepEffect;
}

/** The recorded effect without the trace-only keys. */
export function recordedEffect(e: StepEffect): EffectData {
  return dataOf(e);
}

/** A copy holding only the effect's own keys. */
export function dataOf(e: ObservedEffect): EffectData {
  return {
    ...(e.navigated !== undefined ? { navigated: e.navigated } : {}),
    ...(e.requests !== undefined ? { requests: [...e.requests] } : {}),
    ...(e.dialog !== undefined ? { dialog: e.dialog } : {}),
    ...(e.download !== undefined ? { download: e.download } : {}),
    ...(e.target !== undefined ? { target: [...e.target] } : {}),
    ...(e.focus !== undefined ? { focus: e.focus } : {}),
    ...(e.dom !== undefined ? { dom: e.dom } : {}),
  };
}

export interface Judgement {
  /** The failure message (missing hard effects), or undefined. */
  readonly failure?: string;
  /** The warning (missing soft effects), or undefined. */
  readonly warning?: string;
}

interface Missing {
  readonly hard: string[];
  readonly soft: string[];
  /** Kinds whose recorded effect did not happen again, for naming what replay did instead. */
  readonly kinds: Set<EffectKind>;
}

const stateWords = (states: readonly string[]) => `${joinAnd(states)} ${states.length === 1 ? "state" : "states"}`;
const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");

/** Phrases for the parts of `e` of the given kinds (all when `kinds` is absent). */
export function describeParts(e: ObservedEffect, kinds?: ReadonlySet<EffectKind>, writesOnly = false): string[] {
  const want = (k: EffectKind) => !kinds || kinds.has(k);
  const parts: string[] = [];
  const requests = (e.requests ?? []).filter((r) => !writesOnly || isWrite(r));
  if (want("request") && requests.length > 0) parts.push(`sent ${joinAnd(requests)}`);
  if (want("navigation") && e.navigated !== undefined) parts.push(`navigated to ${e.navigated}`);
  if (want("dialog") && e.dialog !== undefined) parts.push(`opened ${article(e.dialog)} ${e.dialog} dialog`);
  if (want("download") && e.download) parts.push("started a download");
  if (want("target") && e.target && e.target.length > 0) parts.push(`changed the target's ${stateWords(e.target)}`);
  if (want("focus") && e.focus) parts.push("moved focus");
  if (want("dom") && e.dom !== undefined) parts.push(e.dom === "near" ? "changed the page near the target" : "changed the page");
  return parts;
}

/** One effect as a sentence fragment: `sent POST /api/orders and navigated to /orders/confirm`; `changed nothing`. */
export function describeEffect(e: ObservedEffect): string {
  const parts = describeParts(e);
  return parts.length > 0 ? joinAnd(parts) : "changed nothing";
}

/** What of `recorded` did not happen again in `seen`, among the kinds both sides observed. */
function missingOf(recorded: ObservedEffect, seen: ObservedEffect, kinds: ReadonlySet<EffectKind>): Missing {
  const m: Missing = { hard: [], soft: [], kinds: new Set() };
  const miss = (kind: EffectKind, hard: boolean, phrase: string) => {
    (hard ? m.hard : m.soft).push(phrase);
    m.kinds.add(kind);
  };
  const seenRequests = new Set(seen.requests ?? []);
  if (kinds.has("request")) {
    const lost = (recorded.requests ?? []).filter((r) => !seenRequests.has(r));
    const lostWrites = lost.filter(isWrite);
    if (lostWrites.length > 0) miss("request", true, `sent ${joinAnd(lostWrites)}`);
    const lostReads = lost.filter((r) => !isWrite(r));
    if (lostReads.length > 0) miss("request", false, `sent ${joinAnd(lostReads)}`);
  }
  if (kinds.has("navigation") && recorded.navigated !== undefined && seen.navigated !== recorded.navigated)
    miss("navigation", true, `navigated to ${recorded.navigated}`);
  if (kinds.has("dialog") && recorded.dialog !== undefined && seen.dialog !== recorded.dialog)
    miss("dialog", true, `opened ${article(recorded.dialog)} ${recorded.dialog} dialog`);
  if (kinds.has("download") && recorded.download && !seen.download) miss("download", true, "started a download");
  if (kinds.has("target") && recorded.target && recorded.target.length > 0 && !recorded.target.some((t) => seen.target?.includes(t))) {
    miss("target", true, `changed the target's ${stateWords(recorded.target)}`);
  }
  if (kinds.has("focus") && recorded.focus && !seen.focus) miss("focus", false, "moved focus");
  if (kinds.has("dom") && recorded.dom !== undefined && (seen.dom === undefined || (recorded.dom === "near" && seen.dom !== "near"))) {
    miss("dom", false, recorded.dom === "near" ? "changed the page near the target" : "changed the page");
  }
  return m;
}

/** What replay did of the kinds that went missing: `did neither`, or `sent POST /elsewhere instead`. */
function replaySide(seen: ObservedEffect, m: Missing, count: number): string {
  const instead = describeParts(seen, m.kinds, true);
  if (instead.length > 0) return `${joinAnd(instead)} instead`;
  return count === 1 ? "did not" : count === 2 ? "did neither" : "did none of these";
}

/**
 * Compares a recorded effect with the one seen at replay over the kinds both sides observed.
 * Missing hard effects fail (soft ones too when `strict`); extras never count.
 */
export function judgeEffect(intent: string, recorded: StepEffect, seen: ObservedEffect, seenKinds: readonly EffectKind[], strict: boolean): Judgement {
  const kinds = new Set(recorded.observes.filter((k) => seenKinds.includes(k)));
  const m = missingOf(recordedEffect(recorded), seen, kinds);
  const failing = strict ? [...m.hard, ...m.soft] : m.hard;
  const warning = strict ? [] : m.soft;
  const out: { failure?: string; warning?: string } = {};
  if (failing.length > 0) out.failure = `${intent}: at record it ${joinAnd(failing)}; at replay it ${replaySide(seen, m, failing.length)}`;
  if (warning.length > 0)
    out.warning = `${intent}: at record it ${joinAnd(warning)}; at replay it ${warning.length === 1 ? "did not" : warning.length === 2 ? "did neither" : "did none of these"}`;
  return out;
}

/** True once every hard part of `recorded` (and every soft part when `alsoSoft`) was seen again. */
function satisfied(recorded: StepEffect, seen: ObservedEffect, seenKinds: readonly EffectKind[], alsoSoft: boolean): boolean {
  const kinds = new Set(recorded.observes.filter((k) => seenKinds.includes(k)));
  const m = missingOf(recordedEffect(recorded), seen, kinds);
  return m.hard.length === 0 && (!alsoSoft || m.soft.length === 0);
}

/** How long replay waits for a recorded effect: the step's own bound, at least EFFECT_MIN_BOUND_MS. */
function replayBoundMs(step: TraceStep): number {
  const pre = step.sync.pre[0]?.timeout_ms ?? 0;
  return Math.max(EFFECT_MIN_BOUND_MS, pre);
}

/** Reads the watch until the effect settles (record) or the recorded effect happened again (replay), bounded. */
async function settle(watch: EffectWatch, clock: Clock, step: TraceStep, settings: EffectSettings): Promise<ObservedEffect> {
  const started = clock.now();
  const recorded = settings.mode === "replay" ? step.effect : undefined;
  const hardBound = recorded ? replayBoundMs(step) : EFFECT_SETTLE_MAX_MS;
  for (;;) {
    const r = await watch.read();
    if (r.final) return recorded ? (r.withAppsOwn ?? r.effect) : r.effect;
    const elapsed = clock.now() - started;
    if (recorded) {
      // Replay is judged on everything seen: record kept only what was certainly the step's.
      const seen = r.withAppsOwn ?? r.effect;
      if (satisfied(recorded, seen, watch.kinds, true)) return seen;
      // The hard parts are back: soft parts (DOM, focus, GETs) are waited for as long as record
      // settles at most, not until the page goes quiet, so that a page redrawing late never reads
      // as one that did not change; under `strict`, where they fail, the step's whole bound.
      if (settings.policy !== "strict" && elapsed >= EFFECT_SETTLE_MAX_MS && satisfied(recorded, seen, watch.kinds, false)) return seen;
      if (elapsed >= hardBound) return seen;
    } else if (r.idleMs >= EFFECT_QUIET_MS || elapsed >= hardBound) {
      return r.effect;
    }
    await clock.sleep(POLL_MS);
  }
}

/** A step's outcome after its effect was observed: the failure (if any) and what the report shows. */
export interface EffectOutcome {
  readonly failure?: string;
  readonly report: EffectReport;
}

/** The report of a step whose effect is not observed: `off` when turned off, otherwise nothing. */
export function unobservedReport(step: TraceStep, settings: EffectSettings | undefined): EffectReport | undefined {
  // A structured step has an effect to report only where its surface observed it at record.
  if (!settings || !(OBSERVED_ACTIONS.has(step.action.type) || (isStructured(step) && step.effect !== undefined))) return undefined;
  if (settings.policy === "off" || step.effect?.off) return { check: "off" };
  if (settings.mode === "replay" && step.effect !== undefined) {
    // A surface that observes nothing (desktop) says so, rather than "nothing recorded".
    const observesNothing = Array.isArray(step.effect.observes) && step.effect.observes.length === 0;
    return { check: "unjudged", ...(observesNothing ? { observes: [] } : {}), recorded: recordedEffect(step.effect) };
  }
  return undefined;
}

/**
 * Runs `act` with the step's effect observed; after a passing action reads the effect until it
 * settles, then (replay) compares it with the recorded one.
 */
export async function withEffect<T extends { readonly status: string }>(
  step: TraceStep,
  ctx: ExecutionContext,
  act: () => Promise<T>,
): Promise<{ outcome: T; effect?: EffectOutcome }> {
  const settings = ctx.effects;
  if (!settings || !observesEffect(step, settings) || !ctx.driver.observeEffect) {
    const report = unobservedReport(step, settings);
    return { outcome: await act(), ...(report ? { effect: { report } } : {}) };
  }
  const watch = await ctx.driver.observeEffect(step.selectors).catch(() => undefined);
  if (!watch || (isStructured(step) && !watch.sent)) {
    await watch?.stop().catch(() => undefined);
    const report = unobservedReport(step, settings);
    return { outcome: await act(), ...(report ? { effect: { report } } : {}) };
  }
  try {
    const outcome = await openWatch.run(watch, act);
    if (outcome.status !== "passed") return { outcome };
    const raw = await settle(watch, ctx.clock, step, settings);
    const seen = signatureOf(raw, ctx.secrets);
    if (settings.mode === "record")
      return {
        outcome,
        effect: {
          report: { check: hasEffect(seen) ? (settings.policy === "strict" ? "strict" : "on") : "unjudged", observes: [...watch.kinds], seen: dataOf(seen) },
        },
      };
    const recorded = step.effect!;
    // Compared on the full observation (GETs included), reported as the signature.
    const judged = judgeEffect(step.intent, recorded, redactEffect(raw, ctx.secrets), watch.kinds, settings.policy === "strict");
    const report: EffectReport = {
      check: settings.policy === "strict" ? "strict" : "on",
      recorded: recordedEffect(recorded),
      seen: dataOf(seen),
      ...(judged.warning ? { warning: judged.warning } : {}),
    };
    return { outcome, effect: { ...(judged.failure ? { failure: judged.failure } : {}), report } };
  } finally {
    await watch.stop().catch(() => undefined);
  }
}

/** Record: the trace steps with the effect each one showed (`effect`), keeping a step's `effects: off` marker. */
export function stepsWithEffects(steps: readonly TraceStep[], reports: ReadonlyMap<string, EffectReport>): TraceStep[] {
  return steps.map((s) => {
    const r = reports.get(s.id);
    if (s.effect?.off || !r || !r.observes || !r.seen) return s;
    return { ...s, effect: traceEffect(r.observes, r.seen) };
  });
}
