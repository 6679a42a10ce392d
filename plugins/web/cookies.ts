// Cookie facts for `cookie "<name>" exists|does not exist|is [not] httpOnly|secure|persistent`. `checkCookie` is
// pure: it judges the cookies read; `readPageCookie` reads them for the current page. Neither
// sees nor reports a cookie's value.
import type { Session } from "./cdp/connection.ts";
import type { Attempt, Expectation, Reading } from "../../src/plugins/api.ts";

/** What the assertions may know about a cookie: its name and flags, never its value. */
export interface CookieFacts {
  readonly name: string;
  readonly domain: string;
  readonly path: string;
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
    return {
      reading: {
        pass: negate && fact === "exists",
        actual: `no cookie ${JSON.stringify(name)} is set for ${pageUrl}; cookies set: ${names.length > 0 ? names.join(", ") : "none"}`,
      },
    };
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

const domainOf = (d: string) => d.replace(/^\./, "").toLowerCase();
const namesSet = (cookies: readonly CookieFacts[]) => {
  const names = [...new Set(cookies.map((c) => c.name))].sort();
  return names.length > 0 ? names.join(", ") : "none";
};

/** A cookie's domain (a leading dot and case ignored) or path. */
export function checkCookieWhere(cookies: readonly CookieFacts[], name: string, attribute: "domain" | "path", value: string, pageUrl: string): Reading {
  const cookie = cookies.find((c) => c.name === name);
  if (!cookie) return { pass: false, actual: `no cookie ${JSON.stringify(name)} is set for ${pageUrl}; cookies set: ${namesSet(cookies)}` };
  const pass = attribute === "domain" ? domainOf(cookie.domain) === domainOf(value) : cookie.path === value;
  return { pass, actual: `cookie ${JSON.stringify(name)} has ${attribute} ${attribute === "domain" ? cookie.domain : cookie.path}` };
}

/** How many cookies are set, named. */
export function checkCookieCount(cookies: readonly CookieFacts[], count: number, pageUrl: string): Reading {
  return {
    pass: cookies.length === count,
    actual: `${cookies.length} ${cookies.length === 1 ? "cookie is" : "cookies are"} set for ${pageUrl}: ${namesSet(cookies)}`,
  };
}

/** The cookies of the page's current URL (names and flags), or why there are none to check. */
export async function pageCookies(session: Session): Promise<{ url: string; cookies: CookieFacts[] } | Reading> {
  const here = await session.send("Runtime.evaluate", { expression: "location.href", returnByValue: true }).catch(() => undefined);
  const url = typeof here?.result.value === "string" ? here.result.value : "";
  if (!url.startsWith("http")) return { pass: false, actual: `the page (${url || "unknown"}) has no cookies to check` };
  const { cookies } = await session.send("Network.getCookies", { urls: [url] });
  return { url, cookies: cookies.map((c) => ({ name: c.name, domain: c.domain, path: c.path, httpOnly: c.httpOnly, secure: c.secure, session: c.session })) };
}

/** `Set cookie "<name>" to <value>`: a cookie for the page's current URL (http pages only). */
export async function setPageCookie(session: Session, name: string, value: string): Promise<Attempt> {
  const here = await session.send("Runtime.evaluate", { expression: "location.href", returnByValue: true }).catch(() => undefined);
  const url = typeof here?.result.value === "string" ? here.result.value : "";
  if (!url.startsWith("http"))
    return { ok: false, failed: "unsupported", detail: `a cookie cannot be set on ${url || "this page"}: it has no http origin`, retryable: false };
  const { success } = await session.send("Network.setCookie", { name, value, url });
  return success
    ? { ok: true, value: undefined }
    : { ok: false, failed: "unsupported", detail: `the browser refused the cookie ${JSON.stringify(name)} for ${url}`, retryable: false };
}

/** A cookie's domain or path, or how many cookies are set, on the page's current URL. */
export async function readCookies(session: Session, expect: Extract<Expectation, { kind: "cookie_where" | "cookie_count" }>): Promise<Reading> {
  const page = await pageCookies(session);
  if ("pass" in page) return page;
  return expect.kind === "cookie_count"
    ? checkCookieCount(page.cookies, expect.count, page.url)
    : checkCookieWhere(page.cookies, expect.name, expect.attribute, expect.value, page.url);
}

/** One reading of a cookie fact on the page's current URL, with a warning worth logging when it passes. */
export async function readPageCookie(session: Session, name: string, fact: CookieFact, negate = false): Promise<{ reading: Reading; warning?: string }> {
  const page = await pageCookies(session);
  if ("pass" in page) return { reading: page };
  return checkCookie(page.cookies, name, fact, page.url, negate);
}
