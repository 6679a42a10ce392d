// A Selenium Grid 4 as the web adapter's browser source: one W3C session per flow (`POST
// /session`), driven over the session's browser-level `se:cdp` WebSocket; files travel through
// the grid (`/se/file` up, `/se/files` down); the session is deleted on every path, with a
// synchronous DELETE at process exit as the last resort. The grid's URL may carry credentials
// (`https://user:key@grid…`): they are sent as Basic authentication and never printed.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { AdapterUnavailableError, FlowproofError, killAtExit } from "../../src/plugins/api.ts";
import { unzip, zipOne } from "./zip.ts";

/** The environment variable naming the grid for every web flow of a run (`--grid` sets it); `local` forces a local browser. */
export const GRID_ENV = "FLOWPROOF_GRID_URL";
/** Seconds a session request may wait in the grid's queue (default 300, the hub's own default). */
export const GRID_QUEUE_ENV = "FLOWPROOF_GRID_QUEUE_TIMEOUT";
const DEFAULT_QUEUE_S = 300;
/** Most any other grid request (status, files, delete) may take. */
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * The capability that names one session request, so the session a request abandoned in the queue
 * becomes can be found and deleted (W3C extension capabilities are ignored by the nodes).
 */
export const REQUEST_MARK = "flowproof:request";
/** How long a run stopped during its session request looks for the session the grid may still start from it. */
const ABANDONED_SWEEP_MS = 8_000;
const SWEEP_POLL_MS = 250;

const FIX_URL = `check the grid's URL (browser.grid, --grid or ${GRID_ENV}) and that the hub runs; docs/grid.md shows how to start one`;

/** A grid's address: where requests go, how they authenticate, and how messages show it. */
export interface GridAddress {
  /** Scheme, host, port and path, without credentials or a trailing slash. */
  readonly base: string;
  /** `Basic …` when the URL carried credentials. */
  readonly authorization?: string;
  /** The URL as messages show it: credentials replaced by `***`. */
  readonly shown: string;
  /** The values to hide everywhere: the URL as given, its user:key and its key (raw and decoded). */
  readonly secrets: readonly string[];
}

/** Reads a grid URL (http:// or https://, optionally with user:key@); a FlowproofError names what is wrong. */
export function parseGridUrl(raw: string): GridAddress {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = undefined as never;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new FlowproofError({
      code: "bad-value",
      message: `the grid URL ${JSON.stringify(redactUserinfo(raw))} is not an http:// or https:// URL`,
      hint: `browser: {grid: http://127.0.0.1:4444}, --grid http://127.0.0.1:4444 or ${GRID_ENV}=http://127.0.0.1:4444 (\`local\` runs a local browser)`,
    });
  }
  const user = decodeURIComponent(url.username);
  const key = decodeURIComponent(url.password);
  const secrets = new Set<string>();
  if (user !== "" || key !== "") {
    secrets.add(raw);
    if (key !== "") {
      secrets.add(key);
      secrets.add(url.password);
    }
    secrets.add(`${url.username}:${url.password}`);
  }
  url.username = "";
  url.password = "";
  const base = url.toString().replace(/\/+$/, "");
  const shown = user !== "" || key !== "" ? base.replace("://", "://***@") : base;
  return {
    base,
    shown,
    secrets: [...secrets],
    ...(user !== "" || key !== "" ? { authorization: `Basic ${Buffer.from(`${user}:${key}`).toString("base64")}` } : {}),
  };
}

function redactUserinfo(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1***@");
}

/** Where a session runs: the grid as shown, and the node that holds it when the grid says. */
export interface GridPlacement {
  readonly grid: string;
  readonly node?: string;
  readonly session: string;
}

export interface GridSession {
  readonly id: string;
  /** The session's `se:cdp` WebSocket URL, addressed through the grid's URL (credentials included). */
  readonly cdpUrl: string;
  /** The same endpoint on the node itself (one proxy hop fewer), when the grid names the node. */
  readonly nodeCdpUrl?: string;
  readonly placement: GridPlacement;
  /** Whether the node hands downloads back (`se:downloadsEnabled`). */
  readonly downloads: boolean;
  /** Sends a local file to the node; resolves with its path there. */
  upload(localPath: string): Promise<string>;
  /** Fetches a file the browser downloaded on the node (by its name in the session's download directory). */
  download(name: string): Promise<Uint8Array>;
  /** What the grid says about the node now, for a message on a lost session. */
  explainLoss(): Promise<string>;
  /** Deletes the session (the node ends its browser); safe to call more than once. */
  close(): Promise<void>;
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The capabilities of a session request: Chromium with the flow's flags (its `browser.args` and
 * window size) and the flow's extra W3C capabilities merged in.
 */
export function sessionCapabilities(options: {
  readonly args?: readonly string[] | undefined;
  readonly windowSize: readonly [number, number];
  readonly capabilities?: Obj | undefined;
}): { alwaysMatch: Obj } {
  const extra = options.capabilities ?? {};
  const chrome = isObj(extra["goog:chromeOptions"]) ? extra["goog:chromeOptions"] : {};
  const extraArgs = Array.isArray(chrome["args"]) ? (chrome["args"] as unknown[]) : [];
  return {
    alwaysMatch: {
      browserName: "chrome",
      ...extra,
      "goog:chromeOptions": { ...chrome, args: [`--window-size=${options.windowSize[0]},${options.windowSize[1]}`, ...(options.args ?? []), ...extraArgs] },
    },
  };
}

/**
 * Whether a node of the grid hands downloads back (its stereotype says `se:downloadsEnabled`,
 * a node started with --enable-managed-downloads true): a session then asks for it, unless the
 * flow's capabilities decide. A grid whose /status lists no nodes (some vendors') is not asked.
 */
export function withDownloads(capabilities: { alwaysMatch: Obj }, status: unknown): { alwaysMatch: Obj } {
  if ("se:downloadsEnabled" in capabilities.alwaysMatch) return capabilities;
  const nodes = isObj(status) && Array.isArray(status["nodes"]) ? (status["nodes"] as unknown[]) : [];
  const offered = nodes.some(
    (n) =>
      isObj(n) &&
      Array.isArray(n["slots"]) &&
      (n["slots"] as unknown[]).some((slot) => isObj(slot) && isObj(slot["stereotype"]) && slot["stereotype"]["se:downloadsEnabled"] === true),
  );
  return offered ? { alwaysMatch: { ...capabilities.alwaysMatch, "se:downloadsEnabled": true } } : capabilities;
}

export interface OpenGridOptions {
  readonly capabilities: ReturnType<typeof sessionCapabilities>;
  /** Most the request may wait in the grid's queue. */
  readonly queueTimeoutMs: number;
  /** Aborted when the run is stopped: a request still waiting (in the grid's queue) is given up. */
  readonly stop?: AbortSignal | undefined;
}

/** The queue bound from the environment (seconds), or the default. */
export function queueTimeoutMs(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[GRID_QUEUE_ENV];
  const s = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : DEFAULT_QUEUE_S;
  return Math.max(1, s) * 1000;
}

/** Synchronous DELETE of a session, for process exit (no event loop left): a short-lived child does the request. */
function deleteSync(url: string, authorization: string | undefined): void {
  const script =
    "await fetch(process.env.FLOWPROOF_GRID_DELETE, { method: 'DELETE', headers: process.env.FLOWPROOF_GRID_AUTH ? { authorization: process.env.FLOWPROOF_GRID_AUTH } : {}, signal: AbortSignal.timeout(4000) }).catch(() => undefined)";
  try {
    Bun.spawnSync([process.execPath, "-e", script], {
      env: { ...process.env, BUN_BE_BUN: "1", FLOWPROOF_GRID_DELETE: url, ...(authorization ? { FLOWPROOF_GRID_AUTH: authorization } : {}) },
      stdout: "ignore",
      stderr: "ignore",
      timeout: 5000,
    });
  } catch {
    // Nothing more can be done at exit; the grid's own session timeout ends it.
  }
}

/** Starts a session on the grid; an unreachable grid, refused capabilities or a queue past its bound is an AdapterUnavailableError (exit 2). */
export async function openGridSession(address: GridAddress, options: OpenGridOptions): Promise<GridSession> {
  const headers = (json: boolean): Record<string, string> => ({
    ...(json ? { "Content-Type": "application/json; charset=utf-8" } : {}),
    ...(address.authorization ? { Authorization: address.authorization } : {}),
  });
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = REQUEST_TIMEOUT_MS,
    stop?: AbortSignal,
  ): Promise<{ status: number; value: unknown }> => {
    const response = await fetch(`${address.base}${path}`, {
      method,
      headers: headers(body !== undefined),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let value: unknown;
    try {
      value = (JSON.parse(text) as { value?: unknown }).value;
    } catch {
      value = text;
    }
    return { status: response.status, value };
  };
  let created: { status: number; value: unknown };
  const mark = crypto.randomUUID();
  let asked = false;
  try {
    // The grid's /status first: an unreachable grid fails fast, and it says whether nodes hand downloads back.
    const status = await request("GET", "/status", undefined, REQUEST_TIMEOUT_MS, options.stop);
    if (status.status === 401 || status.status === 403) created = status;
    else {
      const capabilities = withDownloads(options.capabilities, status.value);
      asked = true;
      created = await request(
        "POST",
        "/session",
        { capabilities: { alwaysMatch: { ...capabilities.alwaysMatch, [REQUEST_MARK]: mark } } },
        options.queueTimeoutMs,
        options.stop,
      );
    }
  } catch (error) {
    const e = error as Error;
    if (options.stop?.aborted) {
      // The grid keeps a request whose client went away in its queue and may start it later:
      // that session is looked for (by its mark) and deleted before the run ends.
      if (asked) await deleteAbandoned(request, mark);
      throw new FlowproofError({ code: "interrupted", message: `the run was stopped while its session request waited at the Selenium Grid ${address.shown}` });
    }
    if (e.name === "TimeoutError") {
      throw new AdapterUnavailableError(
        `the Selenium Grid at ${address.shown} kept the session request queued for ${Math.round(options.queueTimeoutMs / 1000)} s: no free node took it`,
        `add nodes or slots, lower --workers, or allow a longer wait with ${GRID_QUEUE_ENV}=<seconds>; a hub started with --reject-unsupported-caps true refuses capabilities no node has at once`,
        { cause: error, code: "browser-error" },
      );
    }
    const cause = (e.cause as Error | undefined)?.message ?? e.message;
    throw new AdapterUnavailableError(`no Selenium Grid answered at ${address.shown}: ${cause}`, FIX_URL, { cause: error, code: "browser-error" });
  }
  const value = isObj(created.value) ? created.value : {};
  if (created.status === 401 || created.status === 403) {
    throw new AdapterUnavailableError(
      `the Selenium Grid at ${address.shown} refused the credentials (HTTP ${created.status})`,
      "put the grid's user and key in its URL: https://<user>:<key>@<grid>/ (from a ${VAR} or a CI secret)",
      { code: "browser-error" },
    );
  }
  const id = typeof value["sessionId"] === "string" ? value["sessionId"] : undefined;
  const caps = isObj(value["capabilities"]) ? value["capabilities"] : {};
  if (created.status !== 200 || id === undefined) {
    const message =
      typeof value["message"] === "string"
        ? value["message"].split("\n")[0]!.trim()
        : typeof created.value === "string"
          ? created.value.slice(0, 200)
          : `HTTP ${created.status}`;
    const unsupported = /no nodes support/i.test(message);
    throw new AdapterUnavailableError(
      `the Selenium Grid at ${address.shown} did not start a session: ${message}`,
      unsupported
        ? "no node offers the capabilities asked for: compare browser.capabilities (browserName, browserVersion, platformName) with the nodes the grid lists at /ui; flowproof needs a Chromium-family node (chrome or MicrosoftEdge)"
        : created.status === 404
          ? `${address.shown} is not a Selenium Grid 4 endpoint (POST /session answered 404); ${FIX_URL}`
          : FIX_URL,
      { code: "browser-error" },
    );
  }
  const sessionPath = `/session/${id}`;
  let closed = false;
  const unhook = killAtExit(() => deleteSync(`${address.base}${sessionPath}`, address.authorization));
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      await request("DELETE", sessionPath, undefined, 10_000);
    } catch {
      // A grid that lost the node answers late or not at all; its own session timeout ends it.
    } finally {
      unhook();
    }
  };
  try {
    if (typeof caps["se:cdp"] !== "string") {
      throw new AdapterUnavailableError(
        `the Selenium Grid at ${address.shown} started a ${String(caps["browserName"] ?? "browser")} session without an se:cdp endpoint`,
        "flowproof drives Chromium-family browsers over the DevTools protocol: ask for browserName chrome (or MicrosoftEdge) in browser.capabilities",
        { code: "browser-error" },
      );
    }
    // The path of se:cdp, addressed through the URL flowproof was given: a hub behind a proxy or
    // an ingress announces its internal address there.
    const wsBase = new URL(address.base);
    wsBase.protocol = wsBase.protocol === "https:" ? "wss:" : "ws:";
    const credentials = address.authorization ? Buffer.from(address.authorization.slice(6), "base64").toString() : undefined;
    const cdpUrl = `${wsBase.protocol}//${credentials ? `${credentials.split(":").map(encodeURIComponent).join(":")}@` : ""}${wsBase.host}${wsBase.pathname.replace(/\/+$/, "")}${sessionPath}/se/cdp`;
    const node = await nodeOf(id, request);
    const placement: GridPlacement = { grid: address.shown, session: id, ...(node ? { node } : {}) };
    const nodeCdpUrl = node && /^https?:\/\//i.test(node) ? `${node.replace(/^http/i, "ws").replace(/\/+$/, "")}${sessionPath}/se/cdp` : undefined;
    return {
      id,
      cdpUrl,
      ...(nodeCdpUrl ? { nodeCdpUrl } : {}),
      placement,
      downloads: caps["se:downloadsEnabled"] === true,
      async upload(localPath) {
        const zipped = zipOne(basename(localPath), readFileSync(localPath));
        const answer = await request("POST", `${sessionPath}/se/file`, { file: Buffer.from(zipped).toString("base64") }, 120_000);
        if (answer.status !== 200 || typeof answer.value !== "string")
          throw new FlowproofError({
            code: "browser-error",
            message: `the grid node${node ? ` ${node}` : ""} did not take the upload ${basename(localPath)} (HTTP ${answer.status})`,
          });
        return answer.value;
      },
      async download(name) {
        const answer = await request("POST", `${sessionPath}/se/files`, { name }, 120_000);
        const contents = isObj(answer.value) ? answer.value["contents"] : undefined;
        if (answer.status !== 200 || typeof contents !== "string")
          throw new FlowproofError({
            code: "browser-error",
            message: `the grid node${node ? ` ${node}` : ""} did not hand back the download ${JSON.stringify(name)} (HTTP ${answer.status})`,
          });
        const entries = unzip(new Uint8Array(Buffer.from(contents, "base64")));
        const data = entries.get(name) ?? [...entries.values()][0];
        if (!data)
          throw new FlowproofError({ code: "browser-error", message: `the grid handed back an empty archive for the download ${JSON.stringify(name)}` });
        return data;
      },
      async explainLoss() {
        const where = node ? `the grid node ${node}` : `the Selenium Grid at ${address.shown}`;
        return `${where} stopped answering for session ${id}`;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

type GridRequest = (method: string, path: string, body?: unknown, timeoutMs?: number) => Promise<{ status: number; value: unknown }>;

/** The session the grid started from the request marked `mark`, from its /status. */
async function sessionMarked(request: GridRequest, mark: string): Promise<string | undefined> {
  const status = await request("GET", "/status", undefined, 2_000).catch(() => undefined);
  const nodes = isObj(status?.value) && Array.isArray(status.value["nodes"]) ? (status.value["nodes"] as unknown[]) : [];
  for (const n of nodes) {
    if (!isObj(n) || !Array.isArray(n["slots"])) continue;
    for (const slot of n["slots"] as unknown[]) {
      const session = isObj(slot) && isObj(slot["session"]) ? slot["session"] : undefined;
      const caps = session && isObj(session["capabilities"]) ? session["capabilities"] : undefined;
      if (caps?.[REQUEST_MARK] === mark && typeof session?.["sessionId"] === "string") return session["sessionId"];
    }
  }
  return undefined;
}

/**
 * A request given up while queued or starting: its session, should the grid start it within
 * ABANDONED_SWEEP_MS (a slot the stopping run's other flows free), is deleted. One the grid starts
 * later still (its queue held by others) is ended by the node's session timeout (docs/grid.md).
 */
async function deleteAbandoned(request: GridRequest, mark: string): Promise<void> {
  const deadline = Date.now() + ABANDONED_SWEEP_MS;
  while (Date.now() < deadline) {
    const id = await sessionMarked(request, mark);
    if (id !== undefined) {
      await request("DELETE", `/session/${id}`, undefined, 10_000).catch(() => undefined);
      return;
    }
    await Bun.sleep(SWEEP_POLL_MS);
  }
}

/** The node holding session `id`, from the grid's /status (absent when the grid does not say, as some vendors' do not). */
async function nodeOf(id: string, request: (method: string, path: string) => Promise<{ status: number; value: unknown }>): Promise<string | undefined> {
  try {
    const status = await request("GET", "/status");
    const nodes = isObj(status.value) && Array.isArray(status.value["nodes"]) ? (status.value["nodes"] as unknown[]) : [];
    for (const n of nodes) {
      if (!isObj(n) || !Array.isArray(n["slots"])) continue;
      for (const slot of n["slots"] as unknown[]) {
        const session = isObj(slot) && isObj(slot["session"]) ? slot["session"] : undefined;
        if (session?.["sessionId"] === id && typeof n["uri"] === "string") return n["uri"];
      }
    }
  } catch {
    // The node is a fact for the report, never a reason to fail the flow.
  }
  return undefined;
}
