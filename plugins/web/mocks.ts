// `mock:` rules answered inside the browser: the page's requests pause in CDP `Fetch`, a matching
// rule fulfils them (permissive CORS, preflights answered), everything else continues untouched.
// The same pause refuses a `file:` URL outside the run's roots (a start page, a link, a frame, an
// image alike) before Chromium reads a byte of it. `matchMock` and `mockResponse` are pure;
// `interceptRequests` is the only CDP code here.
import type { Session } from "./cdp/connection.ts";
import type { WebMockRule } from "./config.ts";
import type { FilePaths } from "../../src/plugins/api.ts";

export interface MockResponse {
  readonly status: number;
  readonly headers: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly body: string;
}

/** The first rule whose substring is in the URL and whose method (when given) is the request's. */
export function matchMock(rules: readonly WebMockRule[], url: string, method: string): WebMockRule | undefined {
  return rules.find((r) => url.includes(r.url_contains) && (r.method === undefined || r.method.toUpperCase() === method.toUpperCase()));
}

const header = (headers: Readonly<Record<string, string>>, name: string): string | undefined => {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
};

function corsHeaders(requestHeaders: Readonly<Record<string, string>>): Array<{ name: string; value: string }> {
  const origin = header(requestHeaders, "origin");
  return [
    // Echoing the origin (rather than `*`) lets credentialed requests through too.
    { name: "Access-Control-Allow-Origin", value: origin ?? "*" },
    ...(origin
      ? [
          { name: "Access-Control-Allow-Credentials", value: "true" },
          { name: "Vary", value: "Origin" },
        ]
      : []),
    { name: "Access-Control-Allow-Methods", value: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" },
    { name: "Access-Control-Allow-Headers", value: header(requestHeaders, "access-control-request-headers") ?? "*" },
    { name: "Access-Control-Expose-Headers", value: "*" },
  ];
}

/**
 * The answer for a request, or undefined to let it through. A CORS preflight (OPTIONS with
 * `Access-Control-Request-Method`) for a mocked request is answered 204 so the mocked request follows.
 */
export function mockResponse(
  rules: readonly WebMockRule[],
  url: string,
  method: string,
  requestHeaders: Readonly<Record<string, string>>,
): MockResponse | undefined {
  const preflightFor = method.toUpperCase() === "OPTIONS" ? header(requestHeaders, "access-control-request-method") : undefined;
  const explicitOptions = rules.some((r) => r.method?.toUpperCase() === "OPTIONS" && url.includes(r.url_contains));
  if (preflightFor !== undefined && !explicitOptions) {
    return matchMock(rules, url, preflightFor) ? { status: 204, headers: corsHeaders(requestHeaders), body: "" } : undefined;
  }
  const rule = matchMock(rules, url, method);
  if (!rule) return undefined;
  const isText = typeof rule.body === "string";
  const body = rule.body === undefined ? "" : isText ? (rule.body as string) : JSON.stringify(rule.body);
  const contentType = rule.content_type ?? (isText || rule.body === undefined ? "text/plain; charset=utf-8" : "application/json");
  return {
    status: rule.status ?? 200,
    headers: [{ name: "Content-Type", value: contentType }, { name: "Cache-Control", value: "no-store" }, ...corsHeaders(requestHeaders)],
    body,
  };
}

/** Why a `file:` URL may not be read (outside the run's roots), or undefined when it may; `refused` hears each refusal. */
export interface FileGate {
  readonly refuses: (url: string) => string | undefined;
  readonly refused: (message: string) => void;
}

/** The `file:` URLs a confined run's page was refused: the gate to pause them with, and the first refusal since the last look. */
export class FileRefusals {
  readonly #files: FilePaths | undefined;
  #first: string | undefined;

  constructor(files: FilePaths | undefined) {
    this.#files = files;
  }

  /** The gate for interceptRequests; none when the run is not confined. */
  gate(): FileGate | undefined {
    const files = this.#files;
    if (!files?.confined) return undefined;
    return { refuses: (url) => files.refusesUrl("the page's file", url), refused: (message) => void (this.#first ??= message) };
  }

  /** The first refusal since the last call (the step fails on it), once. */
  take(): string | undefined {
    const first = this.#first;
    this.#first = undefined;
    return first;
  }
}

/**
 * Pauses the page's requests: every one when there are mock rules (answering those a rule matches),
 * else only `file:` ones when a gate is given; a `file:` URL the gate refuses fails as access denied.
 * Returns the stop function.
 */
export async function interceptRequests(session: Session, rules: readonly WebMockRule[], files?: FileGate): Promise<() => void> {
  if (rules.length === 0 && !files) return () => undefined;
  const off = session.on("Fetch.requestPaused", (p) => {
    const refusal = files?.refuses(p.request.url);
    if (refusal !== undefined) {
      files?.refused(refusal);
      session.send("Fetch.failRequest", { requestId: p.requestId, errorReason: "AccessDenied" }).catch(() => undefined);
      return;
    }
    const answer = rules.length > 0 ? mockResponse(rules, p.request.url, p.request.method, p.request.headers) : undefined;
    const sent = answer
      ? session.send("Fetch.fulfillRequest", {
          requestId: p.requestId,
          responseCode: answer.status,
          responseHeaders: [...answer.headers],
          body: Buffer.from(answer.body, "utf8").toString("base64"),
        })
      : session.send("Fetch.continueRequest", { requestId: p.requestId });
    // The page may navigate or close while a request is paused; its request is then gone too.
    sent.catch(() => undefined);
  });
  await session.send("Fetch.enable", { patterns: [{ urlPattern: rules.length > 0 ? "*" : "file://*", requestStage: "Request" }] });
  return off;
}
