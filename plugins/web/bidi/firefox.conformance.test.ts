// Runs the AppDriver conformance suite against the web adapter in real Firefox (WebDriver BiDi):
// the same form cases, web page cases and item cases as on Chromium (web.conformance.test.ts),
// with what Firefox lacks in flowproof declared as gaps, each with its reason. One Firefox serves
// the whole file; each case gets a user context of its own.
import { afterAll, beforeAll } from "bun:test";
import type { AdapterSession } from "../../../src/plugins/api.ts";
import { requireFirefox } from "../../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { runDriverConformance } from "../../../test/conformance/driver.ts";
import { runItemConformance } from "../../../test/conformance/items.ts";
import { plugin } from "../index.ts";

requireFirefox();

let server: TestServer;
let shared: AdapterSession;
beforeAll(async () => {
  server = await startServer();
  shared = await plugin.open();
});
afterAll(async () => {
  await shared?.close();
  server?.stop();
});

const inFirefox = (config: Readonly<Record<string, unknown>>) => ({
  ...config,
  browser: { ...((config["browser"] as object | undefined) ?? {}), name: "firefox" },
});

/** A page in the file's Firefox showing `page`, and how to close it. */
async function showing(page: string) {
  const driver = await shared.launch(inFirefox({}), { baseDir: process.cwd(), log: () => undefined });
  const r = await driver.navigate(`${server.url}/${page}`, 10_000);
  if (!r.ok) throw new Error(`${page} did not open: ${r.detail}`);
  return { driver, close: () => driver.close() };
}

/** The web page cases' session: the file's Firefox (closing it is left to the file). */
const firefoxPages = async (): Promise<AdapterSession> => ({
  launch: (config, ctx) => shared.launch(inFirefox(config), ctx),
  close: async () => undefined,
});

runDriverConformance({
  name: "web (Firefox)",
  launch: () => showing("fixture-form.html"),
  ids: { name: "name", greeting: "greeting" },
  pages: firefoxPages,
  expectations: {
    "unread-passwords": "the web driver reads a password input's value like any field's (`Remember` can capture it); the desktop drivers refuse",
  },
});

runItemConformance({ name: "web (Firefox)", open: () => showing("items.html") });
