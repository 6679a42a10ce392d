// Applies a flow's browser shape to its page before anything loads: device metrics, touch, user
// agent, time zone, pinned clock, seeded random, mocks; seeds the session (cookies, then
// localStorage through a one-document init script) right before the first navigation; and
// changes the shape mid-flow (a new viewport size, cleared storage or cookies).
import type { Protocol } from "devtools-protocol/types/protocol";
import type { Attempt } from "../../src/plugins/api.ts";
import { fail, isTransient, ok } from "./page-calls.ts";
import type { Connection, Session } from "./cdp/connection.ts";
import type { WebConfig, WebViewport } from "./config.ts";
import { installClock, installRandom, seedLocalStorage } from "./injected/init-scripts.ts";
import { interceptRequests, type FileGate } from "./mocks.ts";

/** The page size when a flow does not set `browser.viewport`. */
export const DEFAULT_VIEWPORT: WebViewport = { width: 1280, height: 800 };

/** Max touch points reported with `touch: true` (what a phone reports). */
const TOUCH_POINTS = 5;

export const viewportOf = (config: WebConfig): WebViewport => config.viewport ?? DEFAULT_VIEWPORT;

/** The device metrics of a page `width` × `height` CSS pixels in size, at the viewport's scale and mobile setting. */
const deviceMetrics = (vp: WebViewport, width: number, height: number): Protocol.Emulation.SetDeviceMetricsOverrideRequest => ({
  width,
  height,
  deviceScaleFactor: vp.device_scale_factor ?? 1,
  mobile: vp.mobile ?? false,
});

/** Init scripts (page-side source) for the clock and random of this config, in install order. */
export function initScripts(config: WebConfig): string[] {
  const scripts: string[] = [];
  if (config.clock) scripts.push(`(${installClock.toString()})(${Date.parse(config.clock.at)})`);
  if (config.random) scripts.push(`(${installRandom.toString()})(${config.random.seed})`);
  return scripts;
}

/** Everything that must hold before the first document (`files`: the gate of a confined run's `file:` URLs): returns what undoes the page-level listeners. */
export async function applyShaping(session: Session, config: WebConfig, files?: FileGate): Promise<() => void> {
  const vp = viewportOf(config);
  const sends: Array<Promise<unknown>> = [session.send("Emulation.setDeviceMetricsOverride", deviceMetrics(vp, vp.width, vp.height))];
  if (vp.touch) sends.push(session.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: TOUCH_POINTS }));
  if (config.user_agent !== undefined) sends.push(session.send("Emulation.setUserAgentOverride", { userAgent: config.user_agent }));
  if (config.clock?.timezone !== undefined) sends.push(session.send("Emulation.setTimezoneOverride", { timezoneId: config.clock.timezone }));
  for (const source of initScripts(config)) sends.push(session.send("Page.addScriptToEvaluateOnNewDocument", { source }));
  await Promise.all(sends);
  return interceptRequests(session, config.mock ?? [], files);
}

/** The cookies to set for a flow starting at `startUrl`: a cookie without `domain` belongs to the start URL's host. */
export function seedCookies(config: WebConfig, startUrl: string): Protocol.Network.CookieParam[] {
  return (config.session?.cookies ?? []).map((c) =>
    c.domain !== undefined ? { name: c.name, value: c.value, domain: c.domain, path: "/" } : { name: c.name, value: c.value, url: startUrl, path: "/" },
  );
}

/**
 * Seeds the session for the first document at `startUrl`: cookies in the flow's browser context,
 * and localStorage by an init script limited to the start URL's origin. Returns the init
 * script's id: the caller removes it once that document has loaded, so the seed is applied once
 * and a later navigation (the app mutating the seed, another origin) never sees it re-applied.
 */
export async function seedSession(
  connection: Connection,
  session: Session,
  browserContextId: string,
  config: WebConfig,
  startUrl: string,
): Promise<string | undefined> {
  const cookies = seedCookies(config, startUrl);
  if (cookies.length > 0) await connection.send("Storage.setCookies", { cookies, browserContextId });
  const items = config.session?.local_storage;
  if (!items || Object.keys(items).length === 0) return undefined;
  const origin = pageOrigin(startUrl);
  const { identifier } = await session.send("Page.addScriptToEvaluateOnNewDocument", {
    source: `(${seedLocalStorage.toString()})(${JSON.stringify(origin)}, ${JSON.stringify(items)})`,
  });
  return identifier;
}

/** `location.origin` as a page at `url` reports it (Chromium says `file://` for local files, where URL says `null`). */
export function pageOrigin(url: string): string {
  const parsed = new URL(url);
  return parsed.protocol === "file:" ? "file://" : parsed.origin;
}

/** Empties the page origin's localStorage / sessionStorage, or every cookie of the flow's browser context (other flows keep theirs). */
export async function clearSiteStorage(
  connection: Connection,
  session: Session,
  browserContextId: string,
  what: "local" | "session" | "cookies",
): Promise<Attempt> {
  if (what === "cookies") {
    await connection.send("Storage.clearCookies", { browserContextId });
    return ok(undefined);
  }
  const area = what === "local" ? "localStorage" : "sessionStorage";
  const res = await session.send("Runtime.evaluate", {
    expression: `(() => { try { ${area}.clear(); return ${area}.length; } catch (e) { return String(e); } })()`,
    returnByValue: true,
  });
  const left = res.result.value;
  if (left === 0) return ok(undefined);
  return fail(
    "unsupported",
    typeof left === "string" ? `${what} storage cannot be cleared on this page: ${left}` : `${what} storage still holds ${String(left)} keys after clearing`,
    false,
  );
}

/**
 * Sets the page's viewport to `width` × `height` CSS pixels (the flow's scale, mobile and touch
 * kept), lets the page lay itself out for it (media queries, resize handlers run with the next
 * frame), and verifies it took.
 */
export async function resizeViewport(session: Session, config: WebConfig, width: number, height: number, nextFrame: () => Promise<void>): Promise<Attempt> {
  const vp = viewportOf(config);
  await session.send("Emulation.setDeviceMetricsOverride", deviceMetrics(vp, width, height));
  await nextFrame();
  const res = await session.send("Runtime.evaluate", { expression: "[innerWidth, innerHeight]", returnByValue: true });
  const [w, h] = (res.result.value as [number, number] | undefined) ?? [0, 0];
  // A mobile viewport may lay out wider than the device (a page without a meta viewport).
  if (!vp.mobile && (w !== width || h !== height)) return fail("unsupported", `the viewport is ${w}x${h}, not ${width}x${height}, after resizing`, false);
  return ok(undefined);
}

/** How often the environment is asked again while the page is between documents. */
const ENVIRONMENT_TRIES = 3;

/**
 * The page's size and language for the trace header. A document being replaced (the last step
 * started a navigation) is waited out with `settle` and asked again; a page that keeps navigating
 * is described by the flow's own viewport, never failing the recording it ends.
 */
export async function readEnvironment(
  session: Session,
  config: WebConfig,
  settle: () => Promise<void>,
): Promise<{ os: string; resolution: [number, number]; locale?: string }> {
  const vp = viewportOf(config);
  for (let attempt = 0; attempt < ENVIRONMENT_TRIES; attempt++) {
    await settle();
    try {
      const res = await session.send("Runtime.evaluate", { expression: "[innerWidth, innerHeight, navigator.language]", returnByValue: true });
      const [w, h, locale] = (res.result.value as [number, number, string] | undefined) ?? [vp.width, vp.height, ""];
      return { os: process.platform, resolution: [w, h], ...(locale ? { locale } : {}) };
    } catch (error) {
      if (!isTransient(error)) throw error;
    }
  }
  return { os: process.platform, resolution: [vp.width, vp.height] };
}
