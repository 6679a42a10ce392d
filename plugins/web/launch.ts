// Finds a Chromium-family browser and starts it headless with a DevTools pipe on a free port.
// The only code that spawns the browser process.
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, delimiter } from "node:path";

export const INSTALL_HINT =
  "install Chromium (Debian/Ubuntu: `apt-get install chromium`) or point FLOWPROOF_CHROME at a Chrome/Chromium/Edge executable";

const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "msedge", "microsoft-edge"];
const USUAL_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
  "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
  "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
];

/** `FLOWPROOF_CHROME`, then `CHROME`, then the usual names on PATH, then the usual install paths. */
export function findBrowser(env: Record<string, string | undefined> = process.env): { path?: string; tried: string[] } {
  const tried: string[] = [];
  for (const v of ["FLOWPROOF_CHROME", "CHROME"]) {
    const p = env[v];
    if (p) {
      tried.push(`${v}=${p} (does not exist)`);
      // An explicit choice that is wrong is an error, never a silent switch to another browser.
      if (existsSync(p)) return { path: p, tried: [] };
      return { tried };
    }
  }
  const isExecutable = (p: string) => {
    try {
      if (!statSync(p).isFile()) return false;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false; // missing or not executable: keep looking
    }
  };
  const dirs = (env["PATH"] ?? "").split(delimiter).filter(Boolean);
  for (const name of NAMES) {
    for (const dir of dirs) {
      for (const ext of process.platform === "win32" ? [".exe", ""] : [""]) {
        const p = join(dir, name + ext);
        if (isExecutable(p)) return { path: p, tried };
      }
    }
  }
  tried.push(`${NAMES.join(", ")} on PATH`);
  for (const p of USUAL_PATHS) if (isExecutable(p)) return { path: p, tried };
  tried.push("the usual install paths");
  return { tried };
}

export interface LaunchedBrowser {
  readonly wsUrl: string;
  readonly executable: string;
  close(): Promise<void>;
}

export const CHROME_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-dev-shm-usage",
  "--disable-features=Translate,MediaRouter,OptimizationHints",
  "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
  "--disable-background-timer-throttling",
  "--disable-ipc-flooding-protection",
  "--mute-audio",
  "--hide-scrollbars",
  "--remote-debugging-port=0",
];

/** Starts the browser and resolves once its DevTools endpoint is announced. */
export function launchBrowser(executable: string, options: { headed?: boolean; timeoutMs?: number; windowSize?: [number, number]; extraArgs?: readonly string[] } = {}): Promise<LaunchedBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), "flowproof-chrome-"));
  const size = options.windowSize ?? [1280, 800];
  const args = [
    ...CHROME_ARGS.filter((a) => !(options.headed && a.startsWith("--headless"))),
    `--user-data-dir=${userDataDir}`,
    `--window-size=${size[0]},${size[1]}`,
    // A flow's `browser.args` come after ours, so a flag given twice takes the flow's value.
    ...(options.extraArgs ?? []),
    // Pages are created per flow in their own contexts; a startup tab only slows the first connect.
    ...(options.headed ? ["about:blank"] : ["--no-startup-window"]),
  ];
  const child: ChildProcess = spawn(executable, args, { stdio: ["ignore", "ignore", "pipe"] });
  const cleanup = () => rmSync(userDataDir, { recursive: true, force: true, maxRetries: 3 });
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => fail(new Error(`the browser did not announce its DevTools endpoint within ${options.timeoutMs ?? 30_000} ms`)), options.timeoutMs ?? 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      cleanup();
      reject(new Error(`${error.message}${stderr ? `\n${stderr.trim().split("\n").slice(-5).join("\n")}` : ""}`));
    };
    child.once("error", (e) => fail(e));
    child.once("exit", (code, signal) => fail(new Error(`the browser exited at start (code ${code ?? "none"}, signal ${signal ?? "none"})`)));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stderr?.removeAllListeners("data");
      child.stderr?.resume();
      resolve({
        wsUrl: m[1]!,
        executable,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) {
              cleanup();
              return done();
            }
            const kill = setTimeout(() => child.kill("SIGKILL"), 3000);
            child.once("exit", () => {
              clearTimeout(kill);
              cleanup();
              done();
            });
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/**
 * The browser-level DevTools WebSocket URL of a running browser: a ws(s):// URL as given, or for
 * an http(s):// URL the `webSocketDebuggerUrl` its `/json/version` announces.
 */
export async function endpointWebSocketUrl(endpoint: string, timeoutMs = 10_000): Promise<string> {
  if (/^wss?:\/\//i.test(endpoint)) return endpoint;
  if (!/^https?:\/\//i.test(endpoint)) throw new Error(`browser endpoint ${JSON.stringify(endpoint)} is not a ws://, wss://, http:// or https:// URL`);
  const versionUrl = /\/json\/version\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, "")}/json/version`;
  let response: Response;
  try {
    response = await fetch(versionUrl, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new Error(`no browser answered at ${versionUrl}: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok) throw new Error(`${versionUrl} answered HTTP ${response.status}; is this a Chromium DevTools endpoint (--remote-debugging-port)?`);
  const info = (await response.json().catch(() => undefined)) as { webSocketDebuggerUrl?: unknown } | undefined;
  const ws = info?.webSocketDebuggerUrl;
  if (typeof ws !== "string" || !/^wss?:\/\//.test(ws)) throw new Error(`${versionUrl} did not announce a webSocketDebuggerUrl`);
  return ws;
}
