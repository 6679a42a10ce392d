import { describe, expect, test } from "bun:test";
import { describeLadder, stepTimeoutMs } from "./shared.ts";
import { traceStep } from "../../../test/support/engine.ts";
import type { Selector } from "../../trace/schema.ts";

describe("describeLadder", () => {
  test.each<[Selector[], string]>([
    [[{ tier: "text_anchor", provenance: "rules", payload: { text: "Save", role: "button" } }], 'the "Save" button'],
    [[{ tier: "text_anchor", provenance: "rules", payload: { text: "Row", nth: 2 } }], 'the 2nd "Row"'],
    [[{ tier: "native_id", provenance: "rules", payload: { css: "#x" } }], 'the "css:#x"'],
    [[{ tier: "native_id", provenance: "rules", payload: { id: "y", nth: 11 } }], 'the 11th "id:y"'],
    // A desktop recording's ladder leads with the control's automation id; the flow's words come later.
    [
      [
        { tier: "native_id", provenance: "recorder", payload: { automation_id: "2001" } },
        { tier: "text_anchor", provenance: "rules", payload: { text: "Total", role: "field" } },
      ],
      'the "Total" field',
    ],
    [[{ tier: "native_id", provenance: "recorder", payload: { automation_id: "2001" } }], 'the control with id "2001"'],
    [[], "the page"],
  ])("names %j as %s", (ladder, expected) => {
    expect(describeLadder(ladder)).toBe(expected);
  });
});

describe("stepTimeoutMs", () => {
  test("reads the element-exists budget baked into the trace", () => {
    expect(stepTimeoutMs(traceStep('Click "Save"', { stepTimeoutMs: 1234 }))).toBe(1234);
    expect(stepTimeoutMs(traceStep("Press Enter"))).toBe(5000);
  });
});
