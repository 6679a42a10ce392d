// Cookie facts for `cookie "<name>" exists|does not exist|is [not] httpOnly|secure|persistent`. `checkCookie` is
// pure: it judges the cookies read; `readPageCookie` reads them for the current page. Neither
// sees nor reports a cookie's value.
import type { Session } from "./cdp/connection.ts";
import type { Reading } from "../../src/plugins/api.ts";

/** What the assertions may know about a cookie: its name and flags, never its value. */
export interface CookieFacts {
  readonly name: string;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  /** True for a session cookie (no Expires / Max-Age). */
  readonly session: boolean;
}

export type CookieFact = "exists" | "http_only" | "secure" | "persistent";

const FACT_WORDING: Record<Exclude<CookieFact, "exists">, [string, string]> = {
  http_only: ["httpOnly", "readable by page scripts (not httpOnly)"],
  secure: ["secure", "not secure (sent over plain http too)"],
  persistent: ["persistent", "a session cookie (no Expires or Max-Age)"],
};

/** One reading of a cookie fact; `warning` when a pass certifies nothing (secure over plain http). */
export function checkCookie(
  cookies: readonly CookieFacts[],
  name: string,
  fact: CookieFact,
  pageUrl: string,
  negate = false,
): { reading: { pass: boolean; actual: string }; warning?: string } {
  const cookie = cookies.find((c) => c.name === name);
  if (!cookie) {
    const names = [...new Set(cookies.map((c) => c.name))].sort();
    // `does not exist` holds; `is not httpOnly` (any negated flag) needs the cookie to be there.
    return { reading: { pass: negate && fact === "exists", actual: `no cookie ${JSON.stringify(name)} is set for ${pageUrl}; cookies set: ${names.length > 0 ? names.join(", ") : "none"}` } };
  }
  if (fact === "exists") return { reading: { pass: !negate, actual: `cookie ${JSON.stringify(name)} is set` } };
  const holds = fact === "http_only" ? cookie.httpOnly : fact === "secure" ? cookie.secure : !cookie.session;
  const [yes, no] = FACT_WORDING[fact];
  const reading = { pass: holds !== negate, actual: `cookie ${JSON.stringify(name)} is ${holds ? yes : no}` };
  if (holds && !negate && fact === "secure" && pageUrl.startsWith("http:")) {
    return {
      reading,
      warning: `warning: cookie ${JSON.stringify(name)} is secure, but the page was served over plain http (${new URL(pageUrl).host}); browsers exempt local hosts, so this certifies nothing about production`,
    };
  }
  return { reading };
}

/** One reading of a cookie fact on the page's current URL, with a warning worth logging when it passes. */
export async function readPageCookie(session: Session, name: string, fact: CookieFact, negate = false): Promise<{ reading: Reading; warning?: string }> {
  const here = await session.send("Runtime.evaluate", { expression: "location.href", returnByValue: true }).catch(() => undefined);
  const url = typeof here?.result.value === "string" ? here.result.value : "";
  if (!url.startsWith("http")) return { reading: { pass: false, actual: `the page (${url || "unknown"}) has no cookies to check` } };
  const { cookies } = await session.send("Network.getCookies", { urls: [url] });
  const facts: CookieFacts[] = cookies.map((c) => ({ name: c.name, httpOnly: c.httpOnly, secure: c.secure, session: c.session }));
  return checkCookie(facts, name, fact, url, negate);
}
