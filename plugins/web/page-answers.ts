// What the page API's answers mean as the contract's shapes, for every protocol's driver (CDP and
// WebDriver BiDi alike): one translation, so the same page gives the same verdict in every engine.
import type { Attempt, Candidate, Reading, SceneInventory } from "../../src/plugins/api.ts";
import type { CheckAnswer, ProbeAnswer, ProbeFailure, ScopeAnswer, ValueAnswer } from "./injected/protocol.ts";
import { fail, ok, type Transient } from "./page-calls.ts";

/** A probe's answer: the element's point and facts, or why not (retried unless no wait can change it). */
export function probeAttempt(answer: ProbeAnswer | Transient): Attempt<ProbeAnswer & { ok: true }> {
  if ("transient" in answer) return fail("attached", answer.transient);
  if (!answer.ok) {
    const retryable = answer.failed !== "unsupported" && answer.failed !== "editable" && answer.failed !== "ambiguous";
    return { ok: false, failed: answer.failed, detail: answer.detail, retryable, ...(answer.precaution ? { precaution: true } : {}) };
  }
  return ok(answer, answer.tier);
}

/** A read's answer: the text, or why not (an ambiguous or unsupported target is final). */
export function valueAttempt(answer: ValueAnswer | Transient): Attempt<string> {
  if ("transient" in answer) return fail("attached", answer.transient);
  if (!answer.ok) return fail(answer.failed, answer.detail, answer.failed !== "ambiguous" && answer.failed !== "unsupported");
  return ok(answer.value, answer.tier);
}

/** A scope method's answer (a value assigned, a scroll); a dialog the action opened answers first. */
export function scopeAttempt(answer: ScopeAnswer | Transient, takeDialog: () => Attempt<never> | undefined): Attempt {
  if ("transient" in answer) return fail("attached", answer.transient);
  if (!answer.ok) {
    const failed = answer.failed as ProbeFailure;
    return fail(failed, answer.detail, failed === "not-found" || failed === "visible" || failed === "enabled");
  }
  return takeDialog() ?? ok(undefined, answer.tier);
}

/** A check's reading; a navigation in flight reads as not holding yet. */
export const checkReading = (answer: CheckAnswer | Transient): Reading => ("transient" in answer ? { pass: false, actual: answer.transient } : answer);

/** How many elements a ladder names; none while the page is between documents. */
export const countOf = (answer: unknown): number => (typeof answer === "number" ? answer : 0);

/** The elements a plain label names; none while the page is between documents. */
export const candidatesOf = (answer: unknown): readonly Candidate[] => (Array.isArray(answer) ? (answer as Candidate[]) : []);

/** Where a pointer would land on the element, when it can. */
export const pointOf = (answer: ProbeAnswer | Transient): { x: number; y: number } | undefined =>
  "transient" in answer || !answer.ok ? undefined : { x: answer.x, y: answer.y };

/** What the page shows; a navigation in flight is an empty, unloaded reading, which the engine reads again. */
export const sceneOf = (answer: SceneInventory | Transient): SceneInventory =>
  "transient" in answer ? { url: "", title: "", text: "", entries: [], omitted: 0, loaded: false } : answer;
