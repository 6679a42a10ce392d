// Finds the Firefox the Firefox tests use (FLOWPROOF_FIREFOX, else firefox-esr or firefox on PATH).
// A missing Firefox FAILS the suite with instructions; it is never a silent skip.
import { FIREFOX_INSTALL_HINT, findFirefox } from "../../plugins/web/bidi/launch.ts";

export function requireFirefox(): string {
  const found = findFirefox(process.env);
  if (!found.path)
    throw new Error(
      `The Firefox tests need Firefox and none was found (looked at ${found.tried.join("; ")}). ${FIREFOX_INSTALL_HINT}. On Debian: apt-get install -y firefox-esr`,
    );
  return found.path;
}

import { BidiConnection } from "../../plugins/web/bidi/connection.ts";
import { launchFirefox } from "../../plugins/web/bidi/launch.ts";
import { BidiPage } from "../../plugins/web/bidi/page.ts";
import type { LaunchedBrowser } from "../../plugins/web/launch.ts";

/** A Firefox for a test file: its BiDi connection, fresh pages (a user context each), and how to let go of it. */
export interface FirefoxBed {
  readonly browser: LaunchedBrowser;
  readonly connection: BidiConnection;
  /** A new tab in a user context of its own, with `events` subscribed for it. */
  page(events?: readonly string[]): Promise<BidiPage>;
  /** Closes this bed's pages and their user contexts; the browser stays for the next file. */
  close(): Promise<void>;
}

let shared: Promise<{ browser: LaunchedBrowser; connection: BidiConnection }> | undefined;
/** Beds not closed yet; once none is open for IDLE_STOP_MS the browser stops (it idles at ~5 % of a core). */
let open = 0;
let idleStop: ReturnType<typeof setTimeout> | undefined;
const IDLE_STOP_MS = 3_000;

/**
 * The Firefox of this test process: one `bun test` runs its files one after another, so they take
 * turns on one browser (a start costs ~1.5 s of two cores) instead of starting one each. Each
 * file's pages live in user contexts of their own and go with `close()`; a browser that died is
 * started again. The browser stops once no file has held it for IDLE_STOP_MS, and at the latest
 * with the process (the launch's exit hook, its parent-death signal).
 */
export async function startFirefox(): Promise<FirefoxBed> {
  clearTimeout(idleStop);
  open++;
  const running = await shared?.catch(() => undefined);
  if (!running || running.browser.exitReason !== undefined || running.connection.closed) {
    if (running) await running.browser.close().catch(() => undefined);
    shared = (async () => {
      const browser = await launchFirefox(requireFirefox());
      return { browser, connection: await BidiConnection.connect(browser.wsUrl) };
    })();
  }
  const { browser, connection } = await shared!;
  const userContexts: string[] = [];
  let closed = false;
  return {
    browser,
    connection,
    async page(events = []) {
      const { userContext } = await connection.send<{ userContext: string }>("browser.createUserContext", {});
      userContexts.push(userContext);
      const { context } = await connection.send<{ context: string }>("browsingContext.create", { type: "tab", userContext });
      if (events.length > 0) await connection.send("session.subscribe", { events, contexts: [context] });
      return new BidiPage(connection, context);
    },
    async close() {
      // Removing a user context closes its tabs (a dialog left open included).
      for (const userContext of userContexts.splice(0)) await connection.send("browser.removeUserContext", { userContext }).catch(() => undefined);
      if (closed) return;
      closed = true;
      if (--open > 0) return;
      const stopping = shared;
      idleStop = setTimeout(() => {
        if (shared !== stopping) return;
        shared = undefined;
        void stopping?.then(({ browser, connection }) => connection.close().then(() => browser.close())).catch(() => undefined);
      }, IDLE_STOP_MS);
      idleStop.unref?.();
    },
  };
}
