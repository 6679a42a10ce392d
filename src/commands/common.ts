// The options record, run and suite share: the run's environment, where progress goes, and how its
// browser is shown and held. The concepts they share live in their own modules: paths.ts,
// project-plugins.ts, flow-load.ts, start-url.ts, surface.ts, execution.ts.
import type { AppDriver } from "../plugins/api.ts";

export type AuthorMode = "auto" | "rules" | "llm";

export interface CommonOptions {
  /** Environment for `${VAR}` references (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Progress and warnings, one line each (default: nothing). */
  readonly log?: (line: string) => void;
  /**
   * `--keep-open`: called once the flow has finished and its results are written, with the
   * still-open surface; the surface closes when the returned promise settles.
   */
  readonly keepOpen?: (driver: AppDriver) => Promise<void>;
  /** Show the browser window instead of running headless (default: with `keepOpen`, or when the env sets FLOWPROOF_HEADED). */
  readonly headed?: boolean;
  /**
   * `--grid`: the Selenium Grid every web flow runs on (docs/grid.md), over the flow's `browser.grid`
   * and the environment's FLOWPROOF_GRID_URL; `local` runs a local browser. May carry user:key@ (a secret).
   */
  readonly grid?: string;
}

/** The run's environment: `options.env` (default process.env), with `--grid` as its FLOWPROOF_GRID_URL. */
export function envOf(options: Pick<CommonOptions, "env" | "grid">): Readonly<Record<string, string | undefined>> {
  const env = options.env ?? process.env;
  return options.grid !== undefined ? { ...env, FLOWPROOF_GRID_URL: options.grid } : env;
}

/** Whether this execution shows its browser window: asked for, kept open for a person, or FLOWPROOF_HEADED in its env. */
export function headedFor(options: Pick<CommonOptions, "headed" | "keepOpen">, env: Readonly<Record<string, string | undefined>>): boolean {
  return options.headed ?? (options.keepOpen !== undefined || env["FLOWPROOF_HEADED"] !== undefined);
}
