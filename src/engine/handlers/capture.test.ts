import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../../test/support/engine.ts";
import { capture } from "./capture.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("capture", () => {
  test("remembers an element's text under its name", async () => {
    const ctx = await h.context("counter.html");
    expect((await capture(traceStep('Remember the "id:count" as count'), ctx)).status).toBe("passed");
    expect(ctx.captures.get("count")).toBe("41");
  });
  test("remembers how many elements match, and refuses a count of zero", async () => {
    const ctx = await h.context("assertions.html");
    expect((await capture(traceStep('Remember how many "css:li.row" appear as rows'), ctx)).status).toBe("passed");
    expect(ctx.captures.get("rows")).toBe("3");
    const zero = await capture(traceStep('Remember how many "css:.gone" appear as gone', { stepTimeoutMs: 300 }), ctx);
    expect(zero.status).toBe("failed");
    expect(zero.detail).toBe(
      'the "css:.gone" never appeared within 300 ms, and a count of zero is not remembered; to check that none appear, assert `the "css:.gone" appears 0 times`',
    );
    expect(ctx.captures.has("gone")).toBe(false);
  });
});
