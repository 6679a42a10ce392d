// Runs the AppDriver conformance suite against the web adapter in real Chromium: the form cases
// every UI driver runs (on test/fixtures/pages/fixture-form.html) and the web page cases. Covers
// the driver, the injected page API and the CDP connection end to end; and the item conformance
// suite (menus, tabs, trees, tables) against the same names as the desktop fixture.
import { afterAll, beforeAll } from "bun:test";
import { requireChromium } from "../../test/support/chromium.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { runDriverConformance } from "../../test/conformance/driver.ts";
import { runItemConformance } from "../../test/conformance/items.ts";
import { plugin } from "./index.ts";

requireChromium();

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

/** A fresh browser session showing `page`, and how to close it. */
async function showing(page: string) {
  const session = await plugin.open();
  const driver = await session.launch({}, { baseDir: process.cwd(), log: () => undefined });
  const r = await driver.navigate(`${server.url}/${page}`, 10_000);
  if (!r.ok) throw new Error(`${page} did not open: ${r.detail}`);
  return {
    driver,
    close: async () => {
      await driver.close();
      await session.close();
    },
  };
}

runDriverConformance({
  name: "web",
  launch: () => showing("fixture-form.html"),
  ids: { name: "name", greeting: "greeting" },
  pages: () => plugin.open(),
  expectations: {
    "unread-passwords": "the web driver reads a password input's value like any field's (`Remember` can capture it); the desktop drivers refuse",
  },
});

runItemConformance({ name: "web", open: () => showing("items.html") });
