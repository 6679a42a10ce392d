// Starting a page's session: target discovery once per browser connection, then the CDP domains,
// the scripts every document gets (task origins first, the page API, screen changes), the page's
// shaping (browser:, mock:) and focus emulation, all at once.
import type { Connection, Session } from "./cdp/connection.ts";
import type { WebConfig } from "./config.ts";
import type { FileGate } from "./mocks.ts";
import { pageInstaller } from "./page-calls.ts";
import { applyShaping } from "./page-setup.ts";
import { SCREEN_CHANGES_SCRIPT } from "./screen-changes.ts";
import { TASK_ORIGINS_SCRIPT } from "./task-origins.ts";

/** Browser connections already reporting target crashes (Target.setDiscoverTargets is per connection). */
const discovering = new WeakSet<Connection>();

/** Turns on target discovery for `connection`, once (a failure is ignored). */
export async function discoverTargets(connection: Connection): Promise<void> {
  if (discovering.has(connection)) return;
  discovering.add(connection);
  await connection.send("Target.setDiscoverTargets", { discover: true }).catch(() => undefined);
}

/** Enables the page's domains and scripts and applies its shaping; `onOff` receives the undo of the shaping. */
export async function startPage(session: Session, config: WebConfig, files: FileGate | undefined, onOff: (off: () => void) => void): Promise<void> {
  const s = session;
  await Promise.all([
    s.send("Page.enable"),
    s.send("Runtime.enable"),
    s.send("Log.enable"),
    // First, so that every callback the page schedules is tagged (effect attribution).
    s.send("Page.addScriptToEvaluateOnNewDocument", { source: TASK_ORIGINS_SCRIPT }),
    s.send("Page.addScriptToEvaluateOnNewDocument", { source: pageInstaller() }),
    s.send("Page.addScriptToEvaluateOnNewDocument", { source: SCREEN_CHANGES_SCRIPT }),
    applyShaping(s, config, files).then(onOff),
    // Several pages share one headless browser; each must behave as the focused window, or
    // keyboard input and :focus styles depend on which flow ran last.
    s.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
  ]);
}
