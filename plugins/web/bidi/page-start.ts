// Starting a Firefox page: the scripts every document gets (the page API, a pinned clock and
// random, the screen-change flag), and the page's shaping from `browser:` (viewport, time zone, user agent), each through
// its BiDi command. A shaping Firefox cannot apply is an error naming it, never a silent skip.
import { AdapterUnavailableError } from "../../../src/plugins/api.ts";
import type { WebConfig } from "../config.ts";
import { pageInstaller } from "../page-calls.ts";
import { initScripts, viewportOf } from "../page-setup.ts";
import { TASK_ORIGINS_SCRIPT } from "../task-origins.ts";
import { DOWNLOAD_EVENTS } from "./downloads.ts";
import { BACKGROUND_BINDING_PRELOAD, EFFECT_EVENTS } from "./effects.ts";
import { NAVIGATION_EVENTS, UNLOAD_PRELOAD } from "./navigation.ts";
import { SCREEN_CHANGES_SCRIPT, SCREEN_EVENTS } from "./screen-changes.ts";
import type { BidiPage } from "./page.ts";

/** The events a page is followed by: its navigations, downloads, dialogs, requests and history (effects), and what changes its screen. */
export const PAGE_EVENTS = [...new Set([...NAVIGATION_EVENTS, ...DOWNLOAD_EVENTS, ...SCREEN_EVENTS, ...EFFECT_EVENTS])];

/** A preload script's function declaration running `source` (an expression or statements). */
export const preloadOf = (source: string): string => `() => {\n${source}\n}`;

/** Installs the page's scripts and applies its shaping before its first document. */
export async function startFirefoxPage(page: BidiPage, userContext: string, config: WebConfig): Promise<void> {
  const c = page.connection;
  const vp = viewportOf(config);
  const refuse = (what: string, error: unknown): never => {
    throw new AdapterUnavailableError(
      `Firefox could not apply the flow's ${what}: ${(error as Error).message}`,
      `remove \`${what}\` from the flow's \`browser:\`, or run it on Chromium (browser: {name: chromium})`,
      { code: "browser-error" },
    );
  };
  const sends: Array<Promise<unknown>> = [
    c.send("session.subscribe", { events: PAGE_EVENTS, contexts: [page.context] }),
    // The task tags first, so that every callback the page schedules is tagged (effect
    // attribution); then the clock and random: the page's own scripts must never see the real ones.
    ...[TASK_ORIGINS_SCRIPT, ...initScripts(config), pageInstaller(), SCREEN_CHANGES_SCRIPT].map((source) =>
      c.send("script.addPreloadScript", { functionDeclaration: preloadOf(source), userContexts: [userContext] }),
    ),
    c.send("script.addPreloadScript", { ...BACKGROUND_BINDING_PRELOAD, userContexts: [userContext] }),
    c.send("script.addPreloadScript", { ...UNLOAD_PRELOAD, userContexts: [userContext] }),
    c
      .send("browsingContext.setViewport", {
        context: page.context,
        viewport: { width: vp.width, height: vp.height },
        devicePixelRatio: vp.device_scale_factor ?? 1,
      })
      .catch((e) => refuse("viewport", e)),
  ];
  if (config.clock?.timezone !== undefined)
    sends.push(
      c.send("emulation.setTimezoneOverride", { timezone: config.clock.timezone, userContexts: [userContext] }).catch((e) => refuse("clock.timezone", e)),
    );
  if (config.user_agent !== undefined)
    sends.push(c.send("emulation.setUserAgentOverride", { userAgent: config.user_agent, userContexts: [userContext] }).catch((e) => refuse("user_agent", e)));
  await Promise.all(sends);
}
