import { describe, expect, test } from "bun:test";
import { clarification } from "./clarification.ts";

describe("clarification", () => {
  test("lists the scene tokens and leaves absent fields out", () => {
    const c = clarification({
      step: "Enter it in ${FIELD}",
      stepIndex: 3,
      reason: "ambiguous",
      hint: "name it",
      completed: ["a", "b"],
      scene: {
        url: "",
        title: "",
        text: "",
        omitted: 0,
        loaded: true,
        entries: [{ target: "css:#x", tag: "input", actionable: true, label: "X", value: "secretish" }],
      },
      capture_reference: "it",
      capture_candidates: ["a", "b"],
    });
    expect(c).toEqual({
      step: "Enter it in ${FIELD}",
      step_index: 3,
      stage: "model",
      reason: "ambiguous",
      capture_reference: "it",
      capture_candidates: ["a", "b"],
      completed_steps: ["a", "b"],
      scene: [{ target: "css:#x", tag: "input", label: "X" }],
      hint: "name it",
    });
  });
});
