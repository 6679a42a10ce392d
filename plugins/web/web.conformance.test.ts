// Runs the AppDriver conformance suite against the web adapter in real Chromium. Covers the
// driver, the injected page API and the CDP connection end to end; and the item conformance suite
// (menus, tabs, trees, tables) against the same names as the desktop fixture.
import { afterAll, beforeAll } from "bun:test";
import { requireChromium } from "../../test/support/chromium.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { runDriverConformance } from "../../test/conformance/driver.ts";
import { runItemConformance } from "../../test/conformance/items.ts";
import { plugin } from "./index.ts";

requireChromium();
runDriverConformance({ name: "web", open: () => plugin.open() });

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

runItemConformance({
  name: "web",
  open: async () => {
    const session = await plugin.open();
    const driver = await session.launch({}, { baseDir: process.cwd(), log: () => undefined });
    const r = await driver.navigate(`${server.url}/items.html`, 10_000);
    if (!r.ok) throw new Error(`items.html did not open: ${r.detail}`);
    return { driver, close: async () => { await driver.close(); await session.close(); } };
  },
});
