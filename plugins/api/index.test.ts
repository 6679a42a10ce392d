import { describe, expect, test } from "bun:test";
import { API_EFFECT_KINDS, createApiDriver, plugin, SentRequests } from "./index.ts";

describe("the api app kind", () => {
  test("launches a driver with no UI: navigation is a no-op, every UI action is unsupported", async () => {
    const session = await plugin.open();
    const driver = await session.launch({}, { baseDir: ".", log: () => undefined });
    expect(driver.capabilities.size).toBe(0);
    expect(await driver.navigate("about:blank", 1)).toEqual({ ok: true, value: undefined });
    expect(await driver.click([], { button: "left", clickCount: 1 })).toMatchObject({ ok: false, failed: "unsupported", retryable: false });
    expect((await createApiDriver().check([], { kind: "text_contains", text: "x" })).pass).toBe(false);
    await session.close();
  });
});

describe("the api surface's effects", () => {
  test("observes requests only, through a watch its steps report to", async () => {
    expect(API_EFFECT_KINDS).toEqual(["request"]);
    const watch = await createApiDriver().observeEffect!([]);
    expect(watch?.kinds).toEqual(["request"]);
    expect(typeof watch?.sent).toBe("function");
  });

  test("keeps each write as method and normalised path, once; reads, bodies and queries never", async () => {
    const w = new SentRequests();
    expect(await w.read()).toEqual({ effect: {}, idleMs: Number.POSITIVE_INFINITY, final: true });
    w.sent("post", "http://127.0.0.1:9/api/orders?card=zq-canary-7731#x");
    w.sent("GET", "http://127.0.0.1:9/api/orders/4711");
    w.sent("POST", "http://127.0.0.1:9/api/orders");
    w.sent("DELETE", "http://127.0.0.1:9/api/orders/4711");
    const r = await w.read();
    expect(r.effect).toEqual({ requests: ["POST /api/orders", "DELETE /api/orders/:id"] });
    expect(r.final).toBe(true);
    expect(JSON.stringify(r)).not.toContain("canary");
  });

  test("a request reported after the watch stopped is not the step's", async () => {
    const w = new SentRequests();
    await w.stop();
    w.sent("POST", "http://127.0.0.1:9/api/orders");
    expect((await w.read()).effect).toEqual({});
  });
});
