// A web flow's starting conditions: `mock:` rules, the `session:` seed and the `browser:` shape.
// Validated here with spans; kept as written (`${VAR}`s raw) so they travel into the trace header
// and every replay applies the same shape. Pure: no fs, no env, no clock.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, spanOf, type Node, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import { bad, boolean, entries, integer, list, literal, missing, positive, template, text, type Fields } from "./fields.ts";

/** One `mock:` rule: requests whose URL contains `url_contains` (and of `method`, when given) are answered in the browser. */
export interface FlowMockRule {
  readonly url_contains: string;
  /** Upper-case HTTP method; any method when absent. */
  readonly method?: string;
  /** Default 200. */
  readonly status?: number;
  readonly content_type?: string;
  /** Any YAML: a string is served verbatim (text/plain), anything else as JSON. */
  readonly body?: unknown;
}

export interface FlowCookie {
  readonly name: string;
  /** As written; `${VAR}` resolved when the cookie is set, never stored resolved. */
  readonly value: string;
  /** The cookie's domain; absent = the host of the flow's start URL. */
  readonly domain?: string;
}

export interface FlowSession {
  readonly cookies?: readonly FlowCookie[];
  /** Seeded into the start URL's origin before its first page script runs; values as written. */
  readonly local_storage?: Readonly<Record<string, string>>;
}

export interface FlowBrowser {
  readonly viewport?: { readonly width: number; readonly height: number; readonly device_scale_factor?: number; readonly mobile?: boolean; readonly touch?: boolean };
  readonly user_agent?: string;
  readonly args?: readonly string[];
  readonly clock?: { readonly at: string; readonly timezone?: string };
  readonly random?: { readonly seed: number };
  /** Relative to the flow file. */
  readonly downloads_dir?: string;
  /** ws(s):// or http(s):// DevTools endpoint of a running Chromium; may be a `${VAR}`. */
  readonly endpoint?: string;
}

const MOCK_EXAMPLE = "mock:\n  - url_contains: /api/rates\n    method: GET\n    status: 200\n    body: { rate: 1.23 }";
const SESSION_EXAMPLE = "session:\n  cookies:\n    - { name: sid, value: \"${SESSION_ID}\" }\n  local_storage:\n    cart: '[\"sku-1\"]'";
const BROWSER_KEYS = ["viewport", "user_agent", "args", "clock", "random", "downloads_dir", "endpoint"] as const;
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
/** Flags flowproof itself sets to drive the browser; a flow cannot change them. */
const RESERVED_ARGS = ["--remote-debugging-port", "--remote-debugging-pipe", "--user-data-dir", "--headless", "--no-startup-window"];
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const MAX_U32 = 4_294_967_295;

export function loadMock(source: YamlSource, node: Node | null, problems: Diagnostic[]): FlowMockRule[] {
  const f: Fields = { source, problems };
  const items = list(f, { key: node as Node, value: node }, "mock", MOCK_EXAMPLE);
  const rules: FlowMockRule[] = [];
  for (const item of items ?? []) {
    const e = entries(f, item, "a mock rule", ["url_contains", "method", "status", "content_type", "body"], MOCK_EXAMPLE);
    if (!e) continue;
    const urlEntry = e.get("url_contains");
    const url = urlEntry ? literal(f, urlEntry, "url_contains", "url_contains: /api/rates") : missing(f, item, "a mock rule", "url_contains", "url_contains: /api/rates   # a substring of the request URL");
    let method: string | undefined;
    const m = e.get("method");
    if (m) {
      const written = text(f, m, "method", "method: GET");
      if (written !== undefined && !METHODS.includes(written.toUpperCase())) bad(f, m.value, `\`method\` must be one of ${METHODS.join(", ")}`, "method: POST");
      else method = written?.toUpperCase();
    }
    const s = e.get("status");
    const status = s ? integer(f, s, "status", 100, 599, "status: 404") : undefined;
    const c = e.get("content_type");
    const contentType = c ? literal(f, c, "content_type", "content_type: application/json") : undefined;
    const b = e.get("body");
    if (url === undefined) continue;
    rules.push({
      url_contains: url,
      ...(method ? { method } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(contentType !== undefined ? { content_type: contentType } : {}),
      ...(b && b.value ? { body: b.value.toJSON() as unknown } : {}),
    });
  }
  return rules;
}

/** The governing suite's identities, for `session: <name>`. */
export interface SuiteIdentities {
  /** The suite file, as shown in messages. */
  readonly file: string;
  readonly identities: Readonly<Record<string, FlowSession>>;
}

/**
 * `session:` inline, or `session: <name>` dereferenced from the governing suite's `identities`
 * (the identity's shape is returned as written, so the trace header gets the resolved shape).
 */
export function loadSession(source: YamlSource, node: Node | null, problems: Diagnostic[], suite?: SuiteIdentities): FlowSession | undefined {
  const f: Fields = { source, problems };
  if (isScalar(node) && typeof node.value === "string") {
    if (!suite) return bad(f, node, `\`session: ${node.value}\` names an identity of a suite's \`identities:\`, and this flow has no governing suite.yaml that declares it`, `write the session inline:\n${SESSION_EXAMPLE}`);
    const found = Object.hasOwn(suite.identities, node.value) ? suite.identities[node.value] : undefined;
    if (found) return structuredClone(found) as FlowSession;
    const names = Object.keys(suite.identities);
    const guess = nearest(node.value, names);
    return bad(f, node, `no identity \`${node.value}\` in the \`identities:\` of ${suite.file}`, names.length > 0
      ? `${guess ? `did you mean \`${guess}\`? ` : ""}declared identities: ${names.join(", ")}`
      : `${suite.file} declares no identities; add one under \`identities:\`, or write the session inline`);
  }
  const e = entries(f, node, "`session`", ["cookies", "local_storage"], SESSION_EXAMPLE);
  if (!e) return undefined;
  const out: { cookies?: FlowCookie[]; local_storage?: Record<string, string> } = {};
  const c = e.get("cookies");
  if (c) {
    const cookies: FlowCookie[] = [];
    for (const item of list(f, c, "cookies", SESSION_EXAMPLE) ?? []) {
      const ce = entries(f, item, "a session cookie", ["name", "value", "domain"], "- { name: sid, value: \"${SESSION_ID}\", domain: 127.0.0.1 }");
      if (!ce) continue;
      const n = ce.get("name");
      const name = n ? literal(f, n, "name", "name: sid") : missing(f, item, "a session cookie", "name", "name: sid");
      if (name !== undefined && /[\s=;,]/.test(name)) bad(f, n?.value, "a cookie `name` cannot contain spaces, `=`, `;` or `,`", "name: session_id");
      const v = ce.get("value");
      const value = v ? template(f, v, "value", "value: \"${SESSION_ID}\"", true) : missing(f, item, "a session cookie", "value", "value: \"${SESSION_ID}\"");
      const d = ce.get("domain");
      const domain = d ? literal(f, d, "domain", "domain: 127.0.0.1") : undefined;
      if (name !== undefined && value !== undefined) cookies.push({ name, value, ...(domain !== undefined ? { domain } : {}) });
    }
    out.cookies = cookies;
  }
  const ls = e.get("local_storage");
  if (ls) {
    if (!isMap(ls.value)) bad(f, ls.value ?? ls.key, "`local_storage` must be a mapping of keys to string values", "local_storage:\n  cart: '[\"sku-1\"]'");
    if (isMap(ls.value)) {
      const storage: Record<string, string> = {};
      for (const pair of ls.value.items) {
        const keyNode = pair.key as Node;
        const key = isScalar(keyNode) ? String(keyNode.value) : "";
        const value = template(f, { key: keyNode, value: pair.value as Node | null }, key, `${key || "cart"}: '[\"sku-1\"]'   # a string; quote JSON`, true);
        if (value !== undefined) storage[key] = value;
      }
      out.local_storage = storage;
    }
  }
  return out;
}

export function loadBrowser(source: YamlSource, node: Node | null, problems: Diagnostic[]): FlowBrowser | undefined {
  const f: Fields = { source, problems };
  const e = entries(f, node, "`browser`", BROWSER_KEYS, "browser:\n  viewport: { width: 390, height: 844 }");
  if (!e) return undefined;
  const out: {
    viewport?: NonNullable<FlowBrowser["viewport"]>; user_agent?: string; args?: string[]; clock?: NonNullable<FlowBrowser["clock"]>;
    random?: NonNullable<FlowBrowser["random"]>; downloads_dir?: string; endpoint?: string;
  } = {};
  const vp = e.get("viewport");
  if (vp) {
    const hint = "viewport: { width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true }";
    const v = entries(f, vp.value, "`viewport`", ["width", "height", "device_scale_factor", "mobile", "touch"], hint);
    if (v) {
      const w = v.get("width");
      const h = v.get("height");
      const width = w ? integer(f, w, "width", 1, 10_000, "width: 390") : missing(f, vp.value, "`viewport`", "width", hint);
      const height = h ? integer(f, h, "height", 1, 10_000, "height: 844") : missing(f, vp.value, "`viewport`", "height", hint);
      const dsf = v.get("device_scale_factor");
      const scale = dsf ? positive(f, dsf, "device_scale_factor", 10, "device_scale_factor: 2") : undefined;
      const mo = v.get("mobile");
      const mobile = mo ? boolean(f, mo, "mobile") : undefined;
      const to = v.get("touch");
      const touch = to ? boolean(f, to, "touch") : undefined;
      if (width !== undefined && height !== undefined) {
        out.viewport = { width, height, ...(scale !== undefined ? { device_scale_factor: scale } : {}), ...(mobile !== undefined ? { mobile } : {}), ...(touch !== undefined ? { touch } : {}) };
      }
    }
  }
  const ua = e.get("user_agent");
  if (ua) {
    const value = literal(f, ua, "user_agent", "user_agent: Mozilla/5.0 (flowproof)");
    if (value !== undefined) out.user_agent = value;
  }
  const a = e.get("args");
  if (a) {
    const args: string[] = [];
    for (const item of list(f, a, "args", "args: [\"--lang=en-US\"]") ?? []) {
      if (!isScalar(item) || typeof item.value !== "string" || !item.value.startsWith("--")) {
        bad(f, item, "each of `args` must be a Chromium flag starting with `--`", "args: [\"--lang=en-US\"]");
        continue;
      }
      const flag = item.value.split("=")[0]!;
      if (RESERVED_ARGS.includes(flag)) {
        bad(f, item, `\`${flag}\` is set by flowproof itself to drive the browser`, "remove it; to use a browser you started yourself, set `endpoint:` to its DevTools URL");
        continue;
      }
      args.push(item.value);
    }
    out.args = args;
  }
  const c = e.get("clock");
  if (c) {
    const hint = "clock: { at: \"2026-01-15T12:00:00Z\", timezone: Europe/Berlin }";
    const ce = entries(f, c.value, "`clock`", ["at", "timezone"], hint);
    if (ce) {
      const atEntry = ce.get("at");
      let at = atEntry ? literal(f, atEntry, "at", "at: \"2026-01-15T12:00:00Z\"") : missing(f, c.value, "`clock`", "at", hint);
      if (at !== undefined && (!RFC3339.test(at) || Number.isNaN(Date.parse(at)))) {
        at = bad(f, atEntry?.value, `\`at\` must be an RFC 3339 date and time such as 2026-01-15T12:00:00Z, not ${JSON.stringify(at)}`, "at: \"2026-01-15T12:00:00Z\"   # a mid-day time keeps the date the same in every timezone");
      }
      const tzEntry = ce.get("timezone");
      let timezone = tzEntry ? literal(f, tzEntry, "timezone", "timezone: Europe/Berlin") : undefined;
      if (timezone !== undefined && !isTimeZone(timezone)) {
        timezone = bad(f, tzEntry?.value, `\`timezone\` ${JSON.stringify(timezone)} is not an IANA time zone`, "timezone: Europe/Berlin   # or UTC, America/New_York, Asia/Tokyo");
      }
      if (at !== undefined) out.clock = { at, ...(timezone !== undefined ? { timezone } : {}) };
    }
  }
  const r = e.get("random");
  if (r) {
    const re = entries(f, r.value, "`random`", ["seed"], "random: { seed: 1234 }");
    if (re) {
      const s = re.get("seed");
      const seed = s ? integer(f, s, "seed", 0, MAX_U32, "seed: 1234") : missing(f, r.value, "`random`", "seed", "random: { seed: 1234 }");
      if (seed !== undefined) out.random = { seed };
    }
  }
  const d = e.get("downloads_dir");
  if (d) {
    const dir = literal(f, d, "downloads_dir", "downloads_dir: downloads   # relative to the flow file");
    if (dir !== undefined) out.downloads_dir = dir;
  }
  const ep = e.get("endpoint");
  if (ep) {
    const hint = "endpoint: http://127.0.0.1:9222   # or ws://…/devtools/browser/<id>, or ${BROWSER_ENDPOINT}";
    const url = template(f, ep, "endpoint", hint);
    if (url !== undefined && !url.startsWith("${") && !/^(wss?|https?):\/\/[^/\s]+/i.test(url)) bad(f, ep.value, "`endpoint` must be a ws://, wss://, http:// or https:// DevTools URL", hint);
    else if (url !== undefined) out.endpoint = url;
    if (a) {
      bad(f, a.key, "`args` cannot be passed to a browser flowproof connects to (`endpoint:`); it was started with its own flags", "remove `args:`, or start that browser with those flags yourself");
    }
  }
  return out;
}

/** Whether the runtime's time zone database knows `tz` (a data lookup, no I/O). */
function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false; // RangeError: unknown time zone — reported by the caller
  }
}

/** What a governing suite gives its flows' own keys: `browser:` for a flow without one, and the `identities` `session: <name>` reads. */
export interface FlowSuiteDefaults {
  /** The suite file, as shown in messages. */
  readonly file: string;
  readonly browser?: FlowBrowser;
  readonly identities?: Readonly<Record<string, FlowSession>>;
}

/** `mock:`, `session:` and `browser:` shape a browser: web flows only. */
export function loadShaping(source: YamlSource, values: Map<string, Node | null>, app: string | undefined, problems: Diagnostic[], suite: FlowSuiteDefaults | undefined): { mock?: readonly FlowMockRule[]; session?: FlowSession; browser?: FlowBrowser } {
  const out: { mock?: readonly FlowMockRule[]; session?: FlowSession; browser?: FlowBrowser } = {};
  // In file order, so the problems of the blocks are reported as they appear.
  for (const [key, node] of values) {
    if (key !== "mock" && key !== "session" && key !== "browser") continue;
    if (app !== undefined && app !== "web") {
      problems.push(diagnostic("unsupported-feature", `\`${key}:\` shapes the browser of a web flow; app \`${app}\` has no browser`, {
        span: spanOf(source, node), hint: `remove \`${key}:\`, or use \`app: web\``,
      }));
      continue;
    }
    if (key === "mock") out.mock = loadMock(source, node, problems);
    else if (key === "session") {
      const session = loadSession(source, node, problems, suite ? { file: suite.file, identities: suite.identities ?? {} } : undefined);
      if (session) out.session = session;
    } else {
      const browser = loadBrowser(source, node, problems);
      if (browser) out.browser = browser;
    }
  }
  // The suite's `browser:` shapes a web flow without its own block; a flow's block wins outright (no merge).
  if (!values.has("browser") && suite?.browser && app === "web") out.browser = structuredClone(suite.browser) as FlowBrowser;
  return out;
}
