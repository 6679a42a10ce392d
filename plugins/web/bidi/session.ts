// Firefox for a run: one browser started on first use and shared by the run's flows, each flow a
// user context of its own (an isolated profile: cookies, storage, cache). What a flow asks that
// flowproof cannot do in Firefox yet is refused before its first step, naming Firefox and what to
// write instead; never a silent difference from Chromium.
import { AdapterUnavailableError, FlowproofError, type AppDriver, type LaunchContext } from "../../../src/plugins/api.ts";
import type { WebConfig } from "../config.ts";
import { BidiConnection } from "./connection.ts";
import { FirefoxDriver } from "./driver.ts";
import { FIREFOX_INSTALL_HINT, findFirefox, launchFirefox, type LaunchedFirefox } from "./launch.ts";
import { claimEarlyBrowser, launchKey } from "../prestart.ts";

/** The keys of a flow's `browser:`, `mock:` and `session:` that Firefox does not take (yet), with what to write instead. */
export function firefoxRefusals(config: WebConfig, env: Readonly<Record<string, string | undefined>> = {}): string[] {
  const out: string[] = [];
  const grid = env["FLOWPROOF_GRID_URL"]?.trim();
  if (config.endpoint !== undefined) out.push("`browser.endpoint` (a running Chromium's DevTools URL)");
  if ((grid && grid !== "local") || (!grid && config.grid !== undefined))
    out.push("a Selenium Grid (`browser.grid`, --grid, FLOWPROOF_GRID_URL; docs/grid.md)");
  if (config.args !== undefined && config.args.length > 0) out.push("`browser.args` (Chromium flags)");
  if (config.viewport?.mobile || config.viewport?.touch) out.push("`browser.viewport.mobile` / `touch` (mobile emulation)");
  return out;
}

export class FirefoxSession {
  #browser: LaunchedFirefox | undefined;
  #connection: BidiConnection | undefined;
  #starting: Promise<BidiConnection> | undefined;

  async #connect(headed: boolean, env: Readonly<Record<string, string | undefined>>): Promise<BidiConnection> {
    if (this.#connection && !this.#connection.closed) return this.#connection;
    this.#starting ??= (async () => {
      const found = findFirefox(env);
      if (!found.path)
        throw new AdapterUnavailableError(`no Firefox found (looked at ${found.tried.join("; ")})`, FIREFOX_INSTALL_HINT, { code: "no-browser" });
      // The Firefox the command line started early, when it is this one.
      let browser: LaunchedFirefox | undefined = await claimEarlyBrowser<LaunchedFirefox>(launchKey("firefox", found.path, headed));
      try {
        browser ??= await launchFirefox(found.path, { headed });
      } catch (error) {
        throw new AdapterUnavailableError(`could not start ${found.path}: ${(error as Error).message}`, FIREFOX_INSTALL_HINT, {
          cause: error,
          code: "no-browser",
        });
      }
      this.#browser = browser;
      try {
        const connection = await BidiConnection.connect(browser.wsUrl);
        connection.explainLoss(() => new Promise((resolve) => browser.onExit(resolve)));
        this.#connection = connection;
        return connection;
      } catch (error) {
        await browser.close();
        throw new AdapterUnavailableError(`could not open Firefox's WebDriver BiDi socket: ${(error as Error).message}`, FIREFOX_INSTALL_HINT, {
          cause: error,
          code: "no-browser",
        });
      }
    })();
    try {
      return await this.#starting;
    } finally {
      this.#starting = undefined;
    }
  }

  async launch(config: WebConfig, ctx: LaunchContext): Promise<AppDriver> {
    const env = ctx.env ?? process.env;
    const refused = firefoxRefusals(config, env);
    if (refused.length > 0)
      throw new FlowproofError({
        code: "unsupported-step",
        message: `flowproof cannot run this flow in Firefox yet: it uses ${refused.join(", ")} (docs/browsers.md)`,
        hint: "run it on Chromium (`--browser chromium`, or `browser: {name: chromium}`), or remove those keys",
      });
    const connection = await this.#connect(config.headed === true, env);
    return FirefoxDriver.open(connection, config, { engine: "firefox" }, async () => undefined, ctx.log);
  }

  /**
   * Ends the session and stops Firefox. The first Firefox of a build shuts down through
   * `browser.close` so that its profile can be kept as the template later starts copy.
   */
  async close(): Promise<void> {
    const connection = this.#connection;
    if (this.#browser && !this.#browser.fromTemplate && connection && !connection.closed)
      await this.#browser.closeKeepingTemplate((method) => connection.send(method, {}, 5000));
    // Firefox is stopped at once (its profile is temporary): its session needs no ending of its own.
    else connection?.drop();
    await this.#browser?.close();
    this.#connection = undefined;
    this.#browser = undefined;
  }
}
