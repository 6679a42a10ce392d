// The web adapter's launch config (`AdapterSession.launch(config)`): the flow's `browser:` shape,
// `mock:` rules and resolved `session:` seed, checked at the plugin boundary. Pure.
import type { FilePaths } from "../../src/plugins/api.ts";
import type { RemoteFiles } from "./downloads.ts";

export interface WebViewport {
  readonly width: number;
  readonly height: number;
  readonly device_scale_factor?: number;
  readonly mobile?: boolean;
  readonly touch?: boolean;
}

export interface WebMockRule {
  readonly url_contains: string;
  readonly method?: string;
  readonly status?: number;
  readonly content_type?: string;
  readonly body?: unknown;
}

export interface WebCookie {
  readonly name: string;
  /** Resolved value: a credential, never logged. */
  readonly value: string;
  readonly domain?: string;
}

export interface WebConfig {
  /** The engine as written (`browser.name`); FLOWPROOF_BROWSER overrides it (browser-choice.ts). */
  readonly name?: string;
  readonly viewport?: WebViewport;
  readonly user_agent?: string;
  readonly args?: readonly string[];
  readonly clock?: { readonly at: string; readonly timezone?: string };
  readonly random?: { readonly seed: number };
  /** Absolute directory downloads land in; absent = a private temporary directory. */
  readonly downloads_dir?: string;
  /** DevTools URL of a running browser to connect to instead of launching one. */
  readonly endpoint?: string;
  /** A Selenium Grid 4 URL (may carry user:key@): each flow a W3C session there, driven over its se:cdp. */
  readonly grid?: string;
  /** Extra W3C capabilities for the grid's session request (platformName, browserVersion, vendor options). */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly mock?: readonly WebMockRule[];
  readonly session?: { readonly cookies?: readonly WebCookie[]; readonly local_storage?: Readonly<Record<string, string>> };
  /** Show the browser window (`--keep-open`, FLOWPROOF_HEADED) instead of running headless. */
  readonly headed?: boolean;
}

/** How a driver is opened beyond its config: a remote browser's file transfers, and facts for the trace header. */
export interface OpenOptions {
  readonly remote?: RemoteFiles;
  readonly info?: Readonly<Record<string, unknown>>;
  /** A confined run's roots (LaunchContext.paths): the page opens no `file:` URL outside them. */
  readonly files?: FilePaths;
}

const KEYS = ["name", "viewport", "user_agent", "args", "clock", "random", "downloads_dir", "endpoint", "grid", "capabilities", "mock", "session", "headed"];

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The launch config as flowproof hands it over (`{browser?, mock?, session?, headed?}`: the
 * flow's keys, docs/plugins.md) as one flat config: the `browser:` shape's fields beside `mock`,
 * `session` (its values as text) and `headed`.
 */
export function flattenLaunchConfig(config: Obj): Obj {
  const { browser, session, mock, ...rest } = config;
  const text = (v: unknown): unknown => (typeof v === "number" || typeof v === "boolean" ? String(v) : v);
  const s = isObj(session) ? session : undefined;
  return {
    ...(isObj(browser) ? browser : {}),
    ...rest,
    ...(Array.isArray(mock)
      ? { mock: mock.map((m) => (isObj(m) && typeof m["method"] === "string" ? { ...m, method: m["method"].toUpperCase() } : m)) }
      : mock !== undefined
        ? { mock }
        : {}),
    ...(s
      ? {
          session: {
            ...(Array.isArray(s["cookies"])
              ? { cookies: s["cookies"].map((c) => (isObj(c) ? { ...c, value: text(c["value"]) } : c)) }
              : s["cookies"] !== undefined
                ? { cookies: s["cookies"] }
                : {}),
            ...(isObj(s["local_storage"])
              ? { local_storage: Object.fromEntries(Object.entries(s["local_storage"]).map(([k, v]) => [k, text(v)])) }
              : s["local_storage"] !== undefined
                ? { local_storage: s["local_storage"] }
                : {}),
          },
        }
      : session !== undefined
        ? { session }
        : {}),
  };
}

/** Checks the launch config; throws naming the first malformed field (a flowproof bug or a foreign caller). */
export function parseWebConfig(raw: Obj): WebConfig {
  const config = flattenLaunchConfig(raw);
  const fail = (what: string): never => {
    // A plain Error on purpose: flowproof builds this config from a flow it already validated, so
    // a malformed one is a flowproof bug (or a foreign caller), never a problem in the user's flow.
    throw new Error(`web adapter: malformed launch config: ${what}`);
  };
  for (const key of Object.keys(config)) if (!KEYS.includes(key)) fail(`unknown key ${JSON.stringify(key)}`);
  const str = (v: unknown, what: string) => (typeof v === "string" ? v : fail(`${what} must be a string`));
  const out: Record<string, unknown> = {};
  const vp = config["viewport"];
  if (vp !== undefined) {
    if (!isObj(vp) || !Number.isInteger(vp["width"]) || !Number.isInteger(vp["height"]) || (vp["width"] as number) < 1 || (vp["height"] as number) < 1)
      fail("viewport needs whole width and height");
    const v = vp as Obj;
    if (v["device_scale_factor"] !== undefined && !(typeof v["device_scale_factor"] === "number" && v["device_scale_factor"] > 0))
      fail("viewport.device_scale_factor must be a positive number");
    for (const b of ["mobile", "touch"]) if (v[b] !== undefined && typeof v[b] !== "boolean") fail(`viewport.${b} must be a boolean`);
    out["viewport"] = v;
  }
  for (const key of ["name", "user_agent", "downloads_dir", "endpoint", "grid"]) if (config[key] !== undefined) out[key] = str(config[key], key);
  if (config["capabilities"] !== undefined)
    out["capabilities"] = isObj(config["capabilities"]) ? config["capabilities"] : fail("capabilities must be a mapping");
  if (config["headed"] !== undefined) out["headed"] = typeof config["headed"] === "boolean" ? config["headed"] : fail("headed must be a boolean");
  const args = config["args"];
  if (args !== undefined) out["args"] = Array.isArray(args) ? args.map((a, i) => str(a, `args[${i}]`)) : fail("args must be a list");
  const clock = config["clock"];
  if (clock !== undefined) {
    if (!isObj(clock) || typeof clock["at"] !== "string" || Number.isNaN(Date.parse(clock["at"]))) fail("clock.at must be a date-time");
    const c = clock as Obj;
    if (c["timezone"] !== undefined) str(c["timezone"], "clock.timezone");
    out["clock"] = c;
  }
  const random = config["random"];
  if (random !== undefined) {
    if (!isObj(random) || !Number.isInteger(random["seed"]) || (random["seed"] as number) < 0 || (random["seed"] as number) > 0xffff_ffff)
      fail("random.seed must be a u32");
    out["random"] = random;
  }
  const mock = config["mock"];
  if (mock !== undefined) {
    if (!Array.isArray(mock)) fail("mock must be a list");
    (mock as unknown[]).forEach((m, i) => {
      if (!isObj(m) || typeof m["url_contains"] !== "string" || m["url_contains"] === "") fail(`mock[${i}].url_contains must be a non-empty string`);
      const r = m as Obj;
      if (r["method"] !== undefined) str(r["method"], `mock[${i}].method`);
      if (r["content_type"] !== undefined) str(r["content_type"], `mock[${i}].content_type`);
      if (r["status"] !== undefined && !(Number.isInteger(r["status"]) && (r["status"] as number) >= 100 && (r["status"] as number) <= 599))
        fail(`mock[${i}].status must be 100–599`);
    });
    out["mock"] = mock;
  }
  const session = config["session"];
  if (session !== undefined) {
    if (!isObj(session)) fail("session must be a mapping");
    const s = session as Obj;
    const cookies = s["cookies"];
    if (cookies !== undefined) {
      if (!Array.isArray(cookies)) fail("session.cookies must be a list");
      (cookies as unknown[]).forEach((c, i) => {
        // The value is a credential: the message names the field, never its content.
        if (!isObj(c) || typeof c["name"] !== "string" || typeof c["value"] !== "string") fail(`session.cookies[${i}] needs string name and value`);
        if ((c as Obj)["domain"] !== undefined) str((c as Obj)["domain"], `session.cookies[${i}].domain`);
      });
    }
    const ls = s["local_storage"];
    if (ls !== undefined && (!isObj(ls) || Object.values(ls).some((v) => typeof v !== "string"))) fail("session.local_storage must map keys to strings");
    out["session"] = s;
  }
  // Validated field by field above: the shape is now the declared one.
  return out as WebConfig;
}

/**
 * Where this config's flow gets its browser: a running one (`endpoint`), a Selenium Grid (the
 * run's FLOWPROOF_GRID_URL, which `--grid` sets, else the flow's `browser.grid`; `local` in the
 * environment keeps every flow local), a private one (own flags), or the run's shared one.
 */
export function browserSource(
  config: WebConfig,
  env: Readonly<Record<string, string | undefined>> = {},
): { kind: "endpoint"; url: string } | { kind: "grid"; url: string } | { kind: "private"; args: readonly string[] } | { kind: "shared" } {
  if (config.endpoint !== undefined) return { kind: "endpoint", url: config.endpoint };
  const fromEnv = env["FLOWPROOF_GRID_URL"]?.trim();
  const grid = fromEnv ? (fromEnv === "local" ? undefined : fromEnv) : config.grid;
  if (grid !== undefined && grid !== "") return { kind: "grid", url: grid };
  if (config.args !== undefined && config.args.length > 0) return { kind: "private", args: config.args };
  return { kind: "shared" };
}
