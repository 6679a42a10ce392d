// Finds a Chromium-family browser and starts it headless with a DevTools pipe on a free port.
// The only code that spawns the browser process.
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join, resolve as resolvePath } from "node:path";
// The light face of the contract: a command line loads this module before the rest of flowproof (prestart.ts).
import { FlowproofError, guardDir, guardGroup, killAtExit } from "../../src/plugins/launch-api.ts";

export const INSTALL_HINT = "install Chromium (Debian/Ubuntu: `apt-get install chromium`) or point FLOWPROOF_CHROME at a Chrome/Chromium/Edge executable";

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

/**
 * Chromium's headless shell: the same engine without the browser UI, so it starts in about a
 * third of the time and CPU (one renderer, no spare processes). Headless runs take it when it is
 * installed (Debian/Ubuntu: `apt-get install chromium-headless-shell`; Chrome for Testing ships
 * `chrome-headless-shell`). The install path comes first: Debian's `/usr/bin` entry is a script
 * that keeps running above the browser instead of becoming it.
 */
export const SHELL_PATHS: readonly string[] = ["/usr/lib/chromium/chromium-headless-shell"];
const SHELL_NAMES = ["chromium-headless-shell", "chrome-headless-shell"];

export interface FindOptions {
  /** A headless run: Chromium's headless shell is preferred when installed (never for a headed one). */
  readonly headless?: boolean;
  /** Where the headless shell is looked for before PATH (tests). */
  readonly shellPaths?: readonly string[];
}

/** Whether `p` is a file this process may run (missing or not executable: keep looking). */
export function isExecutable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of `names` found as an executable on `env`'s PATH, in the order of the names. */
export function findOnPath(names: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  const dirs = (env["PATH"] ?? "").split(delimiter).filter(Boolean);
  for (const name of names)
    for (const dir of dirs)
      for (const ext of process.platform === "win32" ? [".exe", ""] : [""]) {
        const p = join(dir, name + ext);
        if (isExecutable(p)) return p;
      }
  return undefined;
}

/**
 * `FLOWPROOF_CHROME`, then `CHROME`; for a headless run the headless shell (its install paths,
 * then its names on PATH); then the usual names on PATH, then the usual install paths.
 */
export function findBrowser(env: Record<string, string | undefined> = process.env, options: FindOptions = {}): { path?: string; tried: string[] } {
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
  const onPath = (names: readonly string[]) => findOnPath(names, env);
  if (options.headless) {
    const shell = (options.shellPaths ?? SHELL_PATHS).find(isExecutable) ?? onPath(SHELL_NAMES);
    if (shell) return { path: shell, tried };
  }
  const named = onPath(NAMES);
  if (named) return { path: named, tried };
  tried.push(`${NAMES.join(", ")} on PATH`);
  for (const p of USUAL_PATHS) if (isExecutable(p)) return { path: p, tried };
  tried.push("the usual install paths");
  return { tried };
}

export interface LaunchedBrowser {
  readonly wsUrl: string;
  readonly executable: string;
  /** The browser's process id; it leads a process group of its own, with every child it starts. */
  readonly pid: number;
  /** Why the browser is gone, once it is (`undefined` while it runs). */
  readonly exitReason: string | undefined;
  /** Runs `listener` once the browser process exits, whoever stopped it (at once if it already has). */
  onExit(listener: (reason: string) => void): void;
  /** Stops the whole process tree and removes its temporary profile; safe to call more than once. */
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

/** Temporary profiles are `flowproof-chrome-<pid of the flowproof process>-<random>` in the temp directory. */
export const PROFILE_PREFIX = "flowproof-chrome-";
const PROFILE_NAME = /^flowproof-(?:chrome|firefox)-(?:(\d+)-)?[A-Za-z0-9]+$/;
/** A profile without an owner pid in its name (older releases) is left alone while this young. */
const UNOWNED_PROFILE_GRACE_MS = 10 * 60_000;

/** Signals the browser's whole process group; a group already gone is fine. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // ESRCH: nothing left in the group
  }
}

/** The directory Chromium made for its process-singleton socket, which a killed browser leaves in the temp directory. */
const SINGLETON_DIR = /^org\.chromium\.Chromium\.[A-Za-z0-9]+$/;

/**
 * The directory of the profile's process-singleton socket: its SingletonSocket links to
 * <tmp>/org.chromium.Chromium.XXXXXX/SingletonSocket. Undefined when there is none (the browser
 * never got that far, removed its own, or is the headless shell, which keeps none).
 */
function singletonDirOf(profile: string): string | undefined {
  try {
    const socketDir = dirname(readlinkSync(join(profile, "SingletonSocket")));
    return SINGLETON_DIR.test(basename(socketDir)) && resolvePath(dirname(socketDir)) === resolvePath(tmpdir()) ? socketDir : undefined;
  } catch {
    return undefined;
  }
}

function removeProfile(dir: string): void {
  // The singleton socket's directory goes with the profile, or every run would leave one behind.
  const socketDir = singletonDirOf(dir);
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // a profile that cannot be removed now is swept by the next launch
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes temporary profiles left behind by flowproof processes that are gone (killed before they
 * could clean up). A profile whose owner still runs is never touched.
 */
export function sweepStaleProfiles(dir: string = tmpdir(), now: number = Date.now()): string[] {
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of entries) {
    const m = PROFILE_NAME.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    if (m[1] !== undefined) {
      const owner = Number(m[1]);
      if (owner === process.pid || isAlive(owner)) continue;
    } else {
      // No owner in the name: judged by Chromium's own lock (`<host>-<pid>`) and by age.
      try {
        const stat = lstatSync(path);
        if (!stat.isDirectory() || now - stat.mtimeMs < UNOWNED_PROFILE_GRACE_MS) continue;
        const lock = /-(\d+)$/.exec(safeReadlink(join(path, "SingletonLock")) ?? "");
        if (lock && isAlive(Number(lock[1]))) continue;
      } catch {
        continue;
      }
    }
    removeProfile(path);
    removed.push(path);
  }
  return removed;
}

function safeReadlink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `the browser process was killed (${signal})` : `the browser process exited (code ${code ?? "none"})`;
}

/** util-linux `setpriv` (Linux): runs a program with a parent-death signal set. Absent elsewhere. */
const PARENT_DEATH_WRAPPER = process.platform === "linux" ? ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p)) : undefined;

/** Another engine's start (Firefox, bidi/launch.ts): its profile's name, its command line, and the line announcing its socket. */
export interface BrowserStart {
  readonly profilePrefix: string;
  readonly argv: (profileDir: string) => string[];
  readonly announce: RegExp;
  /** Called with the profile once the browser has exited, just before the profile is removed. */
  readonly beforeRemove?: (profileDir: string) => void;
  /** The signal that stops the browser on close (default SIGTERM, SIGKILL 3 s later). */
  readonly stopSignal?: NodeJS.Signals;
}

/** Starts the browser and resolves once its DevTools endpoint (or `start.announce`) is announced. */
export function launchBrowser(
  executable: string,
  options: {
    headed?: boolean;
    timeoutMs?: number;
    windowSize?: [number, number];
    extraArgs?: readonly string[];
    start?: BrowserStart;
    /** Calls the start off: a browser not yet announced is stopped, and the launch rejects once it is gone. */
    signal?: AbortSignal;
  } = {},
): Promise<LaunchedBrowser> {
  sweepStaleProfiles();
  const userDataDir = mkdtempSync(join(tmpdir(), `${options.start?.profilePrefix ?? PROFILE_PREFIX}${process.pid}-`));
  // The profile (and, once the browser made it, its singleton socket's directory) is removed by
  // the group guard's watchdog if this process is killed outright; the next launch's sweep is the
  // fallback where no watchdog runs.
  const dirGuards = [guardDir(userDataDir)];
  const removeOwnProfile = () => {
    removeProfile(userDataDir);
    for (const release of dirGuards.splice(0)) release();
  };
  const size = options.windowSize ?? [1280, 800];
  const args = options.start?.argv(userDataDir) ?? [
    ...CHROME_ARGS.filter((a) => !(options.headed && a.startsWith("--headless"))),
    `--user-data-dir=${userDataDir}`,
    `--window-size=${size[0]},${size[1]}`,
    // A flow's `browser.args` come after ours, so a flag given twice takes the flow's value.
    ...(options.extraArgs ?? []),
    // Pages are created per flow in their own contexts; a startup tab only slows the first connect.
    ...(options.headed ? ["about:blank"] : ["--no-startup-window"]),
  ];
  // Its own process group: stopping the group stops every helper process the browser started.
  // On Linux the browser also dies with this process, even one killed outright (SIGKILL leaves no
  // exit hook to run): setpriv sets the parent-death signal, then runs the browser in its place.
  const [command, commandArgs] = PARENT_DEATH_WRAPPER ? [PARENT_DEATH_WRAPPER, ["--pdeathsig", "KILL", "--", executable, ...args]] : [executable, args];
  const child: ChildProcess = spawn(command, commandArgs, { stdio: ["ignore", "ignore", "pipe"], detached: process.platform !== "win32" });
  const pid = child.pid;
  // At process exit a browser still running is killed synchronously, its profile removed. A browser
  // has a process group of its own, so a terminal's Ctrl-C no longer reaches it: the shared exit
  // hook also kills it on a signal nothing else in the process handles.
  const unhook =
    pid !== undefined
      ? killAtExit(() => {
          killGroup(pid, "SIGKILL");
          removeProfile(userDataDir);
        })
      : () => undefined;
  // The group guard kills the browser's whole group if flowproof dies without running its exit
  // hooks: the only such guard where setpriv is missing (macOS, a Linux without util-linux), and
  // the one that also reaches helpers that outlive the browser. On Windows the job object does it.
  const unguard = pid !== undefined && process.platform !== "win32" ? guardGroup(pid) : () => undefined;
  let exitReason: string | undefined;
  const exitListeners: Array<(reason: string) => void> = [];
  // Listened for from the start: an exit (even by a signal, which leaves exitCode null) is never missed.
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exitReason = describeExit(code, signal);
      // Helpers the browser left (zygotes, renderers) go with it, and so does the profile.
      if (pid !== undefined) {
        killGroup(pid, "SIGKILL");
        unhook();
      }
      unguard();
      try {
        options.start?.beforeRemove?.(userDataDir);
      } catch {
        // what the hook keeps is an optimisation: the profile goes all the same
      }
      removeOwnProfile();
      resolve();
      for (const l of exitListeners.splice(0)) l(exitReason);
    });
  });
  // A Chromium on the throwaway profile has nothing to save: it is stopped outright, without the
  // graceful shutdown a SIGTERM starts (tens of ms on the exit path of every run). A profile the
  // flow named itself (`--user-data-dir` in its args) is shut down gracefully, so it stays whole.
  const ownProfile = options.start === undefined && !(options.extraArgs ?? []).some((a) => a.startsWith("--user-data-dir"));
  const stop = async (): Promise<void> => {
    if (exitReason === undefined && pid !== undefined) {
      killGroup(pid, options.start?.stopSignal ?? (ownProfile ? "SIGKILL" : "SIGTERM"));
      const kill = setTimeout(() => killGroup(pid, "SIGKILL"), 3000);
      await exited;
      clearTimeout(kill);
      return;
    }
    if (pid === undefined) removeOwnProfile();
    else await exited;
  };
  return new Promise((resolve, reject) => {
    let stderr = "";
    let settled = false;
    const timer = setTimeout(
      () => fail(`the browser did not announce its DevTools endpoint within ${options.timeoutMs ?? 30_000} ms`),
      options.timeoutMs ?? 30_000,
    );
    // Every start failure is one no-browser error: the browser could not be started.
    const fail = (message: string, cause?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(
        new FlowproofError(
          { code: "no-browser", message: `${message}${stderr ? `\n${stderr.trim().split("\n").slice(-5).join("\n")}` : ""}` },
          cause === undefined ? undefined : { cause },
        ),
      );
      void stop();
    };
    child.once("error", (e) => {
      // A browser that could not be spawned never exits: its profile is removed here.
      if (pid === undefined) removeOwnProfile();
      fail(e.message, e);
    });
    child.once("exit", (code, signal) => fail(`the browser exited at start (code ${code ?? "none"}, signal ${signal ?? "none"})`));
    const onAbort = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() => reject(new FlowproofError({ code: "no-browser", message: "the browser's start was called off" })));
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
      const m = (options.start?.announce ?? /DevTools listening on (ws:\/\/\S+)/).exec(stderr);
      if (!m || settled || pid === undefined) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      child.stderr?.removeAllListeners("data");
      child.stderr?.resume();
      const socketDir = singletonDirOf(userDataDir);
      if (socketDir && dirGuards.length > 0) dirGuards.push(guardDir(socketDir));
      resolve({
        wsUrl: m[1]!,
        executable,
        pid,
        get exitReason() {
          return exitReason;
        },
        onExit(listener) {
          if (exitReason !== undefined) listener(exitReason);
          else exitListeners.push(listener);
        },
        close: stop,
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
  if (!/^https?:\/\//i.test(endpoint))
    throw new FlowproofError({
      code: "bad-value",
      message: `browser endpoint ${JSON.stringify(endpoint)} is not a ws://, wss://, http:// or https:// URL`,
      hint: "browser: { endpoint: ws://127.0.0.1:9222/devtools/browser/… } or http://127.0.0.1:9222",
    });
  const versionUrl = /\/json\/version\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, "")}/json/version`;
  let response: Response;
  try {
    response = await fetch(versionUrl, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new FlowproofError({ code: "browser-error", message: `no browser answered at ${versionUrl}: ${(error as Error).message}` }, { cause: error });
  }
  if (!response.ok)
    throw new FlowproofError({
      code: "browser-error",
      message: `${versionUrl} answered HTTP ${response.status}; is this a Chromium DevTools endpoint (--remote-debugging-port)?`,
    });
  const info = (await response.json().catch(() => undefined)) as { webSocketDebuggerUrl?: unknown } | undefined;
  const ws = info?.webSocketDebuggerUrl;
  if (typeof ws !== "string" || !/^wss?:\/\//.test(ws))
    throw new FlowproofError({ code: "browser-error", message: `${versionUrl} did not announce a webSocketDebuggerUrl` });
  return ws;
}
