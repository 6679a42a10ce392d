import { describe, expect, test } from "bun:test";
import { groundActions, rangeChallenge, tokenTarget, type GroundContext } from "./ground.ts";
import type { ModelAction } from "./protocol.ts";

const ctx: GroundContext = {
  intent: "Fill the form",
  stepTimeoutMs: 5000,
  round: 0,
  captures: ["order_id"],
  scene: {
    url: "http://x/",
    title: "T",
    text: "",
    omitted: 0,
    loaded: true,
    entries: [
      { target: "css:#name", tag: "input", actionable: true },
      { target: "css:#kind", tag: "select", actionable: true, options: ["Car", "Van"] },
      { target: "css:#go", tag: "button", actionable: true },
      { target: "css:#total", tag: "span", actionable: false, text: "42" },
      { target: 'scoped:css:div.row containing "Order" > css:.val', tag: "span", actionable: false },
      { target: 'framed:"Payment" > css:#card', tag: "input", actionable: true },
    ],
  },
};

describe("tokenTarget", () => {
  test.each([
    ["css:#a", { kind: "element", anchor: { kind: "css", selector: "#a" } }],
    ["id:save", { kind: "element", anchor: { kind: "id", id: "save" } }],
    [
      'scoped:css:li.item containing "Invoice 1" > css:.amount',
      { kind: "scoped", container: { kind: "css", selector: "li.item" }, anchors: ["Invoice 1"], inner: { kind: "css", selector: ".amount" } },
    ],
    ['framed:"Pay" > css:#c', { kind: "framed", frame: { kind: "text", text: "Pay" }, inner: { kind: "css", selector: "#c" } }],
  ])("%s", (token, target) => {
    expect(tokenTarget(token)).toEqual(target as never);
  });
});

describe("groundActions", () => {
  test("compiles a whole sequence to the trace steps the rules grammar writes, marked llm", () => {
    const actions: ModelAction[] = [
      { action: "type_text", target: "css:#name", text: "${USER}" },
      { action: "select_option", target: "css:#kind", text: "van" },
      { action: "type_captured", target: 'framed:"Payment" > css:#card', capture: "order_id" },
      { action: "capture_text", target: 'scoped:css:div.row containing "Order" > css:.val', name: "order_no" },
      { action: "click", target: "css:#go" },
      { action: "press_key", key: "Enter" },
      { action: "assert_text", target: "surface", expected: "Done" },
    ];
    const g = groundActions(actions, ctx);
    if (!g.ok) throw new Error(JSON.stringify(g));
    expect(g.steps.map((s) => s.action)).toEqual([
      { type: "type_text", params: { text: "${USER}" } },
      { type: "type_text", params: { text: "Van", select: true } },
      { type: "type_text", params: { text: "${captured.order_id}" } },
      { type: "capture", params: { name: "order_no" } },
      { type: "click", params: {} },
      { type: "press_key", params: { key: "Enter", modifiers: [] } },
      { type: "assert", params: { kind: "element_state", expect: { scope: "surface", value_contains: "Done", timeout_ms: 10000 }, selector_ref: null } },
    ]);
    expect(g.steps.every((s) => s.selectors.every((r) => r.provenance === "llm"))).toBe(true);
    expect(g.steps[2]!.selectors[0]!.payload).toEqual({ kind: "framed", frame_text: "Payment", inner_css: "#card" });
    expect(g.captured).toEqual(["order_no"]);
  });
  test.each<[ModelAction[], number, string]>([
    [
      [
        { action: "click", target: "css:#go" },
        { action: "click", target: "css:#nope" },
      ],
      1,
      "is not in the scene list",
    ],
    [[{ action: "click", target: "css:#total" }], 0, "readable only"],
    [[{ action: "select_option", target: "css:#kind", text: "Bus" }], 0, 'its options are "Car", "Van"'],
    [[{ action: "type_text", target: "css:#name", text: "${captured.order_id}" }], 0, "use type_captured"],
    [[{ action: "type_captured", target: "css:#name", capture: "nothing" }], 0, "no capture named"],
    [[{ action: "rule_step", step: "Type hello" }], 0, "without naming its field"],
    [[{ action: "step_continues" }, { action: "click", target: "css:#go" }], 0, "must be the last action"],
    [[{ action: "step_complete" }], 0, "only valid after step_continues"],
    [[{ action: "capture_text", target: "css:#total", name: "order id" }], 0, "is not a name"],
  ])("rejects the whole sequence at the failing action: %o", (actions, index, reason) => {
    const g = groundActions(actions, ctx);
    expect(g).toMatchObject({ ok: false, kind: "rejected", index, total: actions.length });
    expect(g.ok === false && g.kind === "rejected" && g.reason).toContain(reason);
  });
  test("capture_ambiguity becomes an ambiguity, and step_continues marks the step as continuing", () => {
    expect(groundActions([{ action: "capture_ambiguity", reference: "it", candidates: ["a", "b"] }], ctx)).toEqual({
      ok: false,
      kind: "ambiguity",
      reference: "it",
      candidates: ["a", "b"],
    });
    const g = groundActions([{ action: "click", target: "css:#go" }, { action: "step_continues" }], ctx);
    expect(g.ok && g.continues).toBe(true);
    expect(groundActions([{ action: "step_complete" }], { ...ctx, round: 1 })).toMatchObject({ ok: true, steps: [], continues: false });
  });
  test("a rule_step uses the exact rules grammar", () => {
    const g = groundActions([{ action: "rule_step", step: 'Check the "css:#name" checkbox' }], ctx);
    expect(g.ok && g.steps[0]!.action).toEqual({ type: "set_checked", params: { checked: true } });
  });
});

describe("rangeChallenge", () => {
  const scene = {
    ...ctx.scene,
    entries: [...ctx.scene.entries, { target: "css:#age", tag: "input", actionable: true, rule: "Enter an age between 18 and 99" }],
  };
  test("finds a typed number outside the field's stated range", () => {
    expect(
      rangeChallenge(
        [
          { action: "click", target: "css:#go" },
          { action: "type_text", target: "css:#age", text: "12" },
        ],
        scene,
      ),
    ).toEqual({ index: 1, target: "css:#age", value: "12", rule: "Enter an age between 18 and 99" });
  });
  test("accepts values inside the range, non-numbers and fields without a rule", () => {
    expect(rangeChallenge([{ action: "type_text", target: "css:#age", text: "42" }], scene)).toBeUndefined();
    expect(rangeChallenge([{ action: "type_text", target: "css:#age", text: "${AGE}" }], scene)).toBeUndefined();
    expect(rangeChallenge([{ action: "type_text", target: "css:#name", text: "5" }], scene)).toBeUndefined();
  });
});
