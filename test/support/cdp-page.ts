// A bare page in real Chromium for tests of page-side scripts: a browser of its own, one isolated
// context, one page, and the flat CDP session to it (no driver in between).
import { Connection, type Session } from "../../plugins/web/cdp/connection.ts";
import { launchBrowser, type LaunchedBrowser } from "../../plugins/web/launch.ts";
import { requireChromium } from "./chromium.ts";

export interface BarePage {
  readonly browser: LaunchedBrowser;
  readonly connection: Connection;
  readonly session: Session;
}

/** Launches Chromium and opens an 800×600 about:blank page in a context of its own; `browser.close()` ends it all. */
export async function openBarePage(): Promise<BarePage> {
  const browser = await launchBrowser(requireChromium());
  const connection = await Connection.connect(browser.wsUrl);
  const { browserContextId } = await connection.send("Target.createBrowserContext", { disposeOnDetach: true });
  const { targetId } = await connection.send("Target.createTarget", { url: "about:blank", browserContextId, width: 800, height: 600 });
  const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
  return { browser, connection, session: connection.session(sessionId) };
}
