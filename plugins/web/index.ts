// The built-in web adapter: Chromium over the DevTools Protocol. One browser per run, one
// isolated browser context (a WebDriver) per flow; a flow with `browser.args` gets a private
// browser, and one with `browser.endpoint` a context in a running browser we never stop.
import { AdapterUnavailableError, defineAdapter, type AdapterSession, type AppDriver, type LaunchContext } from "../../src/plugins/api.ts";
import { BrowserGoneError, Connection } from "./cdp/connection.ts";
import { CAPABILITIES, WebDriver } from "./driver.ts";
import { endpointWebSocketUrl, findBrowser, launchBrowser, INSTALL_HINT, type LaunchedBrowser } from "./launch.ts";
import { browserSource, parseWebConfig } from "./config.ts";
import { WEB_KEYS } from "./flow-keys.ts";

const ENDPOINT_HINT = "start that browser with --remote-debugging-port=<port> (and --remote-allow-origins=* for older versions), or fix `browser.endpoint:` in the flow";

async function startBrowser(headed: boolean, extraArgs: readonly string[] = []): Promise<LaunchedBrowser> {
  const found = findBrowser(process.env, { headless: !headed });
  if (!found.path) throw new AdapterUnavailableError(`no Chromium-family browser found (looked at ${found.tried.join("; ")})`, INSTALL_HINT, { code: "no-browser" });
  try {
    return await launchBrowser(found.path, { headed, extraArgs });
  } catch (error) {
    throw new AdapterUnavailableError(`could not start ${found.path}: ${(error as Error).message}`, INSTALL_HINT, { cause: error, code: "no-browser" });
  }
}

/** Connects to a browser we started; a lost connection is explained by how its process ended. */
async function connectTo(browser: LaunchedBrowser): Promise<Connection> {
  try {
    const connection = await Connection.connect(browser.wsUrl);
    connection.explainLoss(() => new Promise((resolve) => browser.onExit(resolve)));
    return connection;
  } catch (error) {
    await browser.close();
    throw error;
  }
}

class WebSession implements AdapterSession {
  #browser: LaunchedBrowser | undefined;
  #connection: Connection | undefined;
  #starting: Promise<Connection> | undefined;

  /** The run's shared browser, started on first use (headed when the flow that starts it asks). */
  async #connect(headed: boolean): Promise<Connection> {
    if (this.#connection && !this.#connection.closed) return this.#connection;
    this.#starting ??= (async () => {
      // A browser that died (killed, crashed) is replaced by a fresh one for the next flow.
      const browser = await startBrowser(headed);
      this.#browser = browser;
      this.#connection = await connectTo(browser);
      return this.#connection;
    })();
    try {
      return await this.#starting;
    } finally {
      this.#starting = undefined;
    }
  }

  async launch(rawConfig: Readonly<Record<string, unknown>>, ctx: LaunchContext): Promise<AppDriver> {
    const config = parseWebConfig(rawConfig);
    const source = browserSource(config);
    switch (source.kind) {
      case "shared":
        try {
          return await WebDriver.open(await this.#connect(config.headed === true), ctx.log, config, undefined, ctx.paths);
        } catch (error) {
          // The shared browser died before this flow began: the flow starts on a fresh one.
          if (!(error instanceof BrowserGoneError)) throw error;
          return WebDriver.open(await this.#connect(config.headed === true), ctx.log, config, undefined, ctx.paths);
        }
      case "private": {
        // Chromium flags apply to a whole browser process: this flow gets its own.
        const browser = await startBrowser(config.headed === true, source.args);
        try {
          const connection = await connectTo(browser);
          return await WebDriver.open(connection, ctx.log, config, async () => {
            await connection.close().catch(() => undefined);
            await browser.close();
          }, ctx.paths);
        } catch (error) {
          await browser.close();
          throw error;
        }
      }
      case "endpoint": {
        let connection: Connection;
        try {
          connection = await Connection.connect(await endpointWebSocketUrl(source.url));
        } catch (error) {
          throw new AdapterUnavailableError(`could not connect to the browser at ${source.url}: ${(error as Error).message}`, ENDPOINT_HINT, { cause: error, code: "browser-error" });
        }
        // Someone else's browser: closing the flow disposes its context and our socket, never the process.
        try {
          return await WebDriver.open(connection, ctx.log, config, () => connection.close().catch(() => undefined), ctx.paths);
        } catch (error) {
          await connection.close().catch(() => undefined);
          throw error;
        }
      }
    }
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
  title: "web flows",
  capabilities: [...CAPABILITIES],
  keys: WEB_KEYS,
  leakCorpus: true,
  open: async () => new WebSession(),
});
