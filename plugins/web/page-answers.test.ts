import { describe, expect, test } from "bun:test";
import { candidatesOf, checkReading, countOf, pointOf, probeAttempt, sceneOf, scopeAttempt, valueAttempt } from "./page-answers.ts";

const between = { transient: "the page was navigating" };

describe("the page API's answers as the contract's shapes", () => {
  test("a navigation in flight is a retried `attached` failure, an empty count, no candidates, a reading that does not hold, an unloaded scene", () => {
    expect(valueAttempt(between)).toEqual({ ok: false, failed: "attached", detail: "the page was navigating", retryable: true });
    expect(probeAttempt(between)).toMatchObject({ ok: false, failed: "attached", retryable: true });
    expect(scopeAttempt(between, () => undefined)).toMatchObject({ ok: false, failed: "attached", retryable: true });
    expect([countOf(between), candidatesOf(between), pointOf(between)]).toEqual([0, [], undefined]);
    expect(checkReading(between)).toEqual({ pass: false, actual: "the page was navigating" });
    expect(sceneOf(between)).toEqual({ url: "", title: "", text: "", entries: [], omitted: 0, loaded: false });
  });

  test("which failures a wait can still change: ambiguity and unsupported targets are final", () => {
    expect(valueAttempt({ ok: false, failed: "ambiguous", detail: "2 match" })).toMatchObject({ failed: "ambiguous", retryable: false });
    expect(valueAttempt({ ok: false, failed: "not-found", detail: "" })).toMatchObject({ retryable: true });
    expect(probeAttempt({ ok: false, failed: "editable", detail: "read-only" })).toMatchObject({ failed: "editable", retryable: false });
    expect(probeAttempt({ ok: false, failed: "visible", detail: "hidden" })).toMatchObject({ failed: "visible", retryable: true });
    expect(scopeAttempt({ ok: false, failed: "enabled", detail: "disabled" }, () => undefined)).toMatchObject({ retryable: true });
    expect(scopeAttempt({ ok: false, failed: "unsupported", detail: "no value" }, () => undefined)).toMatchObject({ retryable: false });
  });

  test("success carries the value and the tier that resolved it; a dialog the action opened answers first", () => {
    expect(valueAttempt({ ok: true, value: "Saved", tier: "role" })).toEqual({ ok: true, value: "Saved", tier: "role" });
    expect(scopeAttempt({ ok: true, value: "", tier: "label" }, () => undefined)).toEqual({ ok: true, value: undefined, tier: "label" });
    const dialog = { ok: false, failed: "dialog", detail: "an alert opened", retryable: false } as const;
    expect(scopeAttempt({ ok: true, value: "", tier: "label" }, () => dialog as never)).toBe(dialog as never);
    expect(countOf(3)).toBe(3);
  });
});
