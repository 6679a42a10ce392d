import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { TraceError } from "../diagnostics/diagnostic.ts";
import { anchorTextOf, cssOf, nativeIdOf, payloadOf, scopedPayloadOf, Selector, selectorProblem, toSelector } from "./selector.ts";

const rung = (tier: string, payload: unknown) => ({ tier, provenance: "rules", payload });

describe("Selector", () => {
  test.each([
    ["native_id css", rung("native_id", { css: "#total" })],
    ["native_id id", rung("native_id", { id: "email", nth: 2 })],
    ["native_id automation_id (Windows recorder)", { ...rung("native_id", { automation_id: "111", name: "Greet" }), provenance: "recorder" }],
    ["text_anchor", rung("text_anchor", { text: "Email", role: "field" })],
    [
      "text_anchor (vision recorder)",
      rung("text_anchor", {
        text: "Payee",
        box: { x: 1, y: 2, width: 3, height: 4 },
        window: { width: 700, height: 480 },
        field_box: { x: 5, y: 6, width: 7, height: 8 },
      }),
    ],
    ["structural cell", rung("structural", { kind: "cell", column_text: "Status", row_anchor: "John", row_anchor_also: ["Doe"] })],
    ["structural scoped", rung("structural", { kind: "scoped", container: "css:.card", container_anchor: "Order 8801", inner_css: ".amount" })],
    ["structural framed", rung("structural", { kind: "framed", frame_text: "checkout", inner_text: "Pay", role: "button" })],
    ["structural control (desktop recorder)", { ...rung("structural", { control_type: "button", name: "Greet" }), confidence: 0.7 }],
    ["a payload with a key a newer writer adds", rung("text_anchor", { text: "Save", future_key: [1, 2] })],
    ["a plugin's visual_template", rung("visual_template", { template: "sha256:…", score: 0.9 })],
    ["a project plugin's own native rung", { ...rung("native_id", { screen_row: 3, field: "qty" }), provenance: "recorder" }],
    ["a project plugin's own structural rung", { ...rung("structural", { kind: "menu-path", path: ["File", "Open"] }), provenance: "recorder" }],
  ])("accepts %s", (_, value) => {
    expect(Value.Check(Selector, value)).toBe(true);
    expect(selectorProblem(value, "selector 1")).toBeUndefined();
  });

  test.each([
    [
      "a text_anchor whose text is a number",
      rung("text_anchor", { text: 5 }),
      "selector 1 (text_anchor) has text 5 (number), not a string; a text_anchor payload is {text, box?, window?, field_box?}",
    ],
    [
      "a text_anchor without text",
      rung("text_anchor", { css: "#x" }),
      'selector 1 (text_anchor) payload {"css":"#x"} is none of its shapes; a text_anchor payload is {text, box?, window?, field_box?}',
    ],
    [
      "a cell without its column",
      rung("structural", { kind: "cell", row_anchor: "John" }),
      'selector 1 (structural) payload {"kind":"cell","row_anchor":"John"} is none of its shapes',
    ],
    [
      "an unknown tier",
      rung("pixel", { x: 1 }),
      'selector 1 has tier "pixel"; expected "native_id", "structural", "text_anchor", "visual_template", "ai_relocation"',
    ],
    ["a zeroth ordinal", rung("text_anchor", { text: "Save", nth: 0 }), "selector 1 (text_anchor) has nth 0; expected a 1-based whole number"],
    ["no payload", { tier: "native_id", provenance: "rules" }, "selector 1 (native_id) has no payload"],
    [
      "a plugin's rung that claims a built-in key with another shape",
      rung("native_id", { id: 7, field: "qty" }),
      "selector 1 (native_id) has id 7 (number), not a string",
    ],
    [
      "a plugin's structural rung that claims a built-in kind",
      rung("structural", { kind: "scoped", path: ["File"] }),
      'selector 1 (structural) payload {"kind":"scoped","path":["File"]} is none of its shapes',
    ],
  ])("refuses %s, naming the key and the tier's shapes", (_, value, message) => {
    expect(Value.Check(Selector, value)).toBe(false);
    expect(selectorProblem(value, "selector 1")).toContain(message);
  });
});

describe("narrowing helpers", () => {
  const css = toSelector(rung("native_id", { css: "#total" }));
  const id = toSelector(rung("native_id", { automation_id: "111" }));
  const text = toSelector(rung("text_anchor", { text: "Save", nth: 2 }));
  const scoped = toSelector(rung("structural", { kind: "scoped", container: "item", container_anchor: "Invoice", inner_text: "Pay" }));
  const control = toSelector(rung("structural", { control_type: "edit" }));

  test("payloadOf answers the payload of its tier only", () => {
    expect(payloadOf(text, "text_anchor")?.text).toBe("Save");
    expect(payloadOf(text, "native_id")).toBeUndefined();
    expect(payloadOf(undefined, "structural")).toBeUndefined();
  });

  test("read what a rung names without casts", () => {
    expect([cssOf(css), cssOf(text)]).toEqual(["#total", undefined]);
    expect([nativeIdOf(id), nativeIdOf(css)]).toEqual(["111", undefined]);
    expect([anchorTextOf(text), anchorTextOf(scoped), anchorTextOf(control)]).toEqual(["Save", "Pay", undefined]);
    expect([scopedPayloadOf(scoped)?.kind, scopedPayloadOf(control)]).toEqual(["scoped", undefined]);
  });

  test("a project plugin's own rung reads as none of the built-in shapes", () => {
    const own = toSelector({ tier: "structural", provenance: "recorder", payload: { kind: "menu-path", path: ["File", "Open"] } });
    const ownId = toSelector({ tier: "native_id", provenance: "recorder", payload: { screen_row: 3 } });
    expect([scopedPayloadOf(own), anchorTextOf(own), nativeIdOf(ownId), cssOf(ownId)]).toEqual([undefined, undefined, undefined, undefined]);
  });

  test("toSelector refuses a malformed rung with a bad-trace error", () => {
    expect(() => toSelector(rung("text_anchor", { text: ["Save"] }))).toThrow(TraceError);
    expect(() => toSelector(rung("text_anchor", { text: ["Save"] }))).toThrow('the rung (text_anchor) has text ["Save"] (a list), not a string');
  });
});
