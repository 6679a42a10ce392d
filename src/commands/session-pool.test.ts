import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { SessionPool } from "./session-pool.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";

let server: TestServer;
beforeAll(async () => { requireChromium(); server = await startServer(); });
afterAll(() => server.stop());

describe("SessionPool", () => {
  test("gives each flow its own isolated context from one shared browser", async () => {
    const pool = new SessionPool();
    try {
      const a = await pool.open("web", "/tmp/a.flow.yaml", () => undefined);
      const b = await pool.open("web", "/tmp/b.flow.yaml", () => undefined);
      await a.driver.navigate(`${server.url}/cookies.html`, 10_000);
      await b.driver.navigate(`${server.url}/greeter.html`, 10_000);
      expect((await a.driver.check([], { kind: "title", op: "equals", value: "Greeter" })).pass).toBe(false);
      expect((await b.driver.check([], { kind: "title", op: "equals", value: "Greeter" })).pass).toBe(true);
      // Closing a flow's surface leaves the shared browser running for the next flow.
      await a.driver.close();
      await a.session.close();
      const c = await pool.open("web", "/tmp/c.flow.yaml", () => undefined);
      expect((await c.driver.navigate(`${server.url}/greeter.html`, 10_000)).ok).toBe(true);
    } finally {
      await pool.close();
    }
  });
  test("an unknown app kind is a SpecError naming the available ones", async () => {
    await expect(new SessionPool().open("nope", "/tmp/x.flow.yaml", () => undefined)).rejects.toBeInstanceOf(SpecError);
  });
});
