// Each reported action becomes one step that the grammar reads back to the same ladder, or a step with a TODO.
import { describe, expect, test } from "bun:test";
import type { CodegenEvent, CodegenTarget, NamedTarget } from "../plugins/builtin.ts";
import { selectorsFor } from "../engine/compile.ts";
import type { RoleNoun, Target } from "../grammar/ast.ts";
import { appendStep, navigationStep, portableUrl, readsBack, secretVarName, stepFor, targetText, type CodegenStep, type StepContext } from "./codegen-steps.ts";

const ctx = (): StepContext => ({ origin: "http://127.0.0.1:3000", appUrlVar: "APP_URL", secrets: new Map() });
/** A target with the ladder the page would have resolved (what the compiler makes of it). */
const named = (target: CodegenTarget, implied?: RoleNoun): NamedTarget => ({
  target,
  ladder: (selectorsFor(target as Target, implied) ?? []).map((s) => ({ tier: s.tier, payload: s.payload })),
});
const text = (t: string, extra: Partial<CodegenTarget & { kind: "element" }> = {}): CodegenTarget => ({
  kind: "element",
  anchor: { kind: "text", text: t },
  ...extra,
});
const naming = (...targets: NamedTarget[]) => ({ targets, what: '<button> "Save"' });

describe("targetText", () => {
  test.each<[CodegenTarget, string]>([
    [text("Sign in"), '"Sign in"'],
    [text("Email", { role: "field" }), 'the "Email" field'],
    [text("Save", { nth: 2, role: "button" }), 'the 2nd "Save" button'],
    [{ kind: "element", anchor: { kind: "id", id: "status" } }, '"id:status"'],
    [{ kind: "element", anchor: { kind: "css", selector: "#main > p" }, role: "field" }, 'the "css:#main > p" field'],
    [
      { kind: "scoped", container: { kind: "item" }, anchors: ["Grace Hopper"], inner: { kind: "text", text: "Delete" }, role: "button" },
      'the "Delete" button in the item containing "Grace Hopper"',
    ],
    [{ kind: "cell", column: "Status", rowAnchors: ["Ada", "Admin"] }, 'the "Status" column of the row containing "Ada" and "Admin"'],
  ])("writes %j as %s", (target, expected) => {
    expect(targetText(target)).toBe(expected);
  });
});

describe("secretVarName", () => {
  test.each<[string, string[], string]>([
    ["Password", [], "PASSWORD"],
    ["Admin password", [], "ADMIN_PASSWORD"],
    ["PIN (4 digits)", [], "PIN_4_DIGITS"],
    ["Password", ["PASSWORD"], "PASSWORD_2"],
    ["2FA code", [], "_2FA_CODE"],
    ["***", [], "SECRET"],
  ])("names the %s field's variable (taken: %j) %s", (label, taken, expected) => {
    expect(secretVarName(label, new Set(taken))).toBe(expected);
  });
});

describe("portableUrl", () => {
  test.each([
    ["http://127.0.0.1:3000/orders?x=1", "${APP_URL}/orders?x=1"],
    ["http://127.0.0.1:3000/", "${APP_URL}"],
    ["http://127.0.0.1:30001/x", "http://127.0.0.1:30001/x"],
    ["https://example.com/", "https://example.com/"],
  ])("writes %s as %s", (url, expected) => {
    expect(portableUrl(url, ctx())).toBe(expected);
  });
});

describe("stepFor", () => {
  test.each<[string, CodegenEvent, Partial<CodegenStep>]>([
    [
      "a button click with the role noun",
      { kind: "click", naming: naming(named(text("Sign in", { role: "button" }))) },
      { key: "rules", text: 'Press the "Sign in" button' },
    ],
    ["a plain click", { kind: "click", naming: naming(named(text("Docs"))) }, { text: 'Click "Docs"' }],
    ["an ordinal click", { kind: "click", naming: naming(named(text("Save", { nth: 2, role: "button" }))) }, { text: 'Press the 2nd "Save" button' }],
    [
      "a scoped click",
      {
        kind: "click",
        naming: naming(
          named({ kind: "scoped", container: { kind: "item" }, anchors: ["Grace Hopper"], inner: { kind: "text", text: "Delete" }, role: "button" }),
        ),
      },
      { text: 'Press the "Delete" button in the item containing "Grace Hopper"' },
    ],
    [
      "a checkbox",
      { kind: "check", checked: false, naming: naming(named(text("Remember me", { role: "checkbox" }), "checkbox")) },
      { text: 'Uncheck the "Remember me" checkbox' },
    ],
    [
      "typing",
      { kind: "type", value: "ada@example.com", naming: naming(named(text("Email", { role: "field" }), "field")) },
      { text: 'Type ada@example.com into the "Email" field', field: 'the "Email" field' },
    ],
    [
      "typing with edge spaces",
      { kind: "type", value: " x ", naming: naming(named(text("Email", { role: "field" }), "field")) },
      { text: 'Type " x " into the "Email" field' },
    ],
    ["emptying a field", { kind: "type", value: "", naming: naming(named(text("Email", { role: "field" }), "field")) }, { text: 'Clear the "Email" field' }],
    [
      "a dropdown",
      { kind: "select", options: ["Admin"], naming: naming(named(text("Role", { role: "dropdown" }), "dropdown")) },
      { text: 'Select Admin from the "Role" dropdown' },
    ],
    ["a key", { kind: "key", key: "Enter" }, { text: "Press Enter" }],
    ["a scroll that loaded more", { kind: "scroll", to: "bottom" }, { text: "Scroll to the bottom" }],
    [
      "a pointed text",
      { kind: "assert_shows", text: "Saved", naming: naming(named({ kind: "element", anchor: { kind: "id", id: "status" } })) },
      { key: "assert", text: 'the "id:status" shows Saved' },
    ],
    ["a pointed element", { kind: "assert_visible", naming: naming(named(text("Welcome"))) }, { key: "assert", text: 'the "Welcome" is visible' }],
    ["selected text", { kind: "assert_page_shows", text: "Order placed" }, { key: "assert", text: "page shows Order placed" }],
    ["the URL", { kind: "assert_url", url: "http://127.0.0.1:3000/done" }, { key: "assert", text: "page url is ${APP_URL}/done" }],
  ])("writes %s", (_what, event, expected) => {
    const step = stepFor(event, ctx());
    expect(step).toMatchObject(expected);
    expect(step.todo).toBeUndefined();
  });

  test("writes a secret field's typing as ${VAR} named after its label, the same variable for the same field", () => {
    const c = ctx();
    const event: CodegenEvent = {
      kind: "type",
      secret: { label: "Admin password" },
      naming: naming(named(text("Admin password", { role: "field" }), "field")),
    };
    expect(stepFor(event, c).text).toBe('Type ${ADMIN_PASSWORD} into the "Admin password" field');
    expect(stepFor(event, c).text).toBe('Type ${ADMIN_PASSWORD} into the "Admin password" field');
    expect([...c.secrets]).toEqual([["Admin password", "ADMIN_PASSWORD"]]);
  });

  test("keeps a step whose words compile to another ladder than the page resolved, with a TODO saying so", () => {
    const wrong: NamedTarget = {
      target: text("Save", { role: "button" }),
      ladder: [{ tier: "text_anchor", payload: { text: "Save", nth: 2, role: "button" } }],
    };
    const step = stepFor({ kind: "click", naming: naming(wrong) }, ctx());
    expect(step.text).toBe('Press the "Save" button');
    expect(step.todo).toBe("check this step: its words name another element than the one acted on");
  });

  test("keeps an element no name singles out as a css placeholder with a TODO naming the element", () => {
    const step = stepFor({ kind: "click", naming: naming() }, ctx());
    expect(step.text).toBe('Click "css:…"');
    expect(step.todo).toContain('<button> "Save"');
  });

  test("flags typed text a step cannot carry", () => {
    const field = naming(named(text("Notes", { role: "field" }), "field"));
    expect(stepFor({ kind: "type", value: "a\nb", naming: field }, ctx()).todo).toContain("several lines");
    expect(stepFor({ kind: "type", value: "cost ${x}", naming: field }, ctx()).todo).toContain("variable reference");
  });
});

describe("navigationStep", () => {
  test("writes an address-bar navigation on the app as Go to ${APP_URL}/…, and a reload", () => {
    expect(navigationStep({ kind: "go_to", url: "http://127.0.0.1:3000/people" }, ctx())).toEqual({ key: "rules", text: "Go to ${APP_URL}/people" });
    expect(navigationStep({ kind: "reload" }, ctx())).toEqual({ key: "rules", text: "Reload the page" });
  });
});

describe("readsBack", () => {
  test("names what the grammar refuses", () => {
    expect(readsBack("rules", "Blur the field", undefined)).toBeString();
  });
});

describe("appendStep", () => {
  test("replaces typing into, or a pick in, the field the last step set, and appends the rest", () => {
    const steps: CodegenStep[] = [];
    expect(appendStep(steps, { key: "rules", text: 'Type a into the "Email" field', field: 'the "Email" field' })).toBe("added");
    expect(appendStep(steps, { key: "rules", text: 'Type ab into the "Email" field', field: 'the "Email" field' })).toBe("replaced");
    expect(appendStep(steps, { key: "rules", text: 'Select Editor from the "Role" dropdown', field: 'the "Role" dropdown' })).toBe("added");
    expect(appendStep(steps, { key: "rules", text: 'Select Admin from the "Role" dropdown', field: 'the "Role" dropdown' })).toBe("replaced");
    expect(appendStep(steps, { key: "rules", text: 'Press the "Save" button', field: 'the "Save" button' })).toBe("added");
    expect(appendStep(steps, { key: "rules", text: 'Press the "Save" button', field: 'the "Save" button' })).toBe("added");
    expect(steps.map((s) => s.text)).toEqual([
      'Type ab into the "Email" field',
      'Select Admin from the "Role" dropdown',
      'Press the "Save" button',
      'Press the "Save" button',
    ]);
  });
});
