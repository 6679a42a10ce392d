// The step diff behind `flowproof heal`: two traces' steps compared by position on the fields
// that decide what replay does (intent, action, surface, selectors); timings and frames are not
// compared. Pure.
import type { StepEffect, TraceStep } from "./schema.ts";

export type DiffField = "intent" | "action" | "surface" | "selectors";
export const DIFF_FIELDS: readonly DiffField[] = ["intent", "action", "surface", "selectors"];

/** The compared part of a step. */
export type StepCore = Pick<TraceStep, "intent" | "action" | "selectors"> & { readonly surface?: string };

export interface ChangedStep {
  /** The position's id in the old trace (`s0002`). */
  readonly id: string;
  /** The new intent (the old one when only the new is missing). */
  readonly intent: string;
  readonly fields: readonly DiffField[];
  readonly old: StepCore;
  readonly new: StepCore;
}

export interface TraceDiff {
  readonly changed: boolean;
  readonly steps_changed: readonly ChangedStep[];
  /** New steps beyond the old trace's length. */
  readonly steps_added: number;
  /** Old steps beyond the new trace's length. */
  readonly steps_removed: number;
}

/** JSON with object keys sorted, so key order never counts as a change. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export const core = (s: TraceStep): StepCore => ({
  intent: s.intent,
  action: s.action,
  selectors: s.selectors,
  ...(s.surface !== undefined ? { surface: s.surface } : {}),
});

export function diffSteps(oldSteps: readonly TraceStep[], newSteps: readonly TraceStep[]): TraceDiff {
  const changed: ChangedStep[] = [];
  const n = Math.min(oldSteps.length, newSteps.length);
  for (let i = 0; i < n; i++) {
    const a = oldSteps[i]!;
    const b = newSteps[i]!;
    const fields = DIFF_FIELDS.filter((f) => canonical(a[f] ?? null) !== canonical(b[f] ?? null));
    if (fields.length > 0) changed.push({ id: a.id, intent: b.intent, fields, old: core(a), new: core(b) });
  }
  const added = Math.max(0, newSteps.length - oldSteps.length);
  const removed = Math.max(0, oldSteps.length - newSteps.length);
  return { changed: changed.length > 0 || added > 0 || removed > 0, steps_changed: changed, steps_added: added, steps_removed: removed };
}

/** A step whose recorded effect differs between two traces (see docs/trace-format.md, "Effects"). */
export interface EffectChange {
  /** The position's id in the old trace. */
  readonly id: string;
  readonly intent: string;
  readonly old: StepEffect;
  readonly new: StepEffect;
}

const WRITE = /^(POST|PUT|PATCH|DELETE) /;

/** The parts of an effect replay fails on: navigation, write requests, dialog, download, target change. */
function hardParts(e: StepEffect): Record<string, unknown> {
  return {
    navigated: e.navigated ?? null,
    writes: [...(e.requests ?? []).filter((r) => WRITE.test(r))].sort(),
    dialog: e.dialog ?? null,
    download: e.download ?? false,
    target: [...(e.target ?? [])].sort(),
  };
}

/**
 * Steps (by position) whose effect replay would judge differs between the traces: only where both
 * traces recorded one with checking on (a trace from before effects is never flagged), over the kinds both observed.
 */
export function effectChanges(oldSteps: readonly TraceStep[], newSteps: readonly TraceStep[]): EffectChange[] {
  const out: EffectChange[] = [];
  const n = Math.min(oldSteps.length, newSteps.length);
  for (let i = 0; i < n; i++) {
    const a = oldSteps[i]!;
    const b = newSteps[i]!;
    if (!a.effect || !b.effect || a.effect.off || b.effect.off) continue;
    const both = new Set(a.effect.observes.filter((k) => b.effect!.observes.includes(k)));
    const pick = (e: StepEffect): Record<string, unknown> => {
      const h = hardParts(e);
      return {
        ...(both.has("navigation") ? { navigated: h["navigated"] } : {}),
        ...(both.has("request") ? { writes: h["writes"] } : {}),
        ...(both.has("dialog") ? { dialog: h["dialog"] } : {}),
        ...(both.has("download") ? { download: h["download"] } : {}),
        ...(both.has("target") ? { target: h["target"] } : {}),
      };
    };
    if (canonical(pick(a.effect)) !== canonical(pick(b.effect))) out.push({ id: a.id, intent: b.intent, old: a.effect, new: b.effect });
  }
  return out;
}
