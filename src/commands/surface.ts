// Opening and releasing a flow's surface: the adapter for its app kind launches one driver (an
// isolated context), shown or headless; `--keep-open` holds it until a person lets it go.
import { dirname } from "node:path";
import type { AdapterSession, AppDriver, LaunchContext } from "../plugins/api.ts";
import type { RunReport } from "../report/schema.ts";
import type { CommonOptions } from "./common.ts";
import type { RunContext } from "./project-plugins.ts";

/** What a LaunchContext carries besides the flow's directory and log (see launch-config.ts). */
export type LaunchExtras = Omit<LaunchContext, "baseDir" | "log">;

/** A launch config that shows the browser window when `headed` (unchanged otherwise). */
export function withHeaded(config: Readonly<Record<string, unknown>>, headed: boolean): Readonly<Record<string, unknown>> {
  return headed ? { ...config, headed: true } : config;
}

export interface OpenedSurface {
  readonly session: AdapterSession;
  readonly driver: AppDriver;
}

/** A finished flow's surface: closed now, or — with `keepOpen` — once the caller let it go. */
export async function releaseSurface(surface: OpenedSurface, keepOpen: CommonOptions["keepOpen"]): Promise<void> {
  try {
    if (keepOpen) await keepOpen(surface.driver).catch(() => undefined);
  } finally {
    await surface.driver.close().catch(() => undefined);
    await surface.session.close().catch(() => undefined);
  }
}

/**
 * Opens the adapter for the flow's app kind and launches one driver (an isolated context).
 * `context`: the run's (its adapters; what they open is owned by its lifecycle); `config`: the launch config (see launch-config.ts).
 */
export async function openSurface(
  kind: string,
  flowPath: string,
  log: (line: string) => void,
  context: Pick<RunContext, "adapterFor">,
  config: Readonly<Record<string, unknown>> = {},
  extras: LaunchExtras = {},
): Promise<OpenedSurface> {
  const session = await context.adapterFor(kind).open();
  try {
    const driver = await session.launch(config, { ...extras, baseDir: dirname(flowPath), log });
    return { session, driver };
  } catch (error) {
    await session.close().catch(() => undefined);
    throw error;
  }
}

/** Where the surface's browser ran when not on this machine (a grid session), as its driver reports it. */
export function ranOnOf(driver: AppDriver): Pick<RunReport, "ran_on"> {
  const ranOn = driver.appInfo?.()["ran_on"] as RunReport["ran_on"] | undefined;
  return ranOn ? { ran_on: ranOn } : {};
}
