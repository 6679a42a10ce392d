// Which browser engine a web flow runs in: `--browser` (FLOWPROOF_BROWSER in the run's
// environment) over the flow's or suite's `browser.name`, Chromium by default. Each engine has its
// protocol (Chromium: the DevTools Protocol, driver.ts; Firefox: WebDriver BiDi, bidi/driver.ts).
// Pure.
import { FlowproofError } from "../../src/plugins/api.ts";

export const BROWSER_NAMES = ["chromium", "firefox"] as const;
export type BrowserName = (typeof BROWSER_NAMES)[number];

export const isBrowserName = (v: unknown): v is BrowserName => typeof v === "string" && (BROWSER_NAMES as readonly string[]).includes(v);

/** How messages name an engine. */
export const BROWSER_TITLES: Readonly<Record<BrowserName, string>> = { chromium: "Chromium", firefox: "Firefox" };

/**
 * The engine of a flow: FLOWPROOF_BROWSER (which `--browser` sets) over `browser.name` as
 * written, else Chromium. An unknown name is an error naming the variable and the choices.
 */
export function chooseBrowser(name: string | undefined, env: Readonly<Record<string, string | undefined>> = {}): BrowserName {
  const fromEnv = env["FLOWPROOF_BROWSER"]?.trim();
  if (fromEnv) {
    if (!isBrowserName(fromEnv))
      throw new FlowproofError({
        code: "bad-value",
        message: `FLOWPROOF_BROWSER=${fromEnv} is not a browser flowproof drives`,
        hint: `FLOWPROOF_BROWSER=${BROWSER_NAMES.join(" or FLOWPROOF_BROWSER=")}`,
      });
    return fromEnv;
  }
  return isBrowserName(name) ? name : "chromium";
}
