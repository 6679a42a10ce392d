// The browser side of `flowproof codegen`: a Chromium window (headed for a person) at the start
// URL, with the page script's listener reporting every user action through a CDP binding, and the
// navigations the person starts from the address bar. Says nothing about steps: the recorder in
// src/commands turns these events into flow text.
import { AdapterUnavailableError, FlowproofError } from "../../src/plugins/api.ts";
import { Connection, type Result, type Session } from "./cdp/connection.ts";
import { findBrowser, launchBrowser, INSTALL_HINT, type LaunchedBrowser } from "./launch.ts";
import { pageInstaller } from "./page-calls.ts";
import type { CodegenEvent } from "./injected/codegen-protocol.ts";

export type { CodegenAnchor, CodegenEvent, CodegenRole, CodegenTarget, NamedTarget, Naming } from "./injected/codegen-protocol.ts";

/** The app kind of the flows codegen writes (`app: web`). */
export const CODEGEN_KIND = "web";
/** The binding the page-side listener reports through. */
const BINDING = "__flowproofCodegenReport";
/** How long the start page may take to load before the window is handed to the person anyway. */
const START_LOAD_MS = 30_000;
/** How often, and how far apart, a history entry that lags its navigation is asked for again. */
const HISTORY_TRIES = 100;
const HISTORY_RETRY_MS = 50;
const HISTORY_CALL_MS = 2_000;
/**
 * Navigation kinds (Chromium's transition types) that the person started from the browser itself,
 * not the page: the address bar reports `typed`, or `address_bar`/`generated`/`keyword` variants
 * depending on which suggestion the Return took.
 */
const BROWSER_STARTED = new Set(["typed", "address_bar", "auto_bookmark", "generated", "keyword", "keyword_generated"]);

/** A navigation the person started outside the page: the address bar, or a reload. */
export type BrowserNavigation = { readonly kind: "go_to"; readonly url: string } | { readonly kind: "reload" };

export interface CodegenBrowserOptions {
  /** The page to open. */
  readonly url: string;
  /** Show the window (a person drives it); headless only for tests that send input over CDP. */
  readonly headed: boolean;
  /** Each action the person takes, in order. */
  readonly onEvent: (event: CodegenEvent) => void;
  /** Each navigation the person starts from the browser. */
  readonly onNavigate: (navigation: BrowserNavigation) => void;
  /**
   * Each navigation whose history entry the browser never showed (a page that rewrites its URL as
   * it loads, a browser too busy to answer): whether the person started it is unknown, so no step
   * was written for it; `why` says so in words.
   */
  readonly onUnknownNavigation?: (url: string, why: string) => void;
}

export interface CodegenBrowser {
  /** Resolves, with why, once the window (or the browser) is gone. */
  readonly closed: Promise<string>;
  /** Reports what is typed in the focused field but not yet reported (the session is ending); never fails. */
  flush(): Promise<void>;
  /** Shows a line in the page's badge (`+ Click "Save"`); never fails. */
  show(text: string): void;
  /** The page's session, for tests that drive a headless window over CDP. */
  readonly session: Session;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** A report from the page, checked at the boundary: an object with a known `kind`. */
export function parseReport(payload: string): CodegenEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined; // not ours: a page may call any global
  }
  if (typeof value !== "object" || value === null) return undefined;
  const kind = (value as { kind?: unknown }).kind;
  const kinds = ["click", "check", "type", "select", "key", "scroll", "assert_shows", "assert_page_shows", "assert_visible", "assert_url"];
  // Shapes are the page script's own (codegen-protocol.ts), built by this same flowproof.
  return typeof kind === "string" && kinds.includes(kind) ? (value as CodegenEvent) : undefined;
}

/** The tab's history, or undefined when the browser did not answer within HISTORY_CALL_MS. */
async function historyOf(session: Session): Promise<Result<"Page.getNavigationHistory"> | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), HISTORY_CALL_MS);
  });
  try {
    return await Promise.race([session.send("Page.getNavigationHistory").catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why a navigation got no step when its history entry never showed. */
export const UNKNOWN_NAVIGATION = `the browser's history showed no entry for it within ${(HISTORY_TRIES * HISTORY_RETRY_MS) / 1000} s, so whether you went there from the address bar or reloaded is unknown`;

/**
 * Whether the navigation that committed `url` was the browser's (address bar, reload), which only
 * its history entry says: the navigation, "page" when the page started it, "unknown" when no entry
 * for `url` ever showed. The entry can lag the commit event on a busy machine: asked again until
 * it is the one for `url`.
 */
async function browserStarted(session: Session, url: string): Promise<BrowserNavigation | "page" | "unknown"> {
  for (let attempt = 0; attempt < HISTORY_TRIES; attempt++) {
    // Asked while the tab moves to a new renderer (the address bar starts a fresh one), the call
    // can fail or go unanswered: each try is bounded, and a failed one is a try like any other.
    const h = await historyOf(session);
    // The current entry, or the newest one when the index has not moved to it yet.
    const entry = h && [h.entries[h.currentIndex], h.entries.at(-1)].find((e) => e?.url === url);
    if (entry) {
      if (entry.transitionType === "reload") return { kind: "reload" };
      return BROWSER_STARTED.has(entry.transitionType) ? { kind: "go_to", url } : "page";
    }
    await new Promise((r) => setTimeout(r, HISTORY_RETRY_MS));
  }
  return "unknown";
}

async function startBrowser(headed: boolean): Promise<LaunchedBrowser> {
  const found = findBrowser(process.env, { headless: !headed });
  if (!found.path)
    throw new AdapterUnavailableError(`no Chromium-family browser found (looked at ${found.tried.join("; ")})`, INSTALL_HINT, { code: "no-browser" });
  try {
    return await launchBrowser(found.path, { headed });
  } catch (error) {
    throw new AdapterUnavailableError(`could not start ${found.path}: ${(error as Error).message}`, INSTALL_HINT, { cause: error, code: "no-browser" });
  }
}

/** Opens the window at `url` with the listener installed in every document it shows. */
export async function openCodegen(options: CodegenBrowserOptions): Promise<CodegenBrowser> {
  const browser = await startBrowser(options.headed);
  let connection: Connection;
  try {
    connection = await Connection.connect(browser.wsUrl);
  } catch (error) {
    await browser.close();
    throw error;
  }
  try {
    return await attach(browser, connection, options);
  } catch (error) {
    await connection.close().catch(() => undefined);
    await browser.close();
    throw error;
  }
}

async function attach(browser: LaunchedBrowser, connection: Connection, options: CodegenBrowserOptions): Promise<CodegenBrowser> {
  // A headed browser opens its startup tab: the person's window is that tab's.
  const { targetInfos } = await connection.send("Target.getTargets");
  const existing = targetInfos.find((t) => t.type === "page");
  const targetId = existing?.targetId ?? (await connection.send("Target.createTarget", { url: "about:blank" })).targetId;
  const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
  const session = connection.session(sessionId);
  await connection.send("Target.setDiscoverTargets", { discover: true });

  let resolveClosed: (why: string) => void = () => undefined;
  const closed = new Promise<string>((resolve) => {
    resolveClosed = resolve;
  });
  connection.on("Target.targetDestroyed", (p) => {
    if (p.targetId === targetId) resolveClosed("the window was closed");
  });
  connection.onClose(() => resolveClosed("the browser was closed"));
  browser.onExit((reason) => resolveClosed(reason));

  session.on("Runtime.bindingCalled", (p) => {
    if (p.name !== BINDING) return;
    const event = parseReport(p.payload);
    if (event) options.onEvent(event);
  });
  let started = false;
  session.on("Page.frameNavigated", (p) => {
    if (p.frame.parentId !== undefined || !started) return;
    // The browser reports the document's URL and its fragment apart; its history keeps them together.
    // An error page is reported by the URL that failed to load, which is what its history entry holds.
    const url = p.frame.unreachableUrl ?? p.frame.url + (p.frame.urlFragment ?? "");
    void browserStarted(session, url).then(
      (nav) => {
        if (nav === "unknown") options.onUnknownNavigation?.(url, UNKNOWN_NAVIGATION);
        else if (nav !== "page") options.onNavigate(nav);
      },
      () => undefined,
    );
  });

  await Promise.all([
    session.send("Page.enable"),
    session.send("Runtime.enable"),
    session.send("Runtime.addBinding", { name: BINDING }),
    session.send("Page.addScriptToEvaluateOnNewDocument", { source: pageInstaller() }),
    session.send("Page.addScriptToEvaluateOnNewDocument", { source: `globalThis.__flowproofCodegenStart?.(${JSON.stringify(BINDING)});` }),
    // Headless, no window has focus: focus events (where typing is reported) need it emulated.
    ...(options.headed ? [] : [session.send("Emulation.setFocusEmulationEnabled", { enabled: true })]),
  ]);
  const loaded = session.waitFor("Page.loadEventFired", START_LOAD_MS).catch(() => undefined);
  const nav = await session.send("Page.navigate", { url: options.url, transitionType: "link" });
  if (nav.errorText)
    throw new FlowproofError({
      code: "browser-error",
      message: `could not open ${options.url}: ${nav.errorText}`,
      hint: "check that the app is running and the URL is right",
    });
  await loaded;
  started = true;

  return {
    closed,
    session,
    async flush() {
      // The binding's report is sent before the evaluation's answer, so it is handled by the time this returns.
      await session.send("Runtime.evaluate", { expression: "globalThis.__flowproofCodegenFlush?.()" }).catch(() => undefined);
    },
    show(text) {
      const expression = `globalThis.__flowproofCodegenShow?.(${JSON.stringify(text)})`;
      void session.send("Runtime.evaluate", { expression }).catch(() => undefined);
    },
    async close() {
      await connection.close().catch(() => undefined);
      await browser.close();
    },
  };
}
