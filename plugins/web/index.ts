// The built-in web adapter: Chromium over the DevTools Protocol. One browser per run, one
// isolated browser context (a WebDriver) per flow; a flow with `browser.args` gets a private
// browser, one with `browser.endpoint` a context in a running browser we never stop, and one on a
// Selenium Grid (`browser.grid`, FLOWPROOF_GRID_URL) a W3C session of its own (grid.ts).
import {
  AdapterUnavailableError,
  defineAdapter,
  RanOn,
  Type,
  type FlowproofError,
  type AdapterSession,
  type AppDriver,
  type LaunchContext,
} from "../../src/plugins/api.ts";
import { BrowserGoneError, Connection } from "./cdp/connection.ts";
import { CAPABILITIES, WebDriver } from "./driver.ts";
import { endpointWebSocketUrl, findBrowser, launchBrowser, INSTALL_HINT, type LaunchedBrowser } from "./launch.ts";
import { browserSource, parseWebConfig, type OpenOptions, type WebConfig } from "./config.ts";
import { openGridSession, parseGridUrl, queueTimeoutMs, sessionCapabilities, type GridSession } from "./grid.ts";
import { viewportOf } from "./page-setup.ts";
import { WEB_KEYS } from "./flow-keys.ts";
import { chooseBrowser } from "./browser-choice.ts";
import { FirefoxSession } from "./bidi/session.ts";
import { claimEarlyBrowser, dropEarlyBrowser, launchKey } from "./prestart.ts";
/** `flowproof codegen`: a window whose user actions are reported as events (codegen.ts). */
export { CODEGEN_KIND, openCodegen, type BrowserNavigation, type CodegenBrowser, type CodegenEvent, type CodegenTarget, type NamedTarget } from "./codegen.ts";

/** Bounds for a browser across the grid's hop: a node that dies leaves the socket silent. */
const GRID_BOUNDS = { callTimeoutMs: 60_000, heartbeatMs: 3000, heartbeatTimeoutMs: 15_000 };

/** How long a direct connection to a grid node may take before the grid's own endpoint is used. */
const NODE_CONNECT_MS = 2000;
/** Per grid (by URL): whether its nodes answered directly; a grid whose nodes did not is not tried again. */
const nodesReachable = new Map<string, boolean>();

/**
 * The session's DevTools socket: on the node itself when this machine can reach it (a hop fewer
 * through the grid's proxies: about a third of the round-trip time), else through the grid's URL
 * (nodes behind a cluster network, a vendor's grid).
 */
async function connectToSession(grid: string, session: GridSession): Promise<Connection> {
  if (session.nodeCdpUrl && nodesReachable.get(grid) !== false) {
    const connecting = Connection.connect(session.nodeCdpUrl, GRID_BOUNDS);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), NODE_CONNECT_MS)));
    const direct = await Promise.race([connecting.catch(() => undefined), late]);
    clearTimeout(timer);
    nodesReachable.set(grid, direct !== undefined);
    if (direct) return direct;
    // One that connects after all is closed at once.
    void connecting.then(
      (c) => c.close(),
      () => undefined,
    );
  }
  return Connection.connect(session.cdpUrl, GRID_BOUNDS);
}

/** One flow on a Selenium Grid: a session of its own, driven over its se:cdp, deleted when the flow closes. */
async function launchOnGrid(url: string, config: WebConfig, ctx: LaunchContext): Promise<AppDriver> {
  if (config.headed) {
    throw new AdapterUnavailableError(
      "a browser on a Selenium Grid has no window on this machine to show or keep open (--keep-open, FLOWPROOF_HEADED)",
      "run it locally with --grid local, or drop --keep-open / FLOWPROOF_HEADED",
      { code: "browser-error" },
    );
  }
  let address;
  try {
    address = parseGridUrl(url);
  } catch (error) {
    const e = error as FlowproofError;
    throw new AdapterUnavailableError(e.message, e.diagnostics?.[0]?.hint ?? "", { code: "browser-error" });
  }
  // The URL's credentials are secrets from here on: every message, trace and frame hides them.
  address.secrets.forEach((value, i) => ctx.secret?.(i === 0 ? "FLOWPROOF_GRID_URL" : `FLOWPROOF_GRID_KEY${i}`, value));
  const { width, height } = viewportOf(config);
  const session = await openGridSession(address, {
    capabilities: sessionCapabilities({ args: config.args, windowSize: [width, height], capabilities: config.capabilities }),
    queueTimeoutMs: queueTimeoutMs(ctx.env ?? process.env),
    stop: ctx.stop,
  });
  let connection: Connection;
  try {
    connection = await connectToSession(address.base, session);
  } catch (error) {
    await session.close();
    throw new AdapterUnavailableError(
      `could not open the DevTools socket of session ${session.id} on the Selenium Grid at ${address.shown}: ${(error as Error).message}`,
      "the grid must pass WebSockets through to /session/<id>/se/cdp (a proxy or ingress in front of the hub must allow the upgrade)",
      { cause: error, code: "browser-error" },
    );
  }
  connection.explainLoss(() => session.explainLoss());
  const close = async () => {
    await connection.close().catch(() => undefined);
    await session.close();
  };
  try {
    return await WebDriver.open(connection, ctx.log, config, close, {
      remote: { upload: (path) => session.upload(path), ...(session.downloads ? { download: (name: string) => session.download(name) } : {}) },
      info: { ran_on: session.placement },
      ...filesOf(ctx),
    });
  } catch (error) {
    await close();
    throw error;
  }
}

/** The open options that confine a page to the run's roots, when the run is confined. */
const filesOf = (ctx: LaunchContext): OpenOptions => (ctx.paths ? { files: ctx.paths } : {});

const ENDPOINT_HINT =
  "start that browser with --remote-debugging-port=<port> (and --remote-allow-origins=* for older versions), or fix `browser.endpoint:` in the flow";

async function startBrowser(headed: boolean, extraArgs: readonly string[] = []): Promise<LaunchedBrowser> {
  const found = findBrowser(process.env, { headless: !headed });
  // The browser the command line started early, when it is this one (a private browser's flags never are).
  const early = found.path && extraArgs.length === 0 ? await claimEarlyBrowser(launchKey("chromium", found.path, headed)) : undefined;
  if (early) return early;
  if (!found.path)
    throw new AdapterUnavailableError(`no Chromium-family browser found (looked at ${found.tried.join("; ")})`, INSTALL_HINT, { code: "no-browser" });
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

  /** The run's Firefox, when a flow runs in it (bidi/session.ts). */
  #firefox: FirefoxSession | undefined;

  async launch(rawConfig: Readonly<Record<string, unknown>>, ctx: LaunchContext): Promise<AppDriver> {
    const config = parseWebConfig(rawConfig);
    const source = browserSource(config, ctx.env ?? process.env);
    // A flow on a grid, at an endpoint or with flags of its own takes no early browser: it stops now.
    if (source.kind !== "shared") await dropEarlyBrowser();
    if (chooseBrowser(config.name, ctx.env ?? process.env) === "firefox") {
      this.#firefox ??= new FirefoxSession();
      return this.#firefox.launch(config, ctx);
    }
    switch (source.kind) {
      case "grid":
        return launchOnGrid(source.url, config, ctx);
      case "shared":
        try {
          return await WebDriver.open(await this.#connect(config.headed === true), ctx.log, config, undefined, filesOf(ctx));
        } catch (error) {
          // The shared browser died before this flow began: the flow starts on a fresh one.
          if (!(error instanceof BrowserGoneError)) throw error;
          return WebDriver.open(await this.#connect(config.headed === true), ctx.log, config, undefined, filesOf(ctx));
        }
      case "private": {
        // Chromium flags apply to a whole browser process: this flow gets its own.
        const browser = await startBrowser(config.headed === true, source.args);
        try {
          const connection = await connectTo(browser);
          return await WebDriver.open(
            connection,
            ctx.log,
            config,
            async () => {
              await connection.close().catch(() => undefined);
              await browser.close();
            },
            filesOf(ctx),
          );
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
          throw new AdapterUnavailableError(`could not connect to the browser at ${source.url}: ${(error as Error).message}`, ENDPOINT_HINT, {
            cause: error,
            code: "browser-error",
          });
        }
        // Someone else's browser: closing the flow disposes its context and our socket, never the process.
        try {
          return await WebDriver.open(connection, ctx.log, config, () => connection.close().catch(() => undefined), filesOf(ctx));
        } catch (error) {
          await connection.close().catch(() => undefined);
          throw error;
        }
      }
    }
  }

  async close(): Promise<void> {
    await this.#firefox?.close();
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
  // Where the browser ran when not on this machine (a grid session), and the engine a Firefox
  // flow was recorded in (absent: Chromium), recorded in the app entry.
  facts: Type.Object(
    {
      ran_on: Type.Optional(RanOn),
      engine: Type.Optional(
        Type.Union([Type.Literal("chromium"), Type.Literal("firefox")], {
          description: "The browser engine a web flow was recorded in (a fact: replay runs in the engine the flow or the run names).",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  leakCorpus: true,
  open: async () => new WebSession(),
});
