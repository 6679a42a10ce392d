import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../../test/support/engine.ts";
import { scroll, scrollRequest } from "./scroll.ts";
import type { ActionOf } from "../../trace/schema.ts";
import { poll } from "../poll.ts";
import { systemClock } from "../context.ts";

/** The page logs scroll positions from its scroll events, which arrive with the next frame. */
const pageShows = async (text: string) =>
  (
    await poll(systemClock, 2_000, async () => {
      const r = await h.driver.check([], { kind: "text_contains", text });
      return r.pass ? { done: true, value: r } : { done: false, retryable: true, last: r };
    })
  ).ok;

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("scrollRequest", () => {
  test.each<[ActionOf<"scroll">["params"], unknown]>([
    [{ to: "top" }, { to: "top" }],
    [{ to: "bottom" }, { to: "bottom" }],
    [{ into_view: true }, { into_view: true }],
    [{ to_px: 147 }, { to_px: 147 }],
  ])("reads %j", (params, expected) => {
    expect(scrollRequest(params)).toEqual(expected as never);
  });
});

describe("scroll", () => {
  test("scrolls a container to an exact offset and to its edges, and the page", async () => {
    const ctx = await h.context("scroll.html");
    expect((await scroll(traceStep('Scroll the "css:#list" to 147px'), ctx)).status).toBe("passed");
    expect(await pageShows("list at 147")).toBe(true);
    expect((await scroll(traceStep('Scroll the "css:#list" to the bottom'), ctx)).status).toBe("passed");
    expect(await pageShows("list at 480")).toBe(true);
    expect((await scroll(traceStep("Scroll to the bottom"), ctx)).status).toBe("passed");
    expect((await scroll(traceStep("Scroll to the top"), ctx)).status).toBe("passed");
    expect(await pageShows("page at 0")).toBe(true);
  });

  test("fails at once when the container stops short of the offset", async () => {
    const ctx = await h.context("scroll.html");
    const r = await scroll(traceStep('Scroll the "css:#list" to 9000px', { stepTimeoutMs: 5_000 }), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("short of 9000 px");
  });

  test("fails when the content fits and there is nothing to scroll", async () => {
    const ctx = await h.context("scroll.html");
    const r = await scroll(traceStep('Scroll the "css:#short" to 10px'), ctx);
    expect(r.detail).toContain("its content fits");
  });
});
