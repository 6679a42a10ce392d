// The options record, run and suite share: the run's environment, where progress goes, and how its
// browser is shown and held. The concepts they share live in their own modules: paths.ts,
// project-plugins.ts, flow-load.ts, start-url.ts, surface.ts, execution.ts.
import type { AppDriver } from "../plugins/api.ts";
import { confinedTo, filePaths } from "../plugins/file-paths.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";

/** The library passes a lifecycle of the caller's own through here (src/index.ts). */
export { Lifecycle, type StopRequest } from "../plugins/lifecycle.ts";

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
  /** `--browser`: the engine every web flow runs in (docs/browsers.md), over the flow's `browser.name` and the environment's FLOWPROOF_BROWSER. */
  readonly browser?: string;
  /**
   * `--root <dir>` (the MCP server passes its roots): every path the flow reads or writes (the flow,
   * its trace, uploads, spreadsheets, baselines, the suite's commands, plugins, `file:` URLs) must
   * resolve inside it, symlinks followed, or is refused naming the path and the root. Default: anywhere.
   */
  readonly root?: string | readonly string[];
  /**
   * The process lifecycle the entry created (the CLI's main, the MCP server): its stop request
   * ends the run, and it owns every browser, server and child the run starts. A library call
   * without one runs under a lifecycle of its own, which nothing outside stops.
   */
  readonly lifecycle?: Lifecycle;
}

/** The lifecycle a command runs under: the one its entry passed, else one of the command's own. */
export function lifecycleOf(options: Pick<CommonOptions, "lifecycle">): Lifecycle {
  return options.lifecycle ?? new Lifecycle();
}

/** The run's environment: `options.env` (default process.env), with `--grid` as its FLOWPROOF_GRID_URL and `--browser` as its FLOWPROOF_BROWSER. */
export function envOf(options: Pick<CommonOptions, "env" | "grid" | "browser">): Readonly<Record<string, string | undefined>> {
  const env = options.env ?? process.env;
  if (options.grid === undefined && options.browser === undefined) return env;
  return {
    ...env,
    ...(options.grid !== undefined ? { FLOWPROOF_GRID_URL: options.grid } : {}),
    ...(options.browser !== undefined ? { FLOWPROOF_BROWSER: options.browser } : {}),
  };
}

/**
 * Runs a command's work confined to `root` (when given; else in the caller's confinement), the
 * paths the command was handed (`{ "the flow": spec, … }`, relative to the working directory)
 * checked first.
 */
export function withinRoot<T>(
  root: string | readonly string[] | undefined,
  handed: Readonly<Record<string, string | undefined>>,
  work: () => Promise<T>,
): Promise<T> {
  return confinedTo(root, async () => {
    for (const [what, path] of Object.entries(handed)) if (path !== undefined) filePaths().file(what, path, process.cwd());
    return work();
  });
}

/** Whether this execution shows its browser window: asked for, kept open for a person, or FLOWPROOF_HEADED in its env. */
export function headedFor(options: Pick<CommonOptions, "headed" | "keepOpen">, env: Readonly<Record<string, string | undefined>>): boolean {
  return options.headed ?? (options.keepOpen !== undefined || env["FLOWPROOF_HEADED"] !== undefined);
}
