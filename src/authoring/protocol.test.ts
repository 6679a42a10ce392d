import { describe, expect, test } from "bun:test";
import { MAX_ACTIONS, correctionPrompt, parseReply, userPrompt, type ModelAction } from "./protocol.ts";

describe("parseReply", () => {
  test.each<[string, ModelAction[]]>([
    ['{"action":"click","target":"css:#a"}', [{ action: "click", target: "css:#a" }]],
    ['[{"action":"press_key","key":"Enter"}]', [{ action: "press_key", key: "Enter" }]],
    ['{"actions":[{"action":"step_continues"}]}', [{ action: "step_continues" }]],
    ['```json\n[{"action":"click","target_css":"#go"}]\n```', [{ action: "click", target: "css:#go" }]],
    ['{"action":"assert_text","body":true,"expected":"Saved"}', [{ action: "assert_text", target: "surface", expected: "Saved" }]],
    ['{"action":"select_options","target":"css:#t","values":["A","B"]}', [{ action: "select_options", target: "css:#t", values: ["A", "B"] }]],
  ])("reads %s", (text, actions) => {
    expect(parseReply(text)).toEqual({ ok: true, actions });
  });
  test("invalid JSON is its own kind (one retry)", () => {
    const r = parseReply("Sure, I will click it.");
    expect(r.ok === false && r.kind).toBe("json");
  });
  test("names the malformed action by index", () => {
    const r = parseReply('[{"action":"click","target":"css:#a"},{"action":"fly"}]');
    expect(r).toMatchObject({ ok: false, kind: "shape", index: 1 });
    expect(r.ok === false && r.reason).toContain('unknown action "fly"');
  });
  test("refuses more than the action cap", () => {
    const many = JSON.stringify(Array.from({ length: MAX_ACTIONS + 1 }, () => ({ action: "press_key", key: "Tab" })));
    expect(parseReply(many)).toMatchObject({ ok: false, kind: "shape" });
  });
});

describe("prompts", () => {
  test("the user prompt carries the step, capture names and the scene tokens", () => {
    const text = userPrompt({
      flowName: "F",
      app: "web",
      step: "Type ${NAME} into the name field",
      priorSteps: ["Open"],
      captures: ["order_id"],
      today: "2026-01-02",
      scene: {
        url: "http://x/",
        title: "T",
        text: "Hello",
        entries: [{ target: "css:#n", tag: "input", actionable: true, label: "Name" }],
        omitted: 3,
        loaded: true,
      },
    });
    expect(text.split("\n")[0]).toBe("STEP: Type ${NAME} into the name field");
    expect(text).toContain("Captures in scope (names only): order_id");
    expect(text).toContain('{"target":"css:#n","tag":"input","actionable":true,"label":"Name"}');
    expect(text).toContain("(3 more elements not listed)");
  });
  test("the correction names the failing action and how many before it were correct", () => {
    expect(correctionPrompt(2, 4, "bad target")).toBe(
      "Action 3 of 4 was rejected: bad target. The first 2 actions were correct and must be repeated unchanged. Answer with the corrected full array of actions (JSON only), using only targets from the SCENE list.",
    );
    expect(correctionPrompt(0, 1, "bad")).toContain("Answer with one corrected action object");
  });
});
