// The bridge to the bundled plugins' early starts (plugins/web/prestart.ts): what a command line
// starts before it loads the rest of flowproof, from the flow file and its suite.yaml read as text.
// Loaded first by the CLI: it imports nothing heavier than the web plugin's launcher.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { findSuiteFile } from "./file-paths.ts";
import { dropEarlyBrowser, earlyRequestOf, hasEarlyBrowser, keepEarlyBrowserFor, prestartBrowser, type EarlyRequest } from "../../plugins/web/prestart.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The nearest suite.yaml at or above `dir` (the one that would govern the flow), as text. */
function suiteTextAbove(dir: string): string | undefined {
  const file = findSuiteFile(dir);
  try {
    return file === undefined ? undefined : readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Starts the browser the flow at `flowPath` will surely use (a web flow on this machine's shared
 * browser), in `env` (the run's, with --browser and --grid in it). Returns what was started, or
 * undefined when nothing was (not a web flow, not certain, an unreadable file, no such browser).
 */
export function prestartFor(flowPath: string, env: Env, headed: boolean): EarlyRequest | undefined {
  let flow: string;
  try {
    flow = readFileSync(flowPath, "utf8");
  } catch {
    return undefined;
  }
  const request = earlyRequestOf({ flow, suite: suiteTextAbove(dirname(resolve(flowPath))) }, env, headed);
  return request && prestartBrowser(request, env) ? request : undefined;
}

/** An execution opening surfaces of `kinds`: an early browser none of them will take is stopped now. */
export const keepPrestartsFor = (kinds: Iterable<string>): Promise<void> => keepEarlyBrowserFor(kinds);

/** Stops whatever was started early and is still unclaimed (the command is ending), and waits for it. */
export const dropPrestarts = (): Promise<void> => dropEarlyBrowser();

/** Whether something started early waits to be taken. */
export const hasPrestarts = (): boolean => hasEarlyBrowser();
