import { describe, expect, test } from "bun:test";
import { applyTranslation, firstPass } from "./outcome.ts";
import type { SourceStep } from "./segment.ts";

const step = (action: string, extra: Partial<SourceStep> = {}): SourceStep => ({ index: 1, action, where: "row 2", ...extra });

describe("firstPass", () => {
  test("a step and an expectation that parse are kept, nothing is left for the model", () => {
    const { draft, pending } = firstPass(step('Click "Save"', { expected: "page shows Saved" }), "web");
    expect(draft).toEqual({
      source: step('Click "Save"', { expected: "page shows Saved" }),
      outcome: "rules",
      rules: ['Click "Save"'],
      expected: { outcome: "assert", assert: "page shows Saved" },
    });
    expect(pending).toEqual({ action: false, expected: false });
  });

  test("prose is left for the model: an intent step and a TODO expectation until translated", () => {
    const { draft, pending } = firstPass(step("Open the login page", { expected: "The login form is displayed" }), "web");
    expect(draft.outcome).toBe("intent");
    expect(draft.intent).toBe("Open the login page");
    expect(draft.expected).toEqual({ outcome: "todo" });
    expect(pending).toEqual({ action: true, expected: true });
  });

  test("a form this app kind cannot run stays a plain step, with the grammar's advice", () => {
    expect(firstPass(step("Press F5"), "web").draft).toMatchObject({
      outcome: "intent",
      intent: "Press F5",
      note: expect.stringContaining("Write instead: write `Reload the page`"),
    });
  });

  test("a data cell travels with the action", () => {
    expect(firstPass(step("Enter the user name", { data: "ada" }), "web").draft.intent).toBe("Enter the user name (data: ada)");
  });

  test("a step on another app is a marker, its expectation a TODO", () => {
    const { draft, pending } = firstPass(step("Open Outlook and read the confirmation", { expected: "page shows Confirmed" }), "web");
    expect(draft).toMatchObject({ outcome: "another-app", anotherApp: "Outlook", expected: { outcome: "todo" } });
    expect(pending).toEqual({ action: false, expected: false });
  });

  test("an expectation in another app is marked as such", () => {
    expect(firstPass(step('Press the "Order" button', { expected: "An email is sent to the customer" }), "web").draft.expected).toEqual({
      outcome: "another-app",
      anotherApp: "a mail client",
    });
  });

  test("a form the grammar refuses on purpose is never a step, and never goes to the model", () => {
    const { draft, pending } = firstPass(step('Blur the "Email" field'), "web");
    expect(draft.outcome).toBe("refused");
    expect(draft.refusal?.hint).toContain("Press Tab");
    expect(pending).toEqual({ action: false, expected: false });
  });
});

describe("applyTranslation", () => {
  const { draft, pending } = firstPass(step("Open the login page", { expected: "The login form is displayed" }), "web");

  test("takes translated steps and assertion", () => {
    expect(applyTranslation(draft, pending, { rules: ["Go to /login"], assert: "page shows Sign in" })).toEqual({
      source: draft.source,
      outcome: "translated",
      rules: ["Go to /login"],
      expected: { outcome: "translated", assert: "page shows Sign in" },
    });
  });

  test("keeps the intent step when only the expectation was translated, with the model's note", () => {
    const r = applyTranslation(draft, pending, { assert: "page shows Sign in", note: "which page is meant?" });
    expect(r).toMatchObject({ outcome: "intent", intent: "Open the login page", note: "which page is meant?", expected: { outcome: "translated" } });
  });

  test("the model may say the step is on another app", () => {
    expect(applyTranslation(draft, pending, { anotherApp: "a phone" })).toEqual({
      source: draft.source,
      outcome: "another-app",
      anotherApp: "a phone",
      expected: { outcome: "todo" },
    });
  });
});
