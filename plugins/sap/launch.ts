// Launching the sap driver on a scripting engine: the config checked, the session opened (our own
// connection, logged on) or attached, the driver made. Shared by the Windows COM engine and the
// in-memory fake, so unit tests go through exactly this path.
import type { AppDriver, LaunchContext } from "../../src/plugins/api.ts";
import type { ScriptingEngine } from "./engine.ts";
import { parseSapConfig } from "./config.ts";
import { connectSession } from "./connect.ts";
import { SapDriver } from "./driver.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function launchSapDriver(
  engine: ScriptingEngine,
  rawConfig: Readonly<Record<string, unknown>>,
  ctx: Pick<LaunchContext, "log">,
): Promise<AppDriver> {
  const config = parseSapConfig(rawConfig);
  try {
    const { session, own } = await connectSession(engine, config, sleep);
    return new SapDriver({ engine, session, ...(own ? { own } : {}), log: ctx.log });
  } catch (error) {
    engine.close();
    throw error;
  }
}
