// `flowproof run|record|heal <flow.yaml>` of a web flow starts its browser first, before the
// command's modules, the flow and the plugins load (about 200 ms), so the two overlap; the run's
// web session takes that browser when it asks for one (plugins/web/prestart.ts). Headless runs on
// this machine's shared browser only: a grid, a `browser.endpoint`, `browser.args`, `--root` and
// headed runs start as they always did.
import { statSync } from "node:fs";
import { COMMAND_TABLE, parseArgs, type CommandName } from "./flags.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { dropPrestarts, prestartFor } from "../plugins/builtin-prestart.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The flags of those commands that decide where the browser runs. */
interface BrowserFlags {
  readonly grid?: string;
  readonly browser?: string;
  readonly keepOpen?: boolean;
  readonly root?: string | readonly string[];
}

/**
 * Starts the browser this command line will surely use, owned by `lifecycle` until the command
 * ends. Returns what to await when the command ends (an early browser nothing claimed is then
 * stopped), or undefined when nothing was started. A command line that does not parse starts
 * nothing: the command reports it.
 */
export function prelaunch(name: CommandName, argv: readonly string[], env: Env, lifecycle: Lifecycle): (() => Promise<void>) | undefined {
  let parsed: { readonly positional: readonly string[]; readonly help?: boolean; readonly flags: object };
  try {
    parsed = parseArgs(COMMAND_TABLE[name], argv, []);
  } catch {
    return undefined;
  }
  const spec = parsed.positional[0];
  const flags = parsed.flags as BrowserFlags;
  const headed = flags.keepOpen === true || env["FLOWPROOF_HEADED"] !== undefined;
  if (parsed.help || spec === undefined || parsed.positional.length !== 1 || flags.root !== undefined || headed) return undefined;
  try {
    if (!statSync(spec).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const runEnv = {
    ...env,
    ...(flags.grid !== undefined ? { FLOWPROOF_GRID_URL: flags.grid } : {}),
    ...(flags.browser !== undefined ? { FLOWPROOF_BROWSER: flags.browser } : {}),
  };
  if (!prestartFor(spec, runEnv, false)) return undefined;
  const release = lifecycle.own({ stop: dropPrestarts });
  return async () => {
    await dropPrestarts();
    release();
  };
}
