import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { RunReport, resultSchemaDocument } from "./schema.ts";

const GOOD = {
  name: "Checkout",
  trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
  passed: false,
  outcome: "failed",
  steps: [
    { id: "s0001", intent: 'Click "Save"', status: "passed", started_ms: 0, duration_ms: 12, selector_tier: "text_anchor" },
    { id: "s0002", intent: "page shows Saved", status: "failed", detail: "page did not show Saved", started_ms: 12, duration_ms: 10_000 },
  ],
  duration_ms: 10_012,
  started_at: "2025-01-02T03:04:05.678Z",
  flowproof_version: "0.1.0",
  spec_path: "checkout.flow.yaml",
  trace_path: "checkout.trace.jsonl",
};

describe("RunReport", () => {
  const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(RunReport);

  test("accepts a good report", () => {
    expect(validate(GOOD)).toBe(true);
  });

  test("accepts a report of a flow that could not run", () => {
    expect(validate({ ...GOOD, outcome: "errored", steps: [], error: "no Chromium found" })).toBe(true);
  });

  test.each([
    ["a bad step status", { ...GOOD, steps: [{ ...GOOD.steps[0], status: "flaky" }] }, "/steps/0/status"],
    ["a bad step id", { ...GOOD, steps: [{ ...GOOD.steps[0], id: "step1" }] }, "/steps/0/id"],
    ["a negative duration", { ...GOOD, duration_ms: -1 }, "/duration_ms"],
    ["a fractional step duration", { ...GOOD, steps: [{ ...GOOD.steps[0], duration_ms: 1.5 }] }, "/steps/0/duration_ms"],
    ["an unknown key", { ...GOOD, colour: "red" }, ""],
    ["an unknown outcome", { ...GOOD, outcome: "wobbly" }, "/outcome"],
    ["no outcome", (({ outcome: _, ...rest }) => rest)(GOOD), ""],
  ])("rejects %s", (_what, report, path) => {
    expect(validate(report)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toContain(path);
  });

  test("rejects a report without passed", () => {
    const { passed: _p, ...rest } = GOOD;
    expect(validate(rest)).toBe(false);
  });
});

describe("resultSchemaDocument", () => {
  test("is a draft-07 schema that validates the same reports as RunReport", () => {
    const doc = resultSchemaDocument();
    expect(doc["$schema"]).toBe("http://json-schema.org/draft-07/schema#");
    expect(doc["$id"]).toBe("https://flowproof.dev/schema/result.schema.json");
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(JSON.parse(JSON.stringify(doc)));
    expect(validate(GOOD)).toBe(true);
    expect(validate({ ...GOOD, steps: [{ ...GOOD.steps[0], status: "flaky" }] })).toBe(false);
  });
});
