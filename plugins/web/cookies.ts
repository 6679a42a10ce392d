// Cookie facts for `cookie "<name>" exists|is httpOnly|is secure|is persistent`. Pure: judges the
// cookies the driver read; never sees or reports a cookie's value.

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
): { reading: { pass: boolean; actual: string }; warning?: string } {
  const cookie = cookies.find((c) => c.name === name);
  if (!cookie) {
    const names = [...new Set(cookies.map((c) => c.name))].sort();
    return { reading: { pass: false, actual: `no cookie ${JSON.stringify(name)} is set for ${pageUrl}; cookies set: ${names.length > 0 ? names.join(", ") : "none"}` } };
  }
  if (fact === "exists") return { reading: { pass: true, actual: `cookie ${JSON.stringify(name)} is set` } };
  const holds = fact === "http_only" ? cookie.httpOnly : fact === "secure" ? cookie.secure : !cookie.session;
  const [yes, no] = FACT_WORDING[fact];
  const reading = { pass: holds, actual: `cookie ${JSON.stringify(name)} is ${holds ? yes : no}` };
  if (holds && fact === "secure" && pageUrl.startsWith("http:")) {
    return {
      reading,
      warning: `warning: cookie ${JSON.stringify(name)} is secure, but the page was served over plain http (${new URL(pageUrl).host}); browsers exempt local hosts, so this certifies nothing about production`,
    };
  }
  return { reading };
}
