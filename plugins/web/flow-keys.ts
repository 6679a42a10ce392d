// The web adapter's flow keys: `url:` (the start page), `browser:` (the browser's shape), `mock:`
// (requests answered in the browser) and `session:` (cookies and storage seeded before the first
// page script), as TypeBox schemas with their roles, plus the checks a schema cannot say.
// Pure: keys as written in, problems out (docs/flow-format.md, "Shaping the browser").
import { keyRole, Type, type AdapterKeys, type ArgumentProblem } from "../../src/plugins/api.ts";
import { BROWSER_NAMES } from "./browser-choice.ts";

const Viewport = Type.Object(
  {
    width: Type.Integer({ minimum: 1, maximum: 10_000, examples: ["390"] }),
    height: Type.Integer({ minimum: 1, maximum: 10_000, examples: ["844"] }),
    device_scale_factor: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10, examples: ["2"] })),
    mobile: Type.Optional(Type.Boolean({ examples: ["true"] })),
    touch: Type.Optional(Type.Boolean({ examples: ["true"] })),
  },
  { additionalProperties: false, examples: ["{ width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true }"] },
);

/** `browser:` of a flow, of a suite, or of one web surface under `apps:`. */
export const BrowserSchema = Type.Object(
  {
    name: Type.Optional(
      Type.Union([Type.Literal("chromium"), Type.Literal("firefox")], {
        description:
          "The browser engine: chromium (the default, over the DevTools Protocol) or firefox (over WebDriver BiDi); --browser and FLOWPROOF_BROWSER override it; written here, a suite's `browsers:` list runs the flow in this browser only (docs/browsers.md).",
        examples: ["firefox"],
      }),
    ),
    viewport: Type.Optional(Viewport),
    user_agent: Type.Optional(Type.String({ minLength: 1, examples: ["Mozilla/5.0 (flowproof)"] })),
    args: Type.Optional(
      Type.Array(Type.String({ pattern: "^--" }), { description: "Extra Chromium flags; the flow gets a private browser.", examples: ['["--lang=en-US"]'] }),
    ),
    clock: Type.Optional(
      Type.Object(
        {
          at: Type.String({ description: "RFC 3339, e.g. 2026-01-15T12:00:00Z (a mid-day time).", examples: ['"2026-01-15T12:00:00Z"'] }),
          timezone: Type.Optional(Type.String({ minLength: 1, description: "IANA id, e.g. Europe/Berlin.", examples: ["Europe/Berlin"] })),
        },
        { additionalProperties: false, examples: ['{ at: "2026-01-15T12:00:00Z", timezone: Europe/Berlin }'] },
      ),
    ),
    random: Type.Optional(
      Type.Object(
        { seed: Type.Integer({ minimum: 0, maximum: 4294967295, examples: ["1234"] }) },
        { additionalProperties: false, examples: ["{ seed: 1234 }"] },
      ),
    ),
    downloads_dir: Type.Optional(
      Type.String({
        minLength: 1,
        description: "Where downloads land, relative to the flow file.",
        examples: ["downloads"],
        ...keyRole({ path: "flow-relative" }),
      }),
    ),
    endpoint: Type.Optional(
      Type.String({
        minLength: 1,
        description: "ws:// or http:// DevTools URL of a running Chromium to use instead of launching one; may be a ${VAR}.",
        examples: ["http://127.0.0.1:9222"],
        ...keyRole({ references: "env" }),
      }),
    ),
    grid: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "A Selenium Grid 4 URL: each flow runs in a W3C session of its own there (docs/grid.md); credentials only through a ${VAR}. FLOWPROOF_GRID_URL and --grid override it.",
        examples: ["http://127.0.0.1:4444", '"${GRID_URL}"'],
        ...keyRole({ references: "env" }),
      }),
    ),
    capabilities: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "Extra W3C capabilities for the grid's session request (platformName, browserVersion, vendor options such as goog:chromeOptions or bstack:options); values may hold ${VAR}.",
        examples: ["{ platformName: linux, browserVersion: stable }"],
        ...keyRole({ references: "env" }),
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "The browser the flow runs in; copied into the trace header (docs/flow-format.md, Shaping the browser).",
    examples: ["{ viewport: { width: 390, height: 844 } }"],
    ...keyRole({
      recorded: { top: true },
      suiteDefault: true,
      shared: true,
      matrix: { key: "browsers", field: "name", values: BROWSER_NAMES, env: "FLOWPROOF_BROWSER" },
    }),
  },
);

const MockRule = Type.Object(
  {
    url_contains: Type.String({ minLength: 1, description: "Substring of the request URL.", examples: ["/api/rates"] }),
    method: Type.Optional(Type.String({ description: "Any method when absent; GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.", examples: ["GET"] })),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: "Default 200.", examples: ["404"] })),
    content_type: Type.Optional(Type.String({ minLength: 1, examples: ["application/json"] })),
    body: Type.Optional(Type.Unknown({ description: "A string is served verbatim (text/plain), anything else as JSON." })),
  },
  { additionalProperties: false, title: "a mock rule", examples: ["{ url_contains: /api/rates, method: GET, status: 200, body: { rate: 1.23 } }"] },
);

const Cookie = Type.Object(
  {
    name: Type.String({ minLength: 1, examples: ["sid"] }),
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean()], {
      description: "May hold ${VAR}; resolved on every run, never stored resolved.",
      examples: ['"${SESSION_ID}"'],
    }),
    domain: Type.Optional(Type.String({ minLength: 1, description: "Default: the host of the flow's start URL.", examples: ["127.0.0.1"] })),
  },
  { additionalProperties: false, title: "a session cookie", examples: ['{ name: sid, value: "${SESSION_ID}" }'] },
);

const Session = Type.Object(
  {
    cookies: Type.Optional(Type.Array(Cookie, { examples: ['[{ name: sid, value: "${SESSION_ID}" }]'] })),
    local_storage: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
        description: "Keys to values (a string; quote JSON); may hold ${VAR}.",
        examples: ["{ cart: '[\"sku-1\"]' }"],
      }),
    ),
  },
  { additionalProperties: false, examples: ['{ cookies: [{ name: sid, value: "${SESSION_ID}" }] }'] },
);

export const WEB_KEYS_SCHEMA = Type.Object(
  {
    url: Type.String({ minLength: 1, description: "Where the flow starts: a URL, or a path relative to the flow file; may hold ${VAR} references." }),
    browser: Type.Optional(BrowserSchema),
    mock: Type.Optional(
      Type.Array(MockRule, {
        description: "Requests answered inside the browser, identically at record and replay (docs/flow-format.md, Shaping the browser).",
        examples: ["[{ url_contains: /api/rates, body: { rate: 1.23 } }]"],
        ...keyRole({ recorded: { top: true }, shared: true, surface: false }),
      }),
    ),
    session: Type.Optional(
      Type.Union([Type.String({ description: "The name of an identity declared in the governing suite's `identities:`." }), Session], {
        description:
          "Cookies and localStorage seeded before the first page script runs; values may be ${VAR}, resolved on every run and never stored. A name picks an identity of the suite's `identities:`.",
        examples: ['{ cookies: [{ name: sid, value: "${SESSION_ID}" }] }'],
        ...keyRole({ recorded: { top: true }, shared: true, surface: false, named: "identities", references: "env" }),
      }),
    ),
  },
  { additionalProperties: false },
);

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
/** Flags flowproof itself sets to drive the browser; a flow cannot change them. */
const RESERVED_ARGS = ["--remote-debugging-port", "--remote-debugging-pipe", "--user-data-dir", "--headless", "--no-startup-window"];
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the runtime's time zone database knows `tz` (a data lookup, no I/O). */
function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false; // RangeError: unknown time zone — reported by the caller
  }
}

/** The checks a schema cannot say: literal values, dates and zones, reserved flags, endpoints, methods, cookie names. */
export function checkWebKeys(keys: Obj): ArgumentProblem[] {
  const out: ArgumentProblem[] = [];
  const literal = (v: unknown, path: (string | number)[], hint: string) => {
    if (typeof v === "string" && v.includes("${"))
      out.push({ path, code: "bad-reference", message: `\`${String(path[path.length - 1])}\` must be written literally, not as a \`\${…}\` reference`, hint });
  };
  const browser = keys["browser"];
  if (isObj(browser)) {
    literal(browser["user_agent"], ["browser", "user_agent"], "user_agent: Mozilla/5.0 (flowproof)");
    literal(browser["downloads_dir"], ["browser", "downloads_dir"], "downloads_dir: downloads   # relative to the flow file");
    const args = browser["args"];
    if (Array.isArray(args)) {
      args.forEach((a, i) => {
        if (typeof a !== "string" || !a.startsWith("--"))
          out.push({ path: ["browser", "args", i], message: "each of `args` must be a Chromium flag starting with `--`", hint: 'args: ["--lang=en-US"]' });
        else if (RESERVED_ARGS.includes(a.split("=")[0]!))
          out.push({
            path: ["browser", "args", i],
            message: `\`${a.split("=")[0]}\` is set by flowproof itself to drive the browser`,
            hint: "remove it; to use a browser you started yourself, set `endpoint:` to its DevTools URL",
          });
      });
    }
    const clock = browser["clock"];
    if (isObj(clock)) {
      const at = clock["at"];
      literal(at, ["browser", "clock", "at"], 'at: "2026-01-15T12:00:00Z"');
      if (typeof at === "string" && !at.includes("${") && (!RFC3339.test(at) || Number.isNaN(Date.parse(at)))) {
        out.push({
          path: ["browser", "clock", "at"],
          message: `\`at\` must be an RFC 3339 date and time such as 2026-01-15T12:00:00Z, not ${JSON.stringify(at)}`,
          hint: 'at: "2026-01-15T12:00:00Z"   # a mid-day time keeps the date the same in every timezone',
        });
      }
      const tz = clock["timezone"];
      literal(tz, ["browser", "clock", "timezone"], "timezone: Europe/Berlin");
      if (typeof tz === "string" && !tz.includes("${") && !isTimeZone(tz))
        out.push({
          path: ["browser", "clock", "timezone"],
          message: `\`timezone\` ${JSON.stringify(tz)} is not an IANA time zone`,
          hint: "timezone: Europe/Berlin   # or UTC, America/New_York, Asia/Tokyo",
        });
    }
    const endpoint = browser["endpoint"];
    const hint = "endpoint: http://127.0.0.1:9222   # or ws://…/devtools/browser/<id>, or ${BROWSER_ENDPOINT}";
    if (typeof endpoint === "string" && !endpoint.startsWith("${") && !/^(wss?|https?):\/\/[^/\s]+/i.test(endpoint)) {
      out.push({ path: ["browser", "endpoint"], message: "`endpoint` must be a ws://, wss://, http:// or https:// DevTools URL", hint });
    }
    const grid = browser["grid"];
    if (typeof grid === "string" && !grid.startsWith("${")) {
      const gridHint = 'grid: http://127.0.0.1:4444   # or "${GRID_URL}" when it carries credentials';
      if (!/^https?:\/\/[^/\s]+/i.test(grid))
        out.push({ path: ["browser", "grid"], message: "`grid` must be the http:// or https:// URL of a Selenium Grid 4 hub or router", hint: gridHint });
      else if (/^https?:\/\/[^/@\s]*@/i.test(grid))
        out.push({
          path: ["browser", "grid"],
          message: "`grid` carries credentials written literally; a flow file is committed and shared",
          hint: 'grid: "${GRID_URL}"   # with GRID_URL=https://<user>:<key>@<grid> in the environment or a CI secret',
        });
    }
    if (grid !== undefined && endpoint !== undefined)
      out.push({
        path: ["browser", "grid"],
        at: "key",
        message: "`grid` and `endpoint` both name where the browser is; a flow has one",
        hint: "keep `grid:` for a Selenium Grid, or `endpoint:` for one running browser",
      });
    if (endpoint !== undefined && args !== undefined) {
      out.push({
        path: ["browser", "args"],
        at: "key",
        message: "`args` cannot be passed to a browser flowproof connects to (`endpoint:`); it was started with its own flags",
        hint: "remove `args:`, or start that browser with those flags yourself",
      });
    }
  }
  if (isObj(browser) && browser["name"] === "firefox") {
    // What only Chromium takes is refused where it is written, naming Firefox (docs/browsers.md).
    const chromiumOnly: Array<[(string | number)[], boolean, string]> = [
      [["browser", "args"], browser["args"] !== undefined, "`args` are Chromium flags; Firefox (`name: firefox`) takes none"],
      [
        ["browser", "endpoint"],
        browser["endpoint"] !== undefined,
        "`endpoint` is a running Chromium's DevTools URL; Firefox (`name: firefox`) is started by flowproof",
      ],
      [["browser", "grid"], browser["grid"] !== undefined, "flowproof runs Firefox (`name: firefox`) locally only, not on a Selenium Grid (docs/grid.md)"],
      [
        ["browser", "viewport"],
        isObj(browser["viewport"]) && (browser["viewport"]["mobile"] !== undefined || browser["viewport"]["touch"] !== undefined),
        "`mobile` and `touch` emulation are Chromium's; Firefox (`name: firefox`) has neither",
      ],
    ];
    for (const [path, present, message] of chromiumOnly)
      if (present) out.push({ path, at: "key", message, hint: "remove it, or run the flow in Chromium: `browser: {name: chromium}`" });
  }
  const mock = keys["mock"];
  if (Array.isArray(mock)) {
    mock.forEach((m, i) => {
      if (!isObj(m)) return;
      literal(m["url_contains"], ["mock", i, "url_contains"], "url_contains: /api/rates");
      literal(m["content_type"], ["mock", i, "content_type"], "content_type: application/json");
      const method = m["method"];
      if (typeof method === "string" && !METHODS.includes(method.toUpperCase()))
        out.push({ path: ["mock", i, "method"], message: `\`method\` must be one of ${METHODS.join(", ")}`, hint: "method: POST" });
    });
  }
  const session = keys["session"];
  if (isObj(session) && Array.isArray(session["cookies"])) {
    session["cookies"].forEach((c, i) => {
      if (!isObj(c)) return;
      const name = c["name"];
      literal(name, ["session", "cookies", i, "name"], "name: sid");
      if (typeof name === "string" && /[\s=;,]/.test(name))
        out.push({ path: ["session", "cookies", i, "name"], message: "a cookie `name` cannot contain spaces, `=`, `;` or `,`", hint: "name: session_id" });
      literal(c["domain"], ["session", "cookies", i, "domain"], "domain: 127.0.0.1");
    });
  }
  return out;
}

/** The web adapter's keys, as the contract declares them. */
export const WEB_KEYS: AdapterKeys<Obj> = {
  schema: WEB_KEYS_SCHEMA,
  check: checkWebKeys,
  refuse: {
    window: {
      message: "`window:` sizes a desktop window; a web flow sizes its page with the browser's viewport",
      hint: "browser: {viewport: {width: 1280, height: 800}}",
    },
  },
};
