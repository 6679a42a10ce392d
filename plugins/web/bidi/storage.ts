// Cookies and storage in Firefox (`storage.*` in the page's user context): cookie facts judged by
// the same rules as on Chromium (cookies.ts: names and flags, never a value), `Set cookie`,
// clearing, and the flow's `session:` seed before its first document.
import { FlowproofError, type Attempt, type Expectation, type Reading } from "../../../src/plugins/api.ts";
import type { WebConfig } from "../config.ts";
import { checkCookie, checkCookieCount, checkCookieWhere, type CookieFacts } from "../cookies.ts";
import { seedLocalStorage } from "../injected/init-scripts.ts";
import { fail, ok } from "../page-calls.ts";
import { pageOrigin } from "../page-setup.ts";
import type { BidiConnection } from "./connection.ts";
import type { BidiPage } from "./page.ts";
import { preloadOf } from "./page-start.ts";

interface BidiCookie {
  readonly name: string;
  readonly domain: string;
  readonly path: string;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly expiry?: number;
}

/** Whether a cookie of `domain` and `path` is sent to `url` (RFC 6265 domain and path match). */
export function cookieMatches(cookie: Pick<BidiCookie, "domain" | "path">, url: string): boolean {
  const u = new URL(url);
  const domain = cookie.domain.replace(/^\./, "").toLowerCase();
  const host = u.hostname.toLowerCase();
  const path = cookie.path || "/";
  const domainOk = host === domain || host.endsWith(`.${domain}`);
  const pathOk = u.pathname === path || u.pathname.startsWith(path.endsWith("/") ? path : `${path}/`);
  return domainOk && pathOk;
}

export class FirefoxStorage {
  readonly #connection: BidiConnection;
  readonly #page: BidiPage;
  readonly #userContext: string;

  constructor(page: BidiPage, userContext: string) {
    this.#connection = page.connection;
    this.#page = page;
    this.#userContext = userContext;
  }

  get #partition() {
    return { type: "storageKey", userContext: this.#userContext };
  }

  async #here(): Promise<string> {
    return (await this.#page.tryEvaluate<string>("location.href")) ?? "";
  }

  /** The cookies sent to the page's current URL (names and flags), or why there are none to check. */
  async #cookies(): Promise<{ url: string; cookies: CookieFacts[] } | Reading> {
    const url = await this.#here();
    if (!url.startsWith("http")) return { pass: false, actual: `the page (${url || "unknown"}) has no cookies to check` };
    const { cookies } = await this.#connection.send<{ cookies: BidiCookie[] }>("storage.getCookies", { partition: this.#partition });
    return {
      url,
      cookies: cookies
        .filter((c) => cookieMatches(c, url))
        .map((c) => ({ name: c.name, domain: c.domain, path: c.path, httpOnly: c.httpOnly, secure: c.secure, session: c.expiry === undefined })),
    };
  }

  async check(expect: Extract<Expectation, { kind: "cookie" | "cookie_where" | "cookie_count" }>, log: (line: string) => void): Promise<Reading> {
    const page = await this.#cookies();
    if ("pass" in page) return page;
    if (expect.kind === "cookie_count") return checkCookieCount(page.cookies, expect.count, page.url);
    if (expect.kind === "cookie_where") return checkCookieWhere(page.cookies, expect.name, expect.attribute, expect.value, page.url);
    const { reading, warning } = checkCookie(page.cookies, expect.name, expect.fact, page.url, expect.negate === true);
    if (reading.pass && warning) log(warning);
    return reading;
  }

  /** `Set cookie "<name>" to <value>`: a cookie for the page's current URL (http pages only). */
  async setCookie(name: string, value: string): Promise<Attempt> {
    const url = await this.#here();
    if (!url.startsWith("http")) return fail("unsupported", `a cookie cannot be set on ${url || "this page"}: it has no http origin`, false);
    await this.#connection.send("storage.setCookie", {
      cookie: { name, value: { type: "string", value }, domain: new URL(url).hostname, path: "/" },
      partition: this.#partition,
    });
    return ok(undefined);
  }

  /** Empties the page origin's localStorage / sessionStorage, or every cookie of the flow's user context. */
  async clear(what: "local" | "session" | "cookies"): Promise<Attempt> {
    if (what === "cookies") {
      await this.#connection.send("storage.deleteCookies", { partition: this.#partition });
      return ok(undefined);
    }
    const area = what === "local" ? "localStorage" : "sessionStorage";
    const left = await this.#page.tryEvaluate<number | string>(`(() => { try { ${area}.clear(); return ${area}.length; } catch (e) { return String(e); } })()`);
    if (left === 0) return ok(undefined);
    return fail(
      "unsupported",
      typeof left === "string" ? `${what} storage cannot be cleared on this page: ${left}` : `${what} storage still holds ${String(left)} keys after clearing`,
      false,
    );
  }

  /**
   * Seeds `session:` for the first document at `startUrl`: cookies in the user context, and
   * localStorage by a preload script limited to the start URL's origin. Returns the undo of that
   * script (called once the document loaded, so the seed is applied once).
   */
  async seed(config: WebConfig, startUrl: string): Promise<() => Promise<void>> {
    const host = new URL(startUrl).hostname;
    for (const c of config.session?.cookies ?? [])
      await this.#connection
        .send("storage.setCookie", {
          cookie: { name: c.name, value: { type: "string", value: c.value }, domain: c.domain ?? host, path: "/" },
          partition: this.#partition,
        })
        .catch(() => {
          // The browser's message may quote the cookie: only its name is told.
          throw new FlowproofError({ code: "browser-error", message: `Firefox refused the session cookie ${JSON.stringify(c.name)} for ${c.domain ?? host}` });
        });
    const items = config.session?.local_storage;
    if (!items || Object.keys(items).length === 0) return async () => undefined;
    const { script } = await this.#connection.send<{ script: string }>("script.addPreloadScript", {
      functionDeclaration: preloadOf(`(${seedLocalStorage.toString()})(${JSON.stringify(pageOrigin(startUrl))}, ${JSON.stringify(items)});`),
      contexts: [this.#page.context],
    });
    return async () => {
      await this.#connection.send("script.removePreloadScript", { script }).catch(() => undefined);
    };
  }
}
