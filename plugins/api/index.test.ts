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

  test("every UI action, read and check answers with the same reason, the shared no-UI driver's", async () => {
    const driver = createApiDriver();
    const reason = { ok: false, failed: "unsupported", detail: "an `app: api` flow has no UI to drive", retryable: false } as const;
    expect(await driver.fill([], "x")).toEqual(reason);
    expect(await driver.typeFocused("x")).toEqual(reason);
    expect(await driver.pressKey("Enter", [])).toEqual(reason);
    expect(await driver.select([], ["a"])).toEqual(reason);
    expect(await driver.setChecked([], true)).toEqual(reason);
    expect(await driver.hover([])).toEqual(reason);
    expect(await driver.reload(1)).toEqual(reason);
    expect(await driver.readText([])).toEqual(reason);
    expect(await driver.count([])).toBe(0);
    expect(await driver.check([], { kind: "title", op: "equals", value: "x" })).toEqual({ pass: false, actual: reason.detail, retryable: false });
    expect(await driver.environment()).toEqual({ os: process.platform, resolution: [0, 0] });
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
