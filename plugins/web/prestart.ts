// The browser a run will surely use, started while the run's own modules still load. A command line
// (`flowproof run|record|heal <flow.yaml>`) reads the flow file and its suite.yaml as text, just
// enough to know that the flow is a web flow on this machine's shared browser and in which engine,
// and starts that browser at once (the executable and flags a launch on first use would take). The
// web session takes it when the run asks for its browser, if the browser it needs is that one
// (same engine, executable, headed or not); any other need stops the early browser at once and
// launches as usual. An early browser nothing claims is stopped when the command ends, and like
// every browser it dies with flowproof however flowproof ends (launch.ts).
// Loaded before everything else: it imports only launch.ts and bidi/launch.ts, which import the
// light face of the contract (src/plugins/launch-api.ts).
import { findBrowser, launchBrowser, type LaunchedBrowser } from "./launch.ts";
import { findFirefox, launchFirefox } from "./bidi/launch.ts";

type Env = Readonly<Record<string, string | undefined>>;

export type EarlyEngine = "chromium" | "firefox";

/** The early browser to start: its engine and whether it shows a window. */
export interface EarlyRequest {
  readonly engine: EarlyEngine;
  readonly headed: boolean;
}

/** What a browser must match to be handed over: the engine, the executable, headed or headless (a run's shared browser takes no other option). */
export const launchKey = (engine: EarlyEngine, executable: string, headed: boolean): string => `${engine} ${headed ? "headed" : "headless"} ${executable}`;

/** The text of a top-level key of a YAML mapping: the rest of its line and the lines indented under it (undefined without the key). */
function topLevel(text: string, key: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => l.startsWith(`${key}:`));
  if (at < 0) return undefined;
  const block = [lines[at]!.slice(key.length + 1)];
  for (const line of lines.slice(at + 1)) {
    if (/^[^\s#]/.test(line)) break;
    block.push(line);
  }
  return block.join("\n");
}

/** A scalar as written on its line, without quotes or a comment. */
const scalar = (value: string): string =>
  value
    .split("\n")[0]!
    .replace(/\s+#.*$/, "")
    .trim()
    .replace(/^(["'])(.*)\1$/, "$2");

/**
 * The early browser for a flow, from the texts of the flow file and of its suite.yaml and the run's
 * environment (with `--browser` and `--grid` in it): a web flow (`app: web`, not `apps:`) on this
 * machine's shared browser, so not on a grid, not at a `browser.endpoint` and without
 * `browser.args` (a private browser). Undefined when that is not certain from the text; a guess
 * that turns out wrong only costs a browser stopped at once.
 */
export function earlyRequestOf(texts: { readonly flow: string; readonly suite?: string | undefined }, env: Env, headed: boolean): EarlyRequest | undefined {
  const app = topLevel(texts.flow, "app");
  if (app === undefined || scalar(app) !== "web" || topLevel(texts.flow, "apps") !== undefined) return undefined;
  const grid = env["FLOWPROOF_GRID_URL"]?.trim();
  if (grid && grid !== "local") return undefined;
  // The flow's own `browser:` wins outright over the suite's default (no merge).
  const browser = topLevel(texts.flow, "browser") ?? (texts.suite === undefined ? undefined : topLevel(texts.suite, "browser")) ?? "";
  if (/\b(endpoint|args)\s*:/.test(browser) || (!grid && /\bgrid\s*:/.test(browser))) return undefined;
  const fromEnv = env["FLOWPROOF_BROWSER"]?.trim();
  const named = /\bname\s*:\s*["']?(\w+)/.exec(browser)?.[1];
  const engine = fromEnv || named || "chromium";
  return engine === "chromium" || engine === "firefox" ? { engine, headed } : undefined;
}

interface Offer {
  readonly key: string;
  readonly started: Promise<LaunchedBrowser>;
  readonly stop: () => Promise<void>;
}

/** The early browser not claimed yet (one per process). */
let offered: Offer | undefined;
/** Early browsers being stopped. */
const stopping = new Set<Promise<void>>();

function stopOffer(offer: Offer): Promise<void> {
  const done = offer.stop().finally(() => stopping.delete(done));
  stopping.add(done);
  return done;
}

/**
 * Starts the browser `request` names, to be claimed by the run's web session; an early browser
 * already offered is stopped. False when no such browser is installed (the run says so itself).
 */
export function prestartBrowser(request: EarlyRequest, env: Env): boolean {
  if (offered) void stopOffer(offered);
  offered = undefined;
  const found = request.engine === "firefox" ? findFirefox(env) : findBrowser(env, { headless: !request.headed });
  if (!found.path) return false;
  const controller = new AbortController();
  const options = { headed: request.headed, signal: controller.signal };
  const started: Promise<LaunchedBrowser> = request.engine === "firefox" ? launchFirefox(found.path, options) : launchBrowser(found.path, options);
  // A start that fails is the run's to report, from its own launch.
  started.catch(() => undefined);
  offered = {
    key: launchKey(request.engine, found.path, request.headed),
    started,
    stop: async () => {
      controller.abort();
      await started.then(
        (browser) => browser.close(),
        () => undefined,
      );
    },
  };
  return true;
}

/**
 * The early browser, when it is the one `key` names (launchKey) and started; the caller then owns
 * it. Any other early browser is stopped at once. Undefined when the caller must launch its own.
 */
export async function claimEarlyBrowser<T extends LaunchedBrowser>(key: string): Promise<T | undefined> {
  const offer = offered;
  offered = undefined;
  if (!offer) return undefined;
  if (offer.key !== key) {
    void stopOffer(offer);
    return undefined;
  }
  const browser = await offer.started.catch(() => undefined);
  return browser && browser.exitReason === undefined ? (browser as T) : undefined;
}

/** Stops the early browser if nothing claimed it, and waits for every early browser being stopped. */
export async function dropEarlyBrowser(): Promise<void> {
  if (offered) void stopOffer(offered);
  offered = undefined;
  await Promise.all([...stopping]);
}

/** An execution opening surfaces of `kinds`: the early browser is stopped now unless one of them is a web surface. */
export function keepEarlyBrowserFor(kinds: Iterable<string>): Promise<void> {
  return offered === undefined || [...kinds].includes("web") ? Promise.resolve() : dropEarlyBrowser();
}

/** Whether an early browser waits to be claimed. */
export const hasEarlyBrowser = (): boolean => offered !== undefined;
