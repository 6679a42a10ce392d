import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseAction } from "./action.ts";
import type { ActionStep } from "./ast.ts";

const slice = (text: string) => ({ text, offset: 0 });
const text = (t: string) => ({ kind: "text", text: t }) as const;
const el = (t: string) => ({ kind: "element", anchor: text(t) }) as const;

describe("parseAction pointer verbs", () => {
  test.each<[string, ActionStep]>([
    ['Click "Templates"', { kind: "click", target: el("Templates"), button: "left", clickCount: 1 }],
    ['click the 2nd "Templates"', { kind: "click", target: { ...el("Templates"), nth: 2 }, button: "left", clickCount: 1 }],
    ['Click "Look at this"', { kind: "click", target: el("Look at this"), button: "left", clickCount: 1 }],
    ['Click "Save" at 75%,50%', { kind: "click", target: el("Save"), button: "left", clickCount: 1, at: { xPct: 75, yPct: 50 } }],
    ['Click the 2nd "Save" at 10%, 90%', { kind: "click", target: { ...el("Save"), nth: 2 }, button: "left", clickCount: 1, at: { xPct: 10, yPct: 90 } }],
    ['Click "Save" at 50.5%,0%', { kind: "click", target: el("Save"), button: "left", clickCount: 1, at: { xPct: 50.5, yPct: 0 } }],
    ['Right-click "Accounts"', { kind: "click", target: el("Accounts"), button: "right", clickCount: 1 }],
    ['Right click the 2nd "Row actions"', { kind: "click", target: { ...el("Row actions"), nth: 2 }, button: "right", clickCount: 1 }],
    ['Double-click "Accounts"', { kind: "click", target: el("Accounts"), button: "left", clickCount: 2 }],
    ['Double click the 2nd "Row actions"', { kind: "click", target: { ...el("Row actions"), nth: 2 }, button: "left", clickCount: 2 }],
    ['Click on "Active"', { kind: "click", target: el("Active"), button: "left", clickCount: 1 }],
    ['Double-click on "Buy milk"', { kind: "click", target: el("Buy milk"), button: "left", clickCount: 2 }],
    ['Right-click on the 2nd "Row actions"', { kind: "click", target: { ...el("Row actions"), nth: 2 }, button: "right", clickCount: 1 }],
    ['Click "on"', { kind: "click", target: el("on"), button: "left", clickCount: 1 }],
    ['Press the "Save" button', { kind: "click", target: { ...el("Save"), role: "button" }, button: "left", clickCount: 1 }],
    [
      "Press the submitButton button",
      { kind: "click", target: { kind: "element", anchor: { kind: "id", id: "submitButton", bare: true }, role: "button" }, button: "left", clickCount: 1 },
    ],
    [
      'Press the "Edit" button in the item containing "John" and "Doe"',
      {
        kind: "click",
        target: { kind: "scoped", container: { kind: "item" }, anchors: ["John", "Doe"], inner: text("Edit"), role: "button" },
        button: "left",
        clickCount: 1,
      },
    ],
    [
      'Click "Delete", accepting the "Are you sure?" dialog',
      { kind: "click", target: el("Delete"), button: "left", clickCount: 1, dialog: { disposition: "accept", message: "Are you sure?" } },
    ],
    [
      'Press the "Rename" button, answering the prompt with "New name"',
      {
        kind: "click",
        target: { ...el("Rename"), role: "button" },
        button: "left",
        clickCount: 1,
        dialog: { disposition: "accept", reply: { raw: "New name", parts: [{ kind: "literal", text: "New name" }] } },
      },
    ],
    [
      'Right-click the "Pay" in the item containing "Invoice 4711", dismissing the dialog',
      {
        kind: "click",
        target: { kind: "scoped", container: { kind: "item" }, anchors: ["Invoice 4711"], inner: text("Pay") },
        button: "right",
        clickCount: 1,
        dialog: { disposition: "dismiss" },
      },
    ],
    ['Hover over "Accounts"', { kind: "hover", target: el("Accounts") }],
    ['Hover over the 2nd "Row actions", accepting the dialog', { kind: "hover", target: { ...el("Row actions"), nth: 2 }, dialog: { disposition: "accept" } }],
    [
      'Drag the "css:#src" onto the "css:#dst"',
      {
        kind: "drag",
        source: { kind: "element", anchor: { kind: "css", selector: "#src" } },
        onto: { kind: "element", anchor: { kind: "css", selector: "#dst" } },
      },
    ],
    [
      'Drag "Heading block" onto the "css:#canvas" at 30%,40%',
      { kind: "drag", source: el("Heading block"), onto: { kind: "element", anchor: { kind: "css", selector: "#canvas" } }, at: { xPct: 30, yPct: 40 } },
    ],
    ['Drag "Card" onto the "Board" at 0%, 100%', { kind: "drag", source: el("Card"), onto: el("Board"), at: { xPct: 0, yPct: 100 } }],
    ['Drag "Card" onto the 2nd "Board" AT 12.5%,50%', { kind: "drag", source: el("Card"), onto: { ...el("Board"), nth: 2 }, at: { xPct: 12.5, yPct: 50 } }],
    ["Press Enter", { kind: "press_key", key: "Enter", modifiers: [] }],
    ["Press Control+V", { kind: "press_key", key: "v", modifiers: ["ctrl"] }],
    ["PRESS CtrlOrMeta+Shift+P", { kind: "press_key", key: "p", modifiers: ["mod", "shift"] }],
  ])("reads %s", (input, step) => {
    expect(parseAction(slice(input), at("web"))).toEqual({ ok: true, value: step });
  });

  test.each<[string, string, ActionStep]>([
    ["calc", "Press plus", { kind: "press_key", key: "plus", modifiers: [] }],
    ["calc", "Press equals", { kind: "press_key", key: "equals", modifiers: [] }],
    ["windows", "Press f12", { kind: "press_key", key: "F12", modifiers: [] }],
    ["windows", "Press Alt+F4", { kind: "press_key", key: "F4", modifiers: ["alt"] }],
    [
      "calc",
      'Press the "id:percentButton" button',
      { kind: "click", target: { kind: "element", anchor: { kind: "id", id: "percentButton" }, role: "button" }, button: "left", clickCount: 1 },
    ],
    ["vision", 'Press the "Submit" button', { kind: "click", target: { ...el("Submit"), role: "button" }, button: "left", clickCount: 1 }],
  ])("reads on %s: %s", (app, input, step) => {
    expect(parseAction(slice(input), at(app))).toEqual({ ok: true, value: step });
  });

  test.each<[string, string, string, string]>([
    ["web", 'Click "Save" at 120%,50%', "unknown-step", "between 0% and 100%"],
    ["web", 'Click "Save" at 50,50', "unknown-step", "two percentages"],
    ["web", 'Right-click "Save" at 5%,5%', "unknown-step", "Unexpected text"],
    ["web", "Click Accounts", "unknown-step", '`Click "Accounts"`'],
    ["web", "Click on Accounts", "unknown-step", '`Click "Accounts"`'],
    ["web", "Click", "unknown-step", "quoted target"],
    ["web", "Double-click Accounts", "unknown-step", '`Double-click "Accounts"`'],
    ["web", 'Hover "Accounts"', "unknown-step", '`Hover over "Accounts"`'],
    ["web", "Hover over Accounts", "unknown-step", '`Hover over "Accounts"`'],
    ["web", 'Drag "A" to "B"', "unknown-step", "onto"],
    ["web", 'Drag "A" onto B', "unknown-step", "quoted target"],
    ["web", 'Drag "A" onto "B" at 130%,40%', "unknown-step", "A drop point must lie between 0% and 100% of the drop target's box"],
    [
      "web",
      'Drag "A" onto "B" at 30,40',
      "unknown-step",
      'A drop point is two percentages of the drop target\'s box. write `Drag "Card" onto "Board" at 30%,40%`',
    ],
    ["web", 'Drag "A" onto "B" quickly', "unknown-step", "Unexpected text after the drop target"],
    ["web", 'Press the "Save"', "unknown-step", '`Press the "Save" button`'],
    ["web", "Press the Enter key", "unknown-step", "`Press Enter`"],
    ["web", "Press", "unknown-step", "`Press Enter`"],
    [
      "web",
      'rules: Click "Save"',
      "unknown-step",
      "the quotes make `rules:` part of the step's text, not its key. quote only what follows the key: `- rules: 'Click \"Save\"'`",
    ],
    [
      "web",
      'assert: the "css:#out" shows it\'s done',
      "unknown-step",
      "the quotes make `assert:` part of the step's text, not its key. quote only what follows the key: `- assert: 'the \"css:#out\" shows it''s done'`",
    ],
    ["web", 'Click the "Pay" in the iframe "checkout"', "refused-step", "isTrusted"],
    ["web", 'Press the "Pay" button in the iframe "checkout"', "refused-step", "isTrusted"],
    ["web", 'Drag "A" onto the "B" in the iframe "f"', "refused-step", "isTrusted"],
    ["windows", 'Right-click "css:#file"', "unsupported-step", "id:<AutomationId>"],
    ["notepad", 'Double-click "css:#file"', "unsupported-step", "id:<AutomationId>"],
    ["calc", 'Hover over "File"', "unsupported-step", "cannot be done on the Windows calculator: a desktop window has no page"],
    ["windows", 'Click "css:#save"', "unsupported-step", "id:<AutomationId>"],
    ["web", "Fill in the form", "unknown-step", '`Type Ada into the "Name" field`'],
    ["web", "Jump around", "unknown-step", "start with a verb"],
    ["web", 'Blur the "Email" field', "refused-step", "`Press Tab`"],
  ])("rejects on %s: %s", (app, input, code, words) => {
    const r = parseAction(slice(input), at(app));
    if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
  });

  test("points a windows refusal at the verb", () => {
    const r = parseAction(slice('Hover over "File"'), at("windows"));
    expect(r.ok ? [] : [r.error.offset, r.error.length]).toEqual([0, 5]);
  });
});
