import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseAssertion, parseStep, type StepAst } from "../grammar/index.ts";
import { DEFAULT_ASSERT_TIMEOUT_MS, DEFAULT_WAIT_TIMEOUT_MS, compileStep, selectorsFor } from "./compile.ts";
import { CHECKED_DOCS, docExamples } from "../../test/support/doc-examples.ts";

const OPTIONS = { stepTimeoutMs: 4_321 };

function step(text: string): StepAst {
  const r = parseStep(text, at("web"));
  if (!r.ok) throw new Error(`${text}: ${r.error.message}`);
  return r.value;
}

function assertion(text: string): StepAst {
  const r = parseAssertion(text, at("web"));
  if (!r.ok) throw new Error(`${text}: ${r.error.message}`);
  return { kind: "assert", assertion: r.value };
}

function compiled(ast: StepAst, intent = "intent") {
  const r = compileStep(intent, ast, OPTIONS);
  if (!r.ok) throw new Error(`expected it to compile: ${r.reason}`);
  expect(r.steps).toHaveLength(1);
  return r.steps[0]!;
}

const text = (t: string, extra: Record<string, unknown> = {}) => [{ tier: "text_anchor", provenance: "rules", payload: { text: t, ...extra } }];
const native = (payload: Record<string, unknown>) => [{ tier: "native_id", provenance: "rules", payload }];

describe("compileStep", () => {
  test.each<[string, string, Record<string, unknown>, unknown[]]>([
    ['Click "Save"', "click", {}, text("Save")],
    ['Right-click "X"', "right_click", {}, text("X")],
    ['Double-click "X"', "double_click", {}, text("X")],
    ['Click "Save" at 75%,50%', "click", { x_pct: 75, y_pct: 50 }, text("Save")],
    ['Press the "Save" button', "click", {}, text("Save", { role: "button" })],
    ['Hover over "Menu"', "hover", {}, text("Menu")],
    ['Type Ada into the "Name" field', "type_text", { text: "Ada" }, text("Name", { role: "field" })],
    ['Type ${USER_NAME} into the "Name" field', "type_text", { text: "${USER_NAME}" }, text("Name", { role: "field" })],
    ['Clear the "Search" field', "type_text", { text: "", replace: true }, text("Search", { role: "field" })],
    ['Replace the "Search" field with Berlin', "type_text", { text: "Berlin", replace: true }, text("Search", { role: "field" })],
    ['Select A from the "R" dropdown', "type_text", { text: "A", select: true }, text("R", { role: "dropdown" })],
    [
      'Select "Functional testing", "GUI testing" and "End2End testing" from the "Methods" field',
      "type_text",
      { text: "Functional testing", select: true, values: ["Functional testing", "GUI testing", "End2End testing"] },
      text("Methods", { role: "field" }),
    ],
    ['Check the "Remember me" checkbox', "set_checked", { checked: true }, text("Remember me", { role: "checkbox" })],
    ['Uncheck the "Remember me" checkbox', "set_checked", { checked: false }, text("Remember me", { role: "checkbox" })],
    ['Remember the "Total" as total', "capture", { name: "total" }, text("Total")],
    ['Remember how many "css:.row" appear as n', "capture", { name: "n", count: true }, native({ css: ".row" })],
    ['Click "id:save-btn"', "click", {}, native({ id: "save-btn" })],
    ["Type Ada into the name field", "type_text", { text: "Ada" }, native({ id: "name", role: "field" })],
    ['Click the 2nd "Save"', "click", {}, text("Save", { nth: 2 })],
    ['Click the 1st "Save"', "click", {}, text("Save", { nth: 1 })],
    ['Type Ada into "Name"', "type_text", { text: "Ada" }, text("Name", { role: "field" })],
    ['Clear "Search"', "type_text", { text: "", replace: true }, text("Search", { role: "field" })],
    ['Check "Remember me"', "set_checked", { checked: true }, text("Remember me", { role: "checkbox" })],
    ['Type Ada into "css:#name"', "type_text", { text: "Ada" }, native({ css: "#name" })],
    ['Click "Close"', "click", {}, text("Close")],
    ['Click the 3rd "css:.btn"', "click", {}, native({ css: ".btn", nth: 3 })],
  ])("compiles %s to a %s with its selector ladder", (input, type, params, selectors) => {
    const s = compiled(step(input), input);
    expect(s).toEqual({
      intent: input,
      action: { type: type as never, params },
      selectors: selectors as never,
      sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: OPTIONS.stepTimeoutMs }], post: [] },
      artifacts: {},
    });
  });

  test.each<[string, string, Record<string, unknown>]>([
    ["Type Berlin", "type_text", { text: "Berlin" }],
    ["Press Control+V", "press_key", { key: "v", modifiers: ["ctrl"] }],
    ["Press Enter", "press_key", { key: "Enter", modifiers: [] }],
    ["Press Mod+K", "press_key", { key: "k", modifiers: ["mod"] }],
    ["Go to /settings", "launch", { url: "/settings" }],
    ["Reload the page", "launch", { reload: true }],
    [
      "Wait until page shows Saved within 30s",
      "wait",
      { kind: "element_state", expect: { scope: "surface", value_contains: "Saved", timeout_ms: 30_000 }, selector_ref: null },
    ],
    [
      "Wait until page shows Saved",
      "wait",
      { kind: "element_state", expect: { scope: "surface", value_contains: "Saved", timeout_ms: DEFAULT_WAIT_TIMEOUT_MS }, selector_ref: null },
    ],
  ])("compiles the page-level step %s with no selectors and no sync", (input, type, params) => {
    expect(compiled(step(input))).toEqual({
      intent: "intent",
      action: { type: type as never, params },
      selectors: [],
      sync: { pre: [], post: [] },
      artifacts: {},
    });
  });

  test("waits 60 s by default for Wait until page shows", () => {
    expect(DEFAULT_WAIT_TIMEOUT_MS).toBe(60_000);
  });

  test.each<[string, Record<string, unknown>]>([
    ["page shows Welcome", { scope: "surface", value_contains: "Welcome" }],
    ["page shows Row 3 times", { scope: "surface", value_contains: "Row", count: 3 }],
    ["page does not show Error", { scope: "surface", value_not_contains: "Error" }],
    ["page url is /signin", { scope: "surface", url_equals: "/signin" }],
    ["page url contains /orders", { scope: "surface", url_contains: "/orders" }],
    ["page title is Acme", { scope: "surface", title_equals: "Acme" }],
    ["page title contains Acme", { scope: "surface", title_contains: "Acme" }],
    ['local storage "todos" contains Walk the dog', { scope: "surface", storage: "local", storage_key: "todos", storage_contains: "Walk the dog" }],
  ])("compiles the page assertion %s to its expect keys", (input, expectKeys) => {
    expect(compiled(assertion(input))).toEqual({
      intent: "intent",
      action: {
        type: "assert",
        params: { kind: "element_state", expect: { ...expectKeys, timeout_ms: DEFAULT_ASSERT_TIMEOUT_MS } as never, selector_ref: null },
      },
      selectors: [],
      sync: { pre: [], post: [] },
      artifacts: {},
    });
  });

  test.each<[string, Record<string, unknown>, unknown[]]>([
    ['the "Total" shows 42', { value_contains: "42" }, text("Total")],
    ['the "Total" shows ${captured.total}', { value_contains: "${captured.total}" }, text("Total")],
    ['the "css:#status" does not show Error', { value_not_contains: "Error" }, native({ css: "#status" })],
    ['the "Name" field contains Ada', { value_contains: "Ada" }, text("Name", { role: "field" })],
    ['the "Total" shows ${captured.rows} + 1', { capture: "rows", offset: 1 }, text("Total")],
    ['the "Total" shows ${captured.balance} - 100.5', { capture: "balance", offset: -100.5 }, text("Total")],
    ['the "css:#modal" is visible', { element_present: true }, native({ css: "#modal" })],
    ['the "css:#modal" is not visible', { element_present: false }, native({ css: "#modal" })],
    ['the "Save" is enabled', { enabled: true }, text("Save")],
    ['the "Save" button is disabled', { enabled: false }, text("Save", { role: "button" })],
    ['the "Agree" checkbox is checked', { checked: true }, text("Agree", { role: "checkbox" })],
    ['the "Agree" checkbox is not checked', { checked: false }, text("Agree", { role: "checkbox" })],
    ['the "Graphics" is selected', { selected: true }, text("Graphics")],
    ['the "Audio" is not selected', { selected: false }, text("Audio")],
    ['the "Balance" is empty', { value_empty: true }, text("Balance")],
    ['the "Balance" is not empty', { value_empty: false }, text("Balance")],
    ['the "Row" appears 0 times', { element_count: 0 }, text("Row")],
  ])("compiles the element assertion %s to its expect keys", (input, expectKeys, selectors) => {
    expect(compiled(assertion(input))).toEqual({
      intent: "intent",
      action: { type: "assert", params: { kind: "element_state", expect: { ...expectKeys, timeout_ms: DEFAULT_ASSERT_TIMEOUT_MS } as never, selector_ref: 0 } },
      selectors: selectors as never,
      // No element-exists precondition: it would contradict `is not visible` / `appears 0 times`.
      sync: { pre: [], post: [] },
      artifacts: {},
    });
  });

  test("defaults an assertion's bound to 10 s", () => {
    expect(DEFAULT_ASSERT_TIMEOUT_MS).toBe(10_000);
  });

  test.each([
    ["page shows Welcome within 2s", 2_000],
    ['the "Row" appears 1 time within 2s', 2_000],
    ["page url is /x within 1.5s", 1_500],
  ])("takes the bound of %s from its within clause", (input, timeoutMs) => {
    const params = compiled(assertion(input)).action.params as { expect: { timeout_ms: number } };
    expect(params.expect.timeout_ms).toBe(timeoutMs);
  });

  test("compiles Drag to drag {onto: <the drop target's full ladder>} with the source as the step's ladder", () => {
    const c = compiled(step('Drag the "css:#src" onto the 2nd "Bin"'));
    expect(c.action).toEqual({ type: "drag", params: { onto: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Bin", nth: 2 } }] } });
    expect(c.selectors).toEqual([{ tier: "native_id", provenance: "rules", payload: { css: "#src" } }]);
  });

  test.each<[string, StepAst, Record<string, unknown>]>([
    ["Upload", step('Upload "data/logo.png" into the "Avatar" field'), { path: "data/logo.png" }],
    ["a download wait", step("Wait until the download completes as report"), { name: "report", timeout_ms: 60_000 }],
    ["a bounded download wait", step("Wait until the download completes as report within 5s"), { name: "report", timeout_ms: 5_000 }],
  ])("compiles %s", (_what, ast, params) => {
    expect(compiled(ast).action.params).toEqual(params);
  });

  test.each<[string, StepAst, Record<string, unknown>]>([
    [
      "an accepting click",
      step('Click "Delete", accepting the "Are you sure?" dialog'),
      { disposition: "accept", message: "Are you sure?", match: "contains" },
    ],
    ["a dismissing hover", step('Hover over "Menu", dismissing the dialog'), { disposition: "dismiss", match: "contains" }],
    [
      "a prompt answer (reference kept raw)",
      step('Press the "Rename" button, answering the prompt with "${NAME}"'),
      { disposition: "accept", match: "contains", reply: "${NAME}" },
    ],
  ])("writes the dialog param of %s", (_what, ast, dialog) => {
    expect((compiled(ast).action.params as { dialog?: unknown }).dialog).toEqual(dialog);
  });

  test.each<[string, Record<string, unknown>]>([
    ['cookie "sid" is httpOnly', { scope: "surface", cookie: "sid", cookie_fact: "http_only", timeout_ms: 10_000 }],
    ['the "Docs" attribute href is /docs', { attribute: "href", value_equals: "/docs", timeout_ms: 10_000 }],
    ['the "Docs" attribute href is not /x', { attribute: "href", value_equals: "/x", negate: true, timeout_ms: 10_000 }],
    ['the "Export" has attribute download', { attribute: "download", present: true, timeout_ms: 10_000 }],
    ['the "Export" does not have attribute download', { attribute: "download", present: false, timeout_ms: 10_000 }],
    ['the "Amount" style color is not green', { style: "color", value_equals: "green", negate: true, timeout_ms: 10_000 }],
  ])("compiles the assertion %s", (text, expectKeys) => {
    expect((compiled(assertion(text)).action.params as { expect: unknown }).expect).toEqual(expectKeys);
  });

  test.each<[string, StepAst, Record<string, unknown>]>([
    ["the page to the bottom", step("Scroll to the bottom"), { to: "bottom" }],
    ["a container to the top", step('Scroll the "css:#list" to the top'), { to: "top" }],
    ["an element into view", step('Scroll "css:#last" into view'), { into_view: true }],
    ["a container to an offset", step('Scroll the "css:#list" to 120px'), { to_px: 120 }],
  ])("compiles Scroll of %s", (_what, ast, params) => {
    const c = compiled(ast);
    expect(c.action).toEqual({ type: "scroll", params } as never);
    expect(c.selectors.length).toBe(ast.kind === "scroll" && ast.target ? 1 : 0);
  });

  test("compiles cell, container and iframe targets to one structural rung", () => {
    const cell = compiled(assertion('the "Email" column of the row containing "John" and "Doe" shows j@x'));
    expect(cell.selectors).toEqual([
      { tier: "structural", provenance: "rules", payload: { kind: "cell", column_text: "Email", row_anchor: "John", row_anchor_also: ["Doe"] } },
    ]);
    const item = compiled(step('Check the "Select" checkbox in the item containing "Invoice 4711"'));
    expect(item.selectors[0]?.payload).toEqual({ kind: "scoped", container: "item", container_anchor: "Invoice 4711", inner_text: "Select", role: "checkbox" });
    const framed = compiled(step('Type Ada into the "css:input" in the iframe "checkout"'));
    expect(framed.selectors[0]?.payload).toEqual({ kind: "framed", frame_text: "checkout", inner_css: "input" });
  });

  test("compiles the calculator's display as a numeric compare and Notepad's document with an edit fallback", () => {
    const sugar = (text: string, app: "calc" | "notepad") => {
      const r = parseAssertion(text, at(app));
      if (!r.ok) throw new Error(r.error.message);
      const c = compileStep("i", { kind: "assert", assertion: r.value }, OPTIONS);
      if (!c.ok) throw new Error(c.reason);
      return c.steps[0]!;
    };
    const display = sugar("display shows 8", "calc");
    expect(display.selectors).toEqual([{ tier: "native_id", provenance: "rules", payload: { id: "CalculatorResults" } }]);
    expect(display.action.params).toMatchObject({ kind: "element_state", expect: { value_equals: "8", normalize: "numeric" }, selector_ref: 0 });
    const doc = sugar("document contains hello", "notepad");
    expect(doc.selectors).toEqual([
      { tier: "native_id", provenance: "rules", payload: { id: "15" } },
      { tier: "structural", provenance: "rules", confidence: 0.7, payload: { control_type: "edit" } },
    ]);
    expect(doc.action.params).toMatchObject({ expect: { value_contains: "hello" } });
  });

  test("compiles the same AST to the same step every time", () => {
    const ast = step('Click the 2nd "Save" at 10%, 90%');
    expect(compileStep("i", ast, OPTIONS)).toEqual(compileStep("i", ast, OPTIONS));
  });
});

describe("selectorsFor", () => {
  test("returns one structural rung for a cell target", () => {
    expect(selectorsFor({ kind: "cell", column: "A", rowAnchors: ["x"] })?.[0]?.tier).toBe("structural");
  });

  test("keeps a 1st ordinal: the author chose among several, so the label is not ambiguous", () => {
    expect(selectorsFor({ kind: "element", anchor: { kind: "text", text: "A" }, nth: 1 })).toEqual(text("A", { nth: 1 }) as never);
  });
  test("gives a plain text label the role its step implies, and keeps a written role", () => {
    expect(selectorsFor({ kind: "element", anchor: { kind: "text", text: "A" } }, "field")).toEqual(text("A", { role: "field" }) as never);
    expect(selectorsFor({ kind: "element", anchor: { kind: "text", text: "A" }, role: "dropdown" }, "field")).toEqual(text("A", { role: "dropdown" }) as never);
  });
});

describe("the docs' examples", () => {
  // A doc that says a form runs must not list one this compiler refuses (and the grammar test
  // checks what the docs say is refused).
  const runnable = CHECKED_DOCS.flatMap((doc) =>
    docExamples(doc)
      .filter(([k]) => k === "rules" || k === "assert")
      .map(([k, line]) => [doc, k, line] as const),
  );
  test.each(runnable)("%s: the %s example %s compiles for a web flow", (_doc, kind, line) => {
    const r = compileStep(line, kind === "rules" ? step(line) : assertion(line), OPTIONS);
    expect(r.ok ? "ok" : r.reason).toBe("ok");
  });
});
