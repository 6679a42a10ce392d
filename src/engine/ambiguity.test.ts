import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../test/support/engine.ts";
import { redact, type ExecutionContext, type StructuredContext } from "./context.ts";
import { ambiguousLabel } from "./ambiguity.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

const inMode = (ctx: ExecutionContext, mode: "record" | "replay"): ExecutionContext => ({ ...ctx, structured: { mode } as StructuredContext });

describe("ambiguousLabel", () => {
  test("while recording, a plain label naming two elements lists them with the ordinal to write", async () => {
    const ctx = inMode(await h.context("duplicates.html"), "record");
    expect(redact((await ambiguousLabel(traceStep('Press the "Save" button'), ctx)) ?? "", ctx.secrets)).toBe(
      '2 elements match "Save": 1st <button#save-draft> "Save", 2nd <button#save-publish> "Save"; say which one with an ordinal, e.g. `the 2nd "Save" button`, or a scope, e.g. `the "Save" button in the item containing "…"`',
    );
  });

  test("an ordinal, a scope, a label naming one control twice, or a replay is not asked about", async () => {
    const ctx = await h.context("duplicates.html");
    const recording = inMode(ctx, "record");
    expect(await ambiguousLabel(traceStep('Press the 2nd "Save" button'), recording)).toBeUndefined();
    expect(await ambiguousLabel(traceStep('Press the "Save" button in the item containing "Draft notes"'), recording)).toBeUndefined();
    expect(await ambiguousLabel(traceStep('Type x into the "Email" field'), recording)).toBeUndefined();
    expect(await ambiguousLabel(traceStep('Click "Email"'), recording)).toBeUndefined();
    expect(await ambiguousLabel(traceStep('Press the "Save" button'), inMode(ctx, "replay"))).toBeUndefined();
    expect(await ambiguousLabel(traceStep('Press the "Save" button'), ctx)).toBeUndefined();
  });
});
