// What a suite gives every flow in it: suite.yaml found and loaded, `min_version` checked, the
// environment built (process env < env_from < env), hooks and the app server. The only code
// that runs the suite's shell commands, and the one place record, run and heal of a single flow
// get their suite from, whichever caller (CLI, MCP, library) started them. Never prints: output
// goes to `log`.
import { dirname, resolve } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { FlowproofError, SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import type { SuiteConfig, SuiteServer } from "../spec/suite.ts";
import type { FlowSuiteDefaults } from "../spec/flow.ts";
import { resolveText } from "../engine/templates.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { displayPath } from "./paths.ts";
import { findSuiteFile, loadSuiteFile, suiteDefaultsOf } from "./flow-load.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { guardGroup } from "../plugins/group-guard.ts";
import { filePaths } from "../plugins/file-paths.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** Suite settings each flow receives as written: `browser` defaults and `identities` (used by the flow's own `browser:`/`session:` keys). */
export type SuiteDefaults = FlowSuiteDefaults;

export interface SuiteContext {
  readonly dir: string;
  readonly config: SuiteConfig;
  readonly env: Record<string, string | undefined>;
  /** Absent when no suite.yaml governs the run. */
  readonly defaults?: SuiteDefaults;
}

export { findSuiteFile, loadSuiteFile, suiteDefaultsOf };

/** -1, 0, 1 comparing X.Y.Z versions (pre-release suffixes ignored). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).slice(0, 3).map(Number),
    pb = b.split(/[.-]/).slice(0, 3).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0) ? -1 : 1;
  return 0;
}

/** Refuses a suite whose `min_version` is newer than this flowproof, naming both versions. */
export function checkMinVersion(suiteFile: string, config: SuiteConfig, version: string = FLOWPROOF_VERSION): void {
  if (config.min_version && compareVersions(version, config.min_version) < 0) {
    throw new SpecError(
      diagnostic("bad-value", `${displayPath(suiteFile)} needs flowproof ${config.min_version} or newer; this is flowproof ${version}`, {
        hint: `upgrade flowproof to ${config.min_version} or newer`,
      }),
    );
  }
}

/** Loads the suite at `suiteFile`, checks `min_version` and builds its environment (runs env_from). */
export function prepareSuite(suiteFile: string, processEnv: Env, log: (line: string) => void): SuiteContext {
  const config = loadSuiteFile(suiteFile);
  const dir = dirname(suiteFile);
  checkMinVersion(suiteFile, config);
  // Where suite commands are refused (`flowproof mcp --no-hooks`), a suite that has any is refused before one runs.
  if (filePaths().commandsRefused) for (const [key, command] of suiteCommands(config)) filePaths().command(`${displayPath(suiteFile)}'s ${key}`, command, dir);
  const base: Record<string, string | undefined> = { ...processEnv };
  // env_from sees the env: entries that already resolve against the process environment.
  const early = resolveEnvEntries(config, base, () => undefined);
  if (config.env_from) filePaths().command("env_from", config.env_from, dir);
  const minted = config.env_from ? runEnvFrom(config.env_from, dir, { ...base, ...early }, log) : {};
  const env = { ...base, ...minted };
  Object.assign(env, resolveEnvEntries(config, env, log));
  return { dir, config, env, defaults: suiteDefaultsOf(suiteFile, config) };
}

/** The shell commands the suite runs, by key: `env_from`, `before_each`, `after_each`, `server.command`. */
function suiteCommands(config: SuiteConfig): Array<[string, string]> {
  const all: Array<[string, string | undefined]> = [
    ["env_from", config.env_from],
    ["before_each", config.before_each],
    ["after_each", config.after_each],
    ["server.command", config.server?.command],
  ];
  return all.filter((e): e is [string, string] => e[1] !== undefined);
}

/** The suite one flow runs in, as record, run and heal of that flow all see it. */
export interface FlowSuite {
  /** The governing suite.yaml (absolute path); absent when none governs the flow. */
  readonly file?: string;
  readonly ctx?: SuiteContext;
  /** The flow's environment: the suite's (process env < env_from < env), else the caller's. */
  readonly env: Env;
  /** The suite's `browser` defaults and `identities`, for the flow's own keys. */
  readonly defaults?: SuiteDefaults;
}

/**
 * The nearest suite.yaml at or above the flow (named on `log` as `suite: <path>`), prepared:
 * `min_version` checked, `env_from` run, `env` applied. No suite: the caller's env as it is.
 */
export function suiteOfFlow(spec: string, env: Env, log: (line: string) => void): FlowSuite {
  const file = findSuiteFile(dirname(resolve(spec)));
  if (!file) return { env };
  log(`suite: ${displayPath(file)}`);
  const ctx = prepareSuite(file, env, log);
  return { file, ctx, env: ctx.env, ...(ctx.defaults ? { defaults: ctx.defaults } : {}) };
}

/** Runs `body` with the suite's `server:` answering (started first, stopped after, whatever happens). */
export async function withSuiteServer<T>(suite: FlowSuite, log: (line: string) => void, body: () => Promise<T>, lifecycle: Lifecycle): Promise<T> {
  const ctx = suite.ctx;
  const server = ctx?.config.server ? await startAppServer(ctx.config.server, ctx.dir, suite.env, log, lifecycle) : undefined;
  try {
    return await body();
  } finally {
    await server?.stop();
  }
}

/** What a body run between the suite's hooks gave: its value, unless `before_each` failed; `hookError` says why a hook failed. */
export type Hooked<T> =
  | { readonly ran: true; readonly value: T; readonly hookError?: undefined }
  | { readonly ran: true; readonly value: T; readonly hookError: string }
  | { readonly ran: false; readonly hookError: string };

/**
 * Runs `body` once between the suite's `before_each` and `after_each` (with FLOWPROOF_SPEC set to
 * `spec`). A failing `before_each` skips the body; `after_each` always runs, also when the body
 * throws (which is then rethrown). The first hook failure is `hookError`.
 */
export async function withSuiteHooks<T>(
  suite: FlowSuite,
  spec: string,
  log: (line: string) => void,
  body: () => Promise<T>,
  lifecycle: Lifecycle,
): Promise<Hooked<T>> {
  const ctx = suite.ctx;
  const before = ctx?.config.before_each ? await runHook("before_each", ctx.config.before_each, ctx.dir, suite.env, spec, log, lifecycle) : undefined;
  let ran: { value: T } | undefined;
  let thrown: { error: unknown } | undefined;
  if (before === undefined) {
    try {
      ran = { value: await body() };
    } catch (error) {
      thrown = { error };
    }
  }
  const after = ctx?.config.after_each ? await runHook("after_each", ctx.config.after_each, ctx.dir, suite.env, spec, log, lifecycle) : undefined;
  if (thrown) throw thrown.error;
  if (!ran) return { ran: false, hookError: before! };
  return after === undefined ? { ran: true, value: ran.value } : { ran: true, value: ran.value, hookError: after };
}

/** Resolves `env:` entries in order (each may use the ones before it); unresolvable ones are skipped with a warning. */
function resolveEnvEntries(config: SuiteConfig, env: Env, log: (line: string) => void): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, raw } of config.env) {
    try {
      out[name] = resolveText(raw, { env: { ...env, ...out }, captures: new Map(), secrets: new Map() }).value;
    } catch (error) {
      log(`WARNING: suite env ${name} is not set: ${(error as Error).message}; a flow that uses \${${name}} will fail`);
    }
  }
  return out;
}

const ENV_LINE = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/** Runs env_from once; stdout must be NAME=VALUE lines. Fails closed on a non-zero exit or a malformed line. */
export function runEnvFrom(command: string, cwd: string, env: Env, log: (line: string) => void): Record<string, string> {
  const r = spawnSync("sh", ["-c", command], { cwd, env: definedOnly(env), encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (r.stderr) for (const line of r.stderr.trimEnd().split("\n")) log(`[env_from] ${line}`);
  if (r.error || r.status !== 0) {
    throw new SpecError(
      diagnostic(
        "bad-value",
        `env_from \`${command}\` failed (${r.error ? r.error.message : `exit code ${r.status ?? `signal ${r.signal}`}`}); the run is aborted`,
        { hint: "fix the command so it exits 0 and prints NAME=VALUE lines" },
      ),
    );
  }
  const out: Record<string, string> = {};
  for (const [i, line] of r.stdout.split(/\r?\n/).entries()) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = ENV_LINE.exec(line);
    if (!m) {
      // The line may hold a secret: name its number, never its text.
      throw new SpecError(
        diagnostic("bad-value", `env_from \`${command}\` printed a line that is not NAME=VALUE (stdout line ${i + 1}); the run is aborted`, {
          hint: "print one NAME=VALUE per line; blank lines and # comments are allowed",
        }),
      );
    }
    out[m[1]!] = m[2]!;
  }
  return out;
}

/**
 * Runs a before_each/after_each hook; resolves to undefined on success, else why it failed. The
 * hook runs in a process group of its own, ended (grandchildren included) when the run is asked
 * to stop, and killed at process exit at the latest.
 */
export function runHook(
  kind: "before_each" | "after_each",
  command: string,
  cwd: string,
  env: Env,
  spec: string,
  log: (line: string) => void,
  lifecycle: Lifecycle,
): Promise<string | undefined> {
  try {
    filePaths().command(kind, command, cwd);
  } catch (error) {
    return Promise.resolve((error as Error).message);
  }
  return new Promise((done) => {
    const child = spawn("sh", ["-c", command], { cwd, env: { ...definedOnly(env), FLOWPROOF_SPEC: spec }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const signalGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const onStop = () => signalGroup("SIGTERM");
    const unguard = child.pid !== undefined ? guardGroup(child.pid) : () => undefined;
    const owned = lifecycle.own({ stop: onStop, kill: () => signalGroup("SIGKILL") });
    const release = () => {
      owned();
      unguard();
    };
    if (lifecycle.signal.aborted) onStop();
    else lifecycle.signal.addEventListener("abort", onStop, { once: true });
    let tail = "";
    const collect = (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-2000);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", (e) => {
      release();
      lifecycle.signal.removeEventListener("abort", onStop);
      done(`${kind} hook could not start: ${e.message}`);
    });
    child.once("exit", (code, signal) => {
      lifecycle.signal.removeEventListener("abort", onStop);
      // What the hook left running in its group ends with it.
      signalGroup("SIGKILL");
      release();
      if (code === 0) return done(undefined);
      const last = tail.trim().split("\n").slice(-3).join(" | ");
      if (last) log(`[${kind}] ${last}`);
      done(`${kind} hook \`${command}\` failed (${code !== null ? `exit code ${code}` : `signal ${signal}`})`);
    });
  });
}

/** How long one readiness probe of a `server:` url waits for response headers. */
const ANSWER_MS = 2_000;

/** How long a `server:` gets to end after SIGTERM before its group is killed. */
const SERVER_STOP_MS = 5_000;

export interface RunningServer {
  /** Whether flowproof started it (false: an already running server was reused). */
  readonly started: boolean;
  stop(): Promise<void>;
}

/**
 * Starts the suite's `server:` and waits until its url answers; reuses a running one when allowed.
 * The server runs in a process group of its own, owned by `lifecycle`: `stop()`, a stopping run,
 * a forced exit and the process's exit all end the whole group, so no server keeps its port.
 */
export async function startAppServer(server: SuiteServer, cwd: string, env: Env, log: (line: string) => void, lifecycle: Lifecycle): Promise<RunningServer> {
  const url = resolveText(server.url, { env, captures: new Map(), secrets: new Map() }).value;
  filePaths().command("server.command", server.command, cwd);
  if (await answers(url, lifecycle.signal)) {
    if (server.reuse_existing) {
      log(`[SERVER] reusing the server already answering at ${url}`);
      return { started: false, stop: async () => undefined };
    }
    throw new SpecError(
      diagnostic("bad-value", `something already answers at ${url}, so \`server.command\` would not be the app under test`, {
        hint: "stop that server, or set `reuse_existing: true` under `server:` in suite.yaml",
      }),
    );
  }
  // Its own process group, so stopping it also stops what the command spawned (npm → node …).
  const child = spawn("sh", ["-c", server.command], { cwd, env: definedOnly(env), stdio: ["ignore", "pipe", "pipe"], detached: true });
  let tail = "";
  const collect = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-2000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let exited: string | undefined;
  const exit = new Promise<void>((done) =>
    child.once("exit", (code, signal) => {
      exited = code !== null ? `exit code ${code}` : `signal ${signal}`;
      done();
    }),
  );
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  // The shell may exit before what it started (npm → node …): the group is ended either way.
  // Owned until the group is gone, so a forced exit during a slow stop still kills it.
  const stop = async () => {
    signalGroup("SIGTERM");
    if (exited === undefined) {
      const timer = setTimeout(() => signalGroup("SIGKILL"), SERVER_STOP_MS);
      await exit;
      clearTimeout(timer);
    }
    signalGroup("SIGKILL");
    release();
    unguard();
  };
  const release = lifecycle.own({ stop, kill: () => signalGroup("SIGKILL") });
  // Killed even if flowproof dies without running any exit hook.
  const unguard = child.pid !== undefined ? guardGroup(child.pid) : () => undefined;
  const deadline = Date.now() + server.timeout_seconds * 1000;
  log(`[SERVER] started \`${server.command}\`; waiting for ${url}`);
  while (Date.now() < deadline) {
    if (lifecycle.signal.aborted) {
      await stop();
      throw new FlowproofError(
        diagnostic(
          "interrupted",
          `the run was interrupted (${lifecycle.stopRequest?.reason ?? "stop requested"}) while waiting for ${url}; the server was stopped`,
        ),
      );
    }
    if (exited !== undefined) {
      await stop();
      throw new SpecError(
        diagnostic(
          "bad-value",
          `the server command \`${server.command}\` exited (${exited}) before ${url} answered${tail.trim() ? `: ${tail.trim().split("\n").slice(-3).join(" | ")}` : ""}`,
          { hint: "run the command by hand to see why it stops" },
        ),
      );
    }
    if (await answers(url, lifecycle.signal)) return { started: true, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new SpecError(
    diagnostic("bad-value", `${url} did not answer within ${server.timeout_seconds} s of starting \`${server.command}\``, {
      hint: "raise `server.timeout_seconds`, or check that `server.url` is where the app listens",
    }),
  );
}

/** Whether `url` answers with response headers within ANSWER_MS (a server that accepts and never answers does not); a stop request ends the wait. */
async function answers(url: string, stop?: AbortSignal): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: stop ? AbortSignal.any([AbortSignal.timeout(ANSWER_MS), stop]) : AbortSignal.timeout(ANSWER_MS), redirect: "manual" });
    await r.body?.cancel();
    return true;
  } catch {
    return false; // not listening yet
  }
}

function definedOnly(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
