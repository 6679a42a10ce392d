// The built-in web adapter: Chromium over the DevTools Protocol. One browser per run, one
// isolated browser context (a WebDriver) per flow.
import { AdapterUnavailableError, defineAdapter, type AdapterSession, type AppDriver, type LaunchContext } from "../../src/plugins/api.ts";
import { Connection } from "./cdp/connection.ts";
import { WebDriver } from "./driver.ts";
import { findBrowser, launchBrowser, INSTALL_HINT, type LaunchedBrowser } from "./launch.ts";

class WebSession implements AdapterSession {
  #browser: LaunchedBrowser | undefined;
  #connection: Connection | undefined;
  #starting: Promise<Connection> | undefined;

  async #connect(): Promise<Connection> {
    if (this.#connection && !this.#connection.closed) return this.#connection;
    this.#starting ??= (async () => {
      const found = findBrowser();
      if (!found.path) throw new AdapterUnavailableError(`no Chromium-family browser found (looked at ${found.tried.join("; ")})`, INSTALL_HINT);
      try {
        this.#browser = await launchBrowser(found.path, { headed: process.env["FLOWPROOF_HEADED"] !== undefined });
      } catch (error) {
        throw new AdapterUnavailableError(`could not start ${found.path}: ${(error as Error).message}`, INSTALL_HINT, { cause: error });
      }
      this.#connection = await Connection.connect(this.#browser.wsUrl);
      return this.#connection;
    })();
    try {
      return await this.#starting;
    } finally {
      this.#starting = undefined;
    }
  }

  async launch(_config: Readonly<Record<string, unknown>>, ctx: LaunchContext): Promise<AppDriver> {
    return WebDriver.open(await this.#connect(), ctx.log);
  }

  async close(): Promise<void> {
    await this.#connection?.close().catch(() => undefined);
    await this.#browser?.close();
    this.#connection = undefined;
    this.#browser = undefined;
  }
}

export const plugin = defineAdapter({
  kind: "web",
  capabilities: ["pointer", "keyboard", "navigation", "select", "dialogs", "cookies", "screenshot"],
  open: async () => new WebSession(),
});
