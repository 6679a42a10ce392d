import { expect, test } from "bun:test";
import { clip, matchRung, textOf } from "./match.ts";
import type { WinElement } from "./backend.ts";

const el = (ref: string, name: string, controlType: WinElement["controlType"], extra: Partial<WinElement> = {}): WinElement => ({
  ref, name, controlType, automationId: "", rect: { x: 0, y: 0, width: 1, height: 1 }, enabled: true, visible: true, focused: false, password: false, ...extra,
});
const rung = (tier: "native_id" | "structural" | "text_anchor", payload: Record<string, unknown>) => ({ tier, provenance: "rules", payload });

test("a label names the control after it for a field, and not past the next label", () => {
  const tree = [el("1", "Name:", "text"), el("2", "", "edit"), el("3", "Note:", "text"), el("4", "Email:", "text"), el("5", "", "edit")];
  expect(matchRung(tree, rung("text_anchor", { text: "Name", role: "field" }), "editable").map((e) => e.ref)).toEqual(["2"]);
  expect(matchRung(tree, rung("text_anchor", { text: "Note" }), "editable")).toEqual([]);
  expect(matchRung(tree, rung("text_anchor", { text: "name" }), "any").map((e) => e.ref)).toEqual(["1"]);
});

test("AutomationId (id or automation_id) and control type with name", () => {
  const tree = [el("1", "&Save", "button", { automationId: "1001" }), el("2", "", "edit", { automationId: "15" })];
  expect(matchRung(tree, rung("native_id", { automation_id: "1001" }), "any").map((e) => e.ref)).toEqual(["1"]);
  expect(matchRung(tree, rung("native_id", { id: "15" }), "any").map((e) => e.ref)).toEqual(["2"]);
  expect(matchRung(tree, rung("structural", { control_type: "button", name: "Save" }), "any").map((e) => e.ref)).toEqual(["1"]);
});

test("a control's text is a field's value, else its label; long text is clipped", () => {
  expect(textOf(el("1", "", "edit", { value: "typed" }))).toBe("typed");
  expect(textOf(el("2", "&Greet", "button"))).toBe("Greet");
  expect(clip("x".repeat(300)).length).toBe(201);
});
