// `mock:` rules answered inside the browser: the page's requests pause in CDP `Fetch`, a matching
// rule fulfils them (permissive CORS, preflights answered), everything else continues untouched.
// `matchMock` and `mockResponse` are pure; `interceptMocks` is the only CDP code here.
import type { Session } from "./cdp/connection.ts";
import type { WebMockRule } from "./config.ts";

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
    ...(origin ? [{ name: "Access-Control-Allow-Credentials", value: "true" }, { name: "Vary", value: "Origin" }] : []),
    { name: "Access-Control-Allow-Methods", value: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" },
    { name: "Access-Control-Allow-Headers", value: header(requestHeaders, "access-control-request-headers") ?? "*" },
    { name: "Access-Control-Expose-Headers", value: "*" },
  ];
}

/**
 * The answer for a request, or undefined to let it through. A CORS preflight (OPTIONS with
 * `Access-Control-Request-Method`) for a mocked request is answered 204 so the mocked request follows.
 */
export function mockResponse(rules: readonly WebMockRule[], url: string, method: string, requestHeaders: Readonly<Record<string, string>>): MockResponse | undefined {
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

/** Pauses every request of the page and answers those a rule matches; returns the stop function. */
export async function interceptMocks(session: Session, rules: readonly WebMockRule[]): Promise<() => void> {
  const off = session.on("Fetch.requestPaused", (p) => {
    const answer = mockResponse(rules, p.request.url, p.request.method, p.request.headers);
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
  await session.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
  return off;
}
