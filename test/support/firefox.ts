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

/** One Firefox for a test file: its BiDi connection, fresh pages (a user context each), and how to stop it. */
export interface FirefoxBed {
  readonly browser: LaunchedBrowser;
  readonly connection: BidiConnection;
  /** A new tab in a user context of its own, with `events` subscribed for it. */
  page(events?: readonly string[]): Promise<BidiPage>;
  close(): Promise<void>;
}

export async function startFirefox(): Promise<FirefoxBed> {
  const browser = await launchFirefox(requireFirefox());
  const connection = await BidiConnection.connect(browser.wsUrl);
  return {
    browser,
    connection,
    async page(events = []) {
      const { userContext } = await connection.send<{ userContext: string }>("browser.createUserContext", {});
      const { context } = await connection.send<{ context: string }>("browsingContext.create", { type: "tab", userContext });
      if (events.length > 0) await connection.send("session.subscribe", { events, contexts: [context] });
      return new BidiPage(connection, context);
    },
    async close() {
      await connection.close().catch(() => undefined);
      await browser.close();
    },
  };
}
