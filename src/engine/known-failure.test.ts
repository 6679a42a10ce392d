import { describe, expect, test } from "bun:test";
import type { TraceStep } from "../trace/schema.ts";
import type { StepResult } from "./loop.ts";
import { appDown, checkOf, failureDifference, recordedFailure } from "./known-failure.ts";

const assertStep = (expectation: Record<string, unknown>, selectors: TraceStep["selectors"] = []): TraceStep => ({
  id: "s0002",
  intent: "page shows Total 90.00",
  action: {
    type: "assert",
    params: {
      kind: "element_state",
      expect: { timeout_ms: 2000, ...(selectors.length === 0 ? { scope: "surface" } : {}), ...expectation },
      selector_ref: selectors.length === 0 ? null : 0,
    },
  } as TraceStep["action"],
  selectors,
  sync: { pre: [], post: [] },
  artifacts: {},
});
const TOTAL = assertStep({ value_contains: "Total 90.00" });
const FIELD = assertStep({ value_contains: "90.00" }, [{ tier: "native_id", provenance: "rules", payload: { css: "#total" } }]);
const CLICK: TraceStep = {
  id: "s0002",
  intent: 'Click "Pay"',
  action: { type: "click", params: {} },
  selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Pay" } }],
  sync: { pre: [], post: [] },
  artifacts: {},
};
const GO: TraceStep = {
  id: "s0002",
  intent: "Go to /pay",
  action: { type: "launch", params: { url: "/pay" } },
  selectors: [],
  sync: { pre: [], post: [] },
  artifacts: {},
};

const result = (extra: Partial<StepResult>): StepResult => ({ id: "s0002", intent: "x", status: "failed", started_ms: 0, duration_ms: 0, ...extra });
const shows = (text: string, tier?: string) =>
  result({ detail: `expected the page to show "Total 90.00" within 2000 ms; the page shows ${text}`, actual: text, ...(tier ? { selector_tier: tier } : {}) });

describe("checkOf", () => {
  test("names the action, and for an assertion what it expects", () => {
    expect(checkOf(TOTAL)).toBe("assert value_contains");
    expect(checkOf(assertStep({ attribute: "href", value_equals: "/x" }))).toBe("assert attribute+value_equals");
    expect(checkOf(CLICK)).toBe("click");
  });
});

describe("recordedFailure", () => {
  test("records the reason, the step, the message, the check, the target's rung and the reading", () => {
    expect(recordedFailure("BUG-2", FIELD, shows("Total 100.00", "native_id"))).toEqual({
      fail: "BUG-2",
      step: "s0002",
      failure: 'expected the page to show "Total 90.00" within 2000 ms; the page shows Total 100.00',
      check: "assert value_contains",
      target: "native_id",
      actual: "Total 100.00",
    });
    // An action has no reading: its message is its signature.
    expect(recordedFailure("BUG-3", CLICK, result({ detail: 'no element matches "Pay"' }))).toEqual({
      fail: "BUG-3",
      step: "s0002",
      failure: 'no element matches "Pay"',
      check: "click",
    });
  });
});

describe("failureDifference", () => {
  const known = recordedFailure("BUG-2: total wrong", TOTAL, shows("Greet Total 100.00"));

  test("the same reading (white space aside) is the same failure", () => {
    expect(failureDifference(known, TOTAL, shows("Greet  Total 100.00\n"))).toBeUndefined();
  });

  test("another reading, another target, another check or another step is not", () => {
    expect(failureDifference(known, TOTAL, shows("Maintenance: everything is down"))).toBe("the app shows something else");
    const onField = recordedFailure("BUG-2", FIELD, shows("Total 100.00", "native_id"));
    expect(failureDifference(onField, FIELD, shows("Total 100.00"))).toBe("its target resolved to nothing, by its native_id rung at record");
    expect(failureDifference(known, assertStep({ value_exactly: "Total 90.00" }), shows("Greet Total 100.00"))).toBe(
      "the check is `assert value_exactly` now, `assert value_contains` at record",
    );
    expect(failureDifference(known, TOTAL, { ...shows("Greet Total 100.00"), id: "s0003" })).toBe("step s0003 failed, where step s0002 did at record");
    expect(failureDifference(known, TOTAL, { ...shows("Greet Total 100.00"), status: "errored" })).toBe("the step errored");
  });

  test("an action compares its message, durations aside", () => {
    const clickKnown = recordedFailure("BUG-3", CLICK, result({ detail: 'the "Pay" button stayed disabled for 5000 ms' }));
    expect(failureDifference(clickKnown, CLICK, result({ detail: 'the "Pay" button  stayed disabled for 5012 ms' }))).toBeUndefined();
    expect(failureDifference(clickKnown, CLICK, result({ detail: 'no element matches "Pay"' }))).toBe("it fails with another message");
  });

  test("an app that is down is never the known failure", () => {
    expect(appDown(GO, result({ detail: "could not open http://127.0.0.1:9/pay: net::ERR_CONNECTION_REFUSED" }))).toBe(true);
    expect(
      appDown(
        TOTAL,
        result({ detail: "http://127.0.0.1:3000/ answered HTTP 503 Service Unavailable: the app under test is running but could not serve the page" }),
      ),
    ).toBe(true);
    expect(appDown(TOTAL, shows("Greet Total 100.00"))).toBe(false);
    const goKnown = { fail: "BUG-4", step: "s0002", failure: "could not open http://127.0.0.1:9/pay: net::ERR_CONNECTION_REFUSED" };
    expect(failureDifference(goKnown, GO, result({ detail: goKnown.failure }))).toBe("the app is down, which is never a known failure");
  });

  test("a known failure recorded before readings were recorded compares its message", () => {
    const older = { fail: "BUG-2", step: "s0002", failure: 'expected the page to show "Total 90.00" within 2000 ms; the page shows Greet Total 100.00' };
    expect(failureDifference(older, TOTAL, shows("Greet Total 100.00"))).toBeUndefined();
    expect(failureDifference(older, TOTAL, shows("Maintenance: everything is down"))).toBe("it fails with another message");
  });
});
