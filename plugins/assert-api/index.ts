// `assert_api`: one HTTP request per attempt and its checks in the documented order (status,
// body_contains, body_json, header). Reads are polled by the engine; writes are sent exactly once
// unless `retry: true`. The response never leaves the comparison except to the leak scan. Each
// answered request is reported to the surface (its method and URL: an api surface keeps a write's
// method and normalised path as the step's effect).
import { defineAssertion, type ArgumentProblem, type AttemptPolicy, type Verdict } from "../../src/plugins/api.ts";
import { checkJson, type JsonCheck } from "./json-path.ts";

export interface ApiArgs {
  readonly request: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly status?: number;
  readonly body_contains?: string;
  readonly body_json?: string;
  readonly equals?: string | number | boolean;
  readonly count?: number;
  readonly count_at_least?: number;
  readonly header?: string;
  readonly header_equals?: string;
  readonly header_contains?: string;
  readonly retry?: boolean;
  readonly timeout_seconds?: number;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const NO_BODY = ["GET", "HEAD", "DELETE"];
const READS = ["GET", "HEAD", "OPTIONS"];
/** One attempt's own network bound; the engine's bound governs the step. */
const REQUEST_TIMEOUT_MS = 30_000;

export const schema = {
  type: "object",
  required: ["request"],
  additionalProperties: false,
  properties: {
    request: { type: "string", description: "`METHOD url`, e.g. `GET ${API}/orders/1`" },
    headers: { type: "object", additionalProperties: { type: "string" } },
    body: { description: "any YAML, sent as JSON" },
    status: { type: "integer", minimum: 100, maximum: 599 },
    body_contains: { type: "string" },
    body_json: { type: "string", minLength: 1 },
    equals: { type: ["string", "number", "boolean"] },
    count: { type: "integer", minimum: 0 },
    count_at_least: { type: "integer", minimum: 0 },
    header: { type: "string", minLength: 1 },
    header_equals: { type: "string" },
    header_contains: { type: "string" },
    retry: { type: "boolean" },
    timeout_seconds: { type: "number", minimum: 0 },
  },
} as const;

/** `GET http://…` → method (upper-cased) and url; undefined when malformed. */
export function parseRequest(request: string): { method: string; url: string } | undefined {
  const m = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(request);
  if (!m) return undefined;
  const method = m[1]!.toUpperCase();
  return (METHODS as readonly string[]).includes(method) ? { method, url: m[2]! } : undefined;
}

export function checkArgs(a: ApiArgs): ArgumentProblem[] {
  const out: ArgumentProblem[] = [];
  const req = parseRequest(a.request);
  if (!req)
    out.push({
      path: ["request"],
      message: `\`request\` must be \`METHOD url\` with a method of ${METHODS.join(", ")}`,
      hint: "request: GET ${API}/orders/4711",
    });
  else if (a.body !== undefined && NO_BODY.includes(req.method)) {
    out.push({ path: ["body"], message: `a ${req.method} request cannot carry a \`body\``, hint: "remove `body:`, or use POST, PUT or PATCH" });
  }
  if (a.equals !== undefined && a.body_json === undefined)
    out.push({ path: ["equals"], message: "`equals` needs `body_json` (the path of the value it compares)", hint: "add `body_json: results.0.balance`" });
  for (const k of ["count", "count_at_least"] as const) {
    if (a[k] !== undefined && a.equals !== undefined)
      out.push({ path: [k], message: `\`${k}\` and \`equals\` cannot go together: one counts an array, the other compares a leaf`, hint: "use two steps" });
  }
  if (a.count !== undefined && a.count_at_least !== undefined)
    out.push({ path: ["count_at_least"], message: "`count` and `count_at_least` are mutually exclusive", hint: "keep one of them" });
  for (const k of ["header_equals", "header_contains"] as const) {
    if (a[k] !== undefined && a.header === undefined)
      out.push({ path: [k], message: `\`${k}\` needs \`header\` (the response header's name)`, hint: "add `header: Content-Type`" });
  }
  if (a.header_equals !== undefined && a.header_contains !== undefined)
    out.push({ path: ["header_contains"], message: "`header_equals` and `header_contains` are mutually exclusive", hint: "keep one of them" });
  if (a.body_json !== undefined && a.body_json.split(".").some((s) => s === "")) {
    out.push({
      path: ["body_json"],
      message: "`body_json` is a dotted path of object keys and array indices, with no empty segment",
      hint: "body_json: results.0.balance",
    });
  }
  return out;
}

export function policyOf(a: ApiArgs): AttemptPolicy {
  if (a.retry !== undefined) return a.retry ? "poll" : "once";
  const req = parseRequest(a.request);
  return req && READS.includes(req.method) ? "poll" : "once";
}

const fail = (expected: string, actual: string, extra: { hint?: string; retryable?: boolean } = {}): Verdict => ({ pass: false, expected, actual, ...extra });

export const plugin = defineAssertion<ApiArgs>({
  key: "assert_api",
  schema,
  check: checkArgs,
  policy: policyOf,
  async run(a, ctx) {
    const req = parseRequest(a.request);
    if (!req) return fail("a request `METHOD url`", `the request ${JSON.stringify(a.request)} is not \`METHOD url\``, { retryable: false });
    const headers = new Headers(a.headers ?? {});
    let body: string | undefined;
    if (a.body !== undefined) {
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      body = typeof a.body === "string" && !/json/i.test(headers.get("content-type") ?? "") ? a.body : JSON.stringify(a.body);
    }
    let res: Response;
    try {
      res = await fetch(req.url, { method: req.method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (error) {
      return fail(`a response from ${req.method} ${req.url}`, `the request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Answered: the request was sent, as written (a redirect's later hops are the same request).
    ctx.sent?.(req.method, req.url);
    const text = req.method === "HEAD" ? "" : await res.text();
    ctx.observe("assert_api response body", text);
    const status = res.status;
    if (a.status !== undefined ? status !== a.status : status < 200 || status > 299) {
      return fail(a.status !== undefined ? `status ${a.status}` : "a 2xx status", `response status was ${status}`);
    }
    if (a.body_contains !== undefined && !text.includes(a.body_contains)) {
      return fail(
        `the body to contain ${JSON.stringify(a.body_contains)}`,
        `response body does not contain ${JSON.stringify(a.body_contains)} (status ${status})`,
      );
    }
    if (a.body_json !== undefined || a.count !== undefined || a.count_at_least !== undefined) {
      const check: JsonCheck =
        a.count !== undefined
          ? { kind: "count", exactly: a.count }
          : a.count_at_least !== undefined
            ? { kind: "count", atLeast: a.count_at_least }
            : a.equals !== undefined
              ? { kind: "equals", value: a.equals }
              : { kind: "exists" };
      const problem = checkJson(text, a.body_json, check);
      if (problem) return fail(problem.expected, problem.actual);
    }
    if (a.header !== undefined) {
      const value = res.headers.get(a.header);
      if (value === null) return fail(`a '${a.header}' header`, `response has no '${a.header}' header (status ${status})`);
      const op = a.header_equals !== undefined ? "equals" : a.header_contains !== undefined ? "contains" : undefined;
      const want = a.header_equals ?? a.header_contains;
      if (op && want !== undefined && !(op === "equals" ? value === want : value.includes(want))) {
        return fail(`${op} '${want}'`, `header '${a.header}' is '${value}', expected ${op} '${want}' (status ${status})`);
      }
    }
    return { pass: true };
  },
});
