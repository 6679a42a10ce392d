import { describe, expect, test } from "bun:test";
import { createApiDriver, plugin } from "./index.ts";

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
