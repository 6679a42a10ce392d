import { describe, expect, test } from "bun:test";
import { FakeSap } from "./fake-engine.ts";
import { launchSapDriver } from "./launch.ts";

describe("launchSapDriver", () => {
  test("logs on through the engine and hands back a driver on the new session", async () => {
    const sap = new FakeSap({ users: { CLERK: "pw-canary" } });
    const driver = await launchSapDriver(sap, { connection: "TS3", login: { user: "clerk", password: "pw-canary" } }, { log: () => undefined });
    expect((await driver.check([], { kind: "text_contains", text: "Welcome CLERK" })).pass).toBe(true);
    expect(driver.capabilities.has("screenshot")).toBe(false);
  });

  test("a bad config is refused before SAP GUI is touched", async () => {
    const sap = new FakeSap({ notRunning: true });
    await expect(launchSapDriver(sap, { connection: 1 }, { log: () => undefined })).rejects.toThrow("`connection` must be a string");
  });

  test("SAP GUI not running is a sap-error", async () => {
    const sap = new FakeSap({ notRunning: true });
    await expect(launchSapDriver(sap, {}, { log: () => undefined })).rejects.toMatchObject({ code: "sap-error" });
  });
});
