import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { AssertParams, DialogParam, Expect, LaunchParams, PressKeyParams, ScrollParams, SetViewportParams, WaitParams } from "./action-params.ts";
import { MAX_TIMEOUT_MS } from "../diagnostics/bounds.ts";

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

describe("action params", () => {
  test("a launch is a URL, a reload or one history entry", () => {
    const valid = ajv.compile(LaunchParams);
    expect(valid({ url: "/login" })).toBe(true);
    expect(valid({ reload: true })).toBe(true);
    expect(valid({ history: "back" })).toBe(true);
    expect(valid({ history: "sideways" })).toBe(false);
    expect(valid({})).toBe(false);
  });

  test("a dialog is accepted or dismissed, and keeps unknown keys (additive within v1)", () => {
    const valid = ajv.compile(DialogParam);
    expect(valid({ disposition: "accept", message: "Sure?", extra: 1 })).toBe(true);
    expect(valid({ disposition: "ignore" })).toBe(false);
  });

  test("a viewport side lies between 1 and 10 000 px", () => {
    const valid = ajv.compile(SetViewportParams);
    expect(valid({ width: 1280, height: 800 })).toBe(true);
    expect(valid({ width: 0, height: 800 })).toBe(false);
    expect(valid({ width: 1280, height: 10_001 })).toBe(false);
  });

  test("a key's modifiers are the named ones", () => {
    const valid = ajv.compile(PressKeyParams);
    expect(valid({ key: "a", modifiers: ["mod", "shift"] })).toBe(true);
    expect(valid({ key: "a", modifiers: ["hyper"] })).toBe(false);
  });

  test("a scroll percentage stays within 0–100", () => {
    const valid = ajv.compile(ScrollParams);
    expect(valid({ to: "bottom" })).toBe(true);
    expect(valid({ to_pct: 50, axis: "x" })).toBe(true);
    expect(valid({ to_pct: 101 })).toBe(false);
  });
});

describe("Expect", () => {
  const valid = ajv.compile(Expect);

  test("needs its bound, at most one day", () => {
    expect(valid({ value_contains: "Saved", timeout_ms: 5000 })).toBe(true);
    expect(valid({ value_contains: "Saved" })).toBe(false);
    expect(valid({ value_contains: "Saved", timeout_ms: MAX_TIMEOUT_MS + 1 })).toBe(false);
  });

  test("a variant needs its companion key", () => {
    expect(valid({ value_equals: "42", normalize: "numeric", timeout_ms: 1000 })).toBe(true);
    expect(valid({ number_compare: "gt", number: 3, timeout_ms: 1000 })).toBe(true);
    expect(valid({ number_compare: "gt", timeout_ms: 1000 })).toBe(false);
  });
});

describe("AssertParams", () => {
  const valid = ajv.compile(AssertParams);

  test("an element_state assertion holds an expectation and a selector ref (null for the page)", () => {
    expect(valid({ kind: "element_state", expect: { element_present: true, timeout_ms: 1000 }, selector_ref: 0 })).toBe(true);
    expect(valid({ kind: "element_state", expect: { url_contains: "/done", scope: "surface", timeout_ms: 1000 }, selector_ref: null })).toBe(true);
  });

  test("a structured step's key starts with assert_", () => {
    expect(valid({ kind: "structured", key: "assert_api", args: { url: "/x" } })).toBe(true);
    expect(valid({ kind: "structured", key: "check_api", args: {} })).toBe(false);
  });

  test("a secret-leak assertion names variables", () => {
    expect(valid({ kind: "no_secret_leak", vars: ["PASSWORD"] })).toBe(true);
  });

  test("a wait is an element_state expectation too", () => {
    expect(ajv.compile(WaitParams)({ kind: "element_state", expect: { value_contains: "Hi", scope: "surface", timeout_ms: 60_000 }, selector_ref: null })).toBe(
      true,
    );
  });
});
