// The Wine test bed: Windows executables (the flowproof exe, probe programs built from the
// Windows bindings, mingw-built fixture apps) run under Wine on a private Xvfb display with a
// fresh 64-bit prefix. One bed per test FILE: startWineBed() in beforeAll, stop() in afterAll.
//
// Rules the bed applies (measured in ../shared/research/wine.md): the bcryptprimitives.dll shim
// sits next to every Bun-built exe (Wine 8 lacks it); the AeDebug debugger is removed so a crash
// exits instead of hanging; `wineserver -k` runs after `wineboot -i`; callers poll for windows;
// paths handed to Windows programs are absolute (Z:\…).
//
// Built artefacts are cached per machine under node_modules/.cache/flowproof-test/wine/, keyed by
// a hash of what they are built from, so the test files of one run share them.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, copyFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { TARGETS, compileArgv } from "../../scripts/build.ts";
import { writeBuiltPageScript } from "../../plugins/web/injected/bundle.ts";

const ROOT = resolve(import.meta.dir, "../..");
export const WINE64 = "/usr/lib/wine/wine64";
export const WINESERVER = "/usr/lib/wine/wineserver64";
export const MINGW_GCC = "x86_64-w64-mingw32-gcc";
export const CACHE_DIR = join(ROOT, "node_modules", ".cache", "flowproof-test", "wine");
const SHIM_C = join(ROOT, "test", "fixtures", "wine", "bcryptprimitives.c");
const SHIM_DEF = join(ROOT, "test", "fixtures", "wine", "bcryptprimitives.def");
export const FIXTURE_C = join(ROOT, "test", "fixtures", "win32", "fixture.c");
export const INSTALL_HINT = "apt-get install -y --no-install-recommends wine wine64 libwine fonts-wine gcc-mingw-w64-x86-64 xvfb";

/** Throws, naming the apt-get command to run, when Wine, Xvfb or mingw is missing (`tools` overrides where to look). */
export function requireWineTools(tools: { wine64?: string; wineserver?: string; xvfb?: string; gcc?: string } = {}): void {
  const wine64 = tools.wine64 ?? WINE64;
  const wineserver = tools.wineserver ?? WINESERVER;
  const xvfb = tools.xvfb ?? "Xvfb";
  const gcc = tools.gcc ?? MINGW_GCC;
  const missing: string[] = [];
  if (!existsSync(wine64)) missing.push(`Wine (${wine64})`);
  if (!existsSync(wineserver)) missing.push(`wineserver (${wineserver})`);
  if (Bun.which(xvfb) === null) missing.push(`Xvfb (${xvfb})`);
  if (Bun.which(gcc) === null) missing.push(`mingw (${gcc})`);
  if (missing.length > 0) throw new Error(`the Wine test bed needs ${missing.join(", ")}; install them with: ${INSTALL_HINT}`);
}

/** `Z:\…` for an absolute Linux path: how a Windows program under Wine must be given it. */
export function winPath(linuxPath: string): string {
  return `Z:${resolve(linuxPath).replaceAll("/", "\\")}`;
}

const sha = (...parts: (string | Uint8Array)[]): string => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex").slice(0, 16);
};

/** Collects a stream's text as it arrives; `text()` answers what came so far. */
function collect(stream: ReadableStream<Uint8Array>): { done: Promise<void>; text: () => string; cancel: () => void } {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // cancelled
    }
  })();
  return { done, text: () => text, cancel: () => void reader.cancel().catch(() => undefined) };
}

/**
 * Runs a command to its exit. Output is read while it runs and for at most a moment after: a Wine
 * program that starts the prefix's wineserver or services hands them its stdout and stderr, so
 * those pipes may never reach end-of-file while the bed lives.
 */
async function run(
  argv: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([...argv], {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? (process.env as Record<string, string>),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = collect(proc.stdout);
  const err = collect(proc.stderr);
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => proc.kill("SIGKILL"), options.timeoutMs);
  // Bounded even if the exit is never reported: 5 s after the kill, answer 137 (SIGKILL's code).
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const code =
    options.timeoutMs === undefined
      ? await proc.exited
      : await Promise.race([proc.exited, new Promise<number>((done) => (giveUp = setTimeout(() => done(137), (options.timeoutMs ?? 0) + 5_000)))]);
  if (timer !== undefined) clearTimeout(timer);
  if (giveUp !== undefined) clearTimeout(giveUp);
  await Promise.race([Promise.all([out.done, err.done]), Bun.sleep(1_000)]);
  out.cancel();
  err.cancel();
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Moves a freshly built file into the cache under its final name (atomic; a concurrent build of the same key is harmless). */
function publish(tmp: string, final: string): string {
  renameSync(tmp, final);
  return final;
}

const tmpName = (final: string): string => `${final}.${process.pid}.${Date.now()}.tmp`;

/** The bcryptprimitives.dll shim in `dir` (compiled once per machine and copied). */
async function shimInto(dir: string): Promise<void> {
  const target = join(dir, "bcryptprimitives.dll");
  if (existsSync(target)) return;
  mkdirSync(CACHE_DIR, { recursive: true });
  const cached = join(CACHE_DIR, `bcryptprimitives-${sha(readFileSync(SHIM_C), readFileSync(SHIM_DEF))}.dll`);
  if (!existsSync(cached)) {
    const tmp = tmpName(cached);
    const r = await run([MINGW_GCC, "-O2", "-shared", "-o", tmp, SHIM_C, SHIM_DEF, "-lbcrypt"]);
    if (r.code !== 0) throw new Error(`compiling the bcryptprimitives shim failed:\n${r.stderr}`);
    publish(tmp, cached);
  }
  const tmp = tmpName(target);
  copyFileSync(cached, tmp);
  publish(tmp, target);
}

/** Time spent building, for the measurements a test may print. */
export const buildTimings: { label: string; ms: number; cached: boolean }[] = [];

/**
 * A Windows x64 executable compiled from `entry` with `bun build --compile`, cached by a hash of
 * its bundled code (so any change to an imported module rebuilds it), with the shim beside it.
 */
export async function windowsExecutable(entry: string, name: string = basename(entry).replace(/\.ts$/, "")): Promise<string> {
  requireWineTools();
  const t0 = performance.now();
  const bundle = await Bun.build({ entrypoints: [entry], target: "bun", throw: false });
  if (!bundle.success) throw new Error(`bundling ${entry} failed:\n${bundle.logs.map(String).join("\n")}`);
  const texts = await Promise.all(bundle.outputs.map((o) => o.text()));
  // The embedded page script is part of what the executable is.
  const pageScript = writeBuiltPageScript();
  // The compile flags are part of what the executable is: a change of them builds it anew.
  const flags = compileArgv(entry, TARGETS["windows-x64"].bunTarget, "", pageScript).filter((a) => a.startsWith("--"));
  const dir = join(CACHE_DIR, `${name}-${sha(Bun.version, TARGETS["windows-x64"].bunTarget, ...flags, ...texts, readFileSync(pageScript, "utf8"))}`);
  const exe = join(dir, `${name}.exe`);
  if (existsSync(exe)) {
    await shimInto(dir);
    buildTimings.push({ label: `${name}.exe`, ms: performance.now() - t0, cached: true });
    return exe;
  }
  mkdirSync(dir, { recursive: true });
  const tmp = tmpName(exe);
  const r = await run(compileArgv(entry, TARGETS["windows-x64"].bunTarget, tmp, pageScript));
  // Bun appends .exe to a Windows outfile that lacks it.
  const produced = existsSync(tmp) ? tmp : `${tmp}.exe`;
  if (r.code !== 0 || !existsSync(produced)) throw new Error(`bun build --compile --target=bun-windows-x64 ${entry} failed:\n${r.stdout}${r.stderr}`);
  publish(produced, exe);
  await shimInto(dir);
  pruneWineCache(3);
  buildTimings.push({ label: `${name}.exe`, ms: performance.now() - t0, cached: false });
  return exe;
}

/** The flowproof CLI as a Windows executable (src/cli/main.ts), cached like any other. */
export function flowproofExecutable(): Promise<string> {
  return windowsExecutable(join(ROOT, "src", "cli", "main.ts"), "flowproof");
}

/** A mingw-built GUI program from C source `source` (default: the fixture app), cached by the source's hash. */
export async function compileWin32(source: string = FIXTURE_C, extraArgs: readonly string[] = []): Promise<string> {
  requireWineTools();
  const t0 = performance.now();
  const name = basename(source).replace(/\.c$/, "");
  const exe = join(CACHE_DIR, `${name}-${sha(readFileSync(source), extraArgs.join(" "))}.exe`);
  if (!existsSync(exe)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = tmpName(exe);
    const r = await run([MINGW_GCC, "-O2", "-Wall", "-municode", "-mwindows", "-o", tmp, source, ...extraArgs]);
    if (r.code !== 0) throw new Error(`${MINGW_GCC} ${source} failed:\n${r.stderr}`);
    publish(tmp, exe);
    buildTimings.push({ label: basename(exe), ms: performance.now() - t0, cached: false });
  } else buildTimings.push({ label: basename(exe), ms: performance.now() - t0, cached: true });
  return exe;
}

export interface WineRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** A Wine run as a failure message shows it: exit code, stdout, stderr. */
export function showRun(r: WineRun): string {
  return `exit ${r.code}\n${r.stdout}\n${r.stderr}`;
}

export interface WineProcess {
  readonly proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Ends the program (SIGKILL to its Wine process; the bed's stop() ends the rest). */
  kill(): void;
}

export interface WineBed {
  /** The bed's temp directory (prefix, scratch files). */
  readonly dir: string;
  readonly prefix: string;
  /** The Xvfb display, ":N". */
  readonly display: string;
  readonly xvfbPid: number;
  /** The environment Wine programs run with. */
  readonly env: Readonly<Record<string, string>>;
  /** Setup costs in ms: Xvfb start, wineboot, the wineserver restart. */
  readonly timings: Readonly<Record<string, number>>;
  /** Runs `exe` (a Linux path) under Wine to completion; paths in `args` must already be winPath()s. */
  run(exe: string, args?: readonly string[], options?: { timeoutMs?: number; env?: Record<string, string> }): Promise<WineRun>;
  /** Starts `exe` (a Linux path, or a program Wine knows such as "notepad") and leaves it running. */
  start(exe: string, args?: readonly string[]): WineProcess;
  /** Writes `flow` as `<name>.flow.yaml` in a fresh project folder of the bed; answers its Linux path. */
  writeFlow(name: string, flow: string): string;
  /** Ends every Wine process of the prefix and Xvfb; removes the bed's directory. Safe to call twice. */
  stop(): Promise<void>;
}

const SCREEN = "1280x800x24";
/** Xvfb reports its display in well under a second when idle; a busy CI machine can take far longer. */
const XVFB_START_MS = 90_000;

async function startXvfb(): Promise<{ proc: Subprocess; display: string }> {
  // -displayfd: Xvfb picks a free display number and writes it to stdout once it accepts clients.
  const proc = Bun.spawn(["Xvfb", "-displayfd", "1", "-screen", "0", SCREEN, "-nolisten", "tcp"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let text = "";
  const deadline = Date.now() + XVFB_START_MS;
  while (!text.includes("\n")) {
    const next = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => undefined)]);
    if (next === undefined || next.done) {
      proc.kill("SIGKILL");
      throw new Error(`Xvfb did not report a display within ${XVFB_START_MS} ms: ${await new Response(proc.stderr).text().catch(() => "")}`);
    }
    text += new TextDecoder().decode(next.value);
  }
  reader.releaseLock();
  return { proc, display: `:${text.trim()}` };
}

/** Live processes whose environment names WINEPREFIX=`prefix` (every Wine process of a prefix, wineserver included). */
export function processesOfPrefix(prefix: string): number[] {
  const needle = Buffer.from(`WINEPREFIX=${prefix}\0`);
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(needle)) out.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

/** True while process `pid` exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

const wineVersion = (): string => Bun.spawnSync([WINE64, "--version"]).stdout.toString().trim();

/** How the prefix template is made; a change here gives templates a new name. */
const TEMPLATE_RECIPE = "win64; wineboot -i; wineserver -w; AeDebug Debugger removed; wineserver -k -w; v1";

/** Files of a prefix that Wine rewrites in place (registry, ini files…): copied, never hard-linked. */
const BINARY = /\.(dll|exe|sys|drv|ocx|cpl|acm|ax|tlb|ds|ime|mui|nls|ttf|ttc|fon|msstyles)$/i;

/**
 * A booted prefix per machine and Wine version under the temp directory, made once (wineboot -i,
 * AeDebug removed, wineserver stopped). Beds copy it: the binaries hard-linked, every other file
 * copied, so each bed still gets a prefix of its own.
 */
async function prefixTemplate(env: Record<string, string>, timings: Record<string, number>): Promise<string> {
  const final = join(tmpdir(), `flowproof-wine-template-${sha(wineVersion(), TEMPLATE_RECIPE)}`);
  if (existsSync(join(final, ".flowproof-ready"))) return final;
  const building = `${final}.${process.pid}.${Date.now()}.tmp`;
  const benv = { ...env, WINEPREFIX: building };
  try {
    let t = performance.now();
    const boot = await run([WINE64, "wineboot", "-i"], { env: benv, timeoutMs: 240_000 });
    if (boot.code !== 0) throw new Error(`wineboot -i failed (${boot.code}):\n${boot.stderr.slice(-2000)}`);
    await run([WINESERVER, "-w"], { env: benv, timeoutMs: 120_000 });
    timings["wineboot"] = performance.now() - t;
    t = performance.now();
    const reg = await run([WINE64, "reg", "delete", "HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\AeDebug", "/v", "Debugger", "/f"], {
      env: benv,
      timeoutMs: 120_000,
    });
    if (reg.code !== 0) throw new Error(`removing the AeDebug debugger failed (${reg.code}):\n${reg.stdout}${reg.stderr}`);
    await run([WINESERVER, "-k"], { env: benv, timeoutMs: 60_000 });
    await run([WINESERVER, "-w"], { env: benv, timeoutMs: 60_000 });
    timings["aedebug+restart"] = performance.now() - t;
    await Bun.write(join(building, ".flowproof-ready"), `${wineVersion()}\n${TEMPLATE_RECIPE}\n`);
    try {
      renameSync(building, final);
    } catch {
      // Another test file made it meanwhile; theirs is as good.
    }
  } finally {
    Bun.spawnSync([WINESERVER, "-k"], { env: benv, stdout: "ignore", stderr: "ignore" });
    rmSync(building, { recursive: true, force: true });
  }
  return final;
}

/** A private copy of `template` at `target`: Wine's binaries hard-linked, everything else copied. */
function copyPrefix(template: string, target: string): void {
  const r = Bun.spawnSync(["cp", "-al", template, target]);
  if (r.exitCode !== 0) {
    const full = Bun.spawnSync(["cp", "-a", template, target]);
    if (full.exitCode !== 0) throw new Error(`copying the Wine prefix failed: ${full.stderr.toString()}`);
    return;
  }
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && !BINARY.test(entry.name)) {
        const tmp = `${path}.copy`;
        copyFileSync(path, tmp);
        renameSync(tmp, path);
      }
    }
  };
  walk(target);
}

/** Starts Xvfb and gives the bed a fresh prefix. Throws with the apt-get command when a tool is missing. */
export async function startWineBed(): Promise<WineBed> {
  requireWineTools();
  const timings: Record<string, number> = {};
  const dir = mkdtempSync(join(tmpdir(), "flowproof-wine-"));
  const prefix = join(dir, "prefix");
  let t = performance.now();
  const xvfb = await startXvfb();
  timings["xvfb"] = performance.now() - t;
  const env: Record<string, string> = {
    HOME: process.env["HOME"] ?? dir,
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    WINEPREFIX: prefix,
    WINEARCH: "win64",
    WINEDEBUG: "-all",
    DISPLAY: xvfb.display,
    // No Mono/Gecko installer prompts during wineboot.
    WINEDLLOVERRIDES: "mscoree,mshtml=",
    LANG: "C.UTF-8",
  };
  const started: Subprocess[] = [];
  let stopped = false;
  const killAllSync = (): void => {
    Bun.spawnSync([WINESERVER, "-k"], { env, stdout: "ignore", stderr: "ignore" });
    xvfb.proc.kill("SIGKILL");
  };
  process.once("exit", () => {
    if (!stopped) killAllSync();
  });
  try {
    const template = await prefixTemplate(env, timings);
    t = performance.now();
    copyPrefix(template, prefix);
    timings["prefix copy"] = performance.now() - t;
  } catch (error) {
    killAllSync();
    stopped = true;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let projects = 0;
  return {
    dir,
    prefix,
    display: xvfb.display,
    xvfbPid: xvfb.proc.pid,
    env,
    timings,
    async run(exe, args = [], options = {}) {
      const t0 = performance.now();
      const r = await run([WINE64, exe, ...args], { env: { ...env, ...options.env }, cwd: dir, timeoutMs: options.timeoutMs ?? 60_000 });
      return { ...r, ms: performance.now() - t0 };
    },
    writeFlow(name, flow) {
      const project = join(dir, `p${++projects}`);
      mkdirSync(project, { recursive: true });
      const path = join(project, `${name}.flow.yaml`);
      writeFileSync(path, flow);
      return path;
    },
    start(exe, args = []) {
      const proc = Bun.spawn([WINE64, exe, ...args], { env, cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      started.push(proc);
      return { proc, kill: () => proc.kill("SIGKILL") };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await run([WINESERVER, "-k"], { env, timeoutMs: 30_000 });
      for (const p of started) p.kill("SIGKILL");
      // wineserver -k signals; wait (bounded) until no process of the prefix is left.
      const deadline = Date.now() + 15_000;
      while (processesOfPrefix(prefix).length > 0 && Date.now() < deadline) await Bun.sleep(100);
      for (const pid of processesOfPrefix(prefix)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      xvfb.proc.kill("SIGTERM");
      await Promise.race([xvfb.proc.exited, Bun.sleep(5_000)]);
      if (processAlive(xvfb.proc.pid)) xvfb.proc.kill("SIGKILL");
      await xvfb.proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Removes cached builds other than the newest `keep` per name (each windows-x64 build is ~110 MB). */
export function pruneWineCache(keep = 2): void {
  if (!existsSync(CACHE_DIR)) return;
  const byName = new Map<string, { path: string; mtime: number }[]>();
  for (const entry of readdirSync(CACHE_DIR)) {
    const m = /^(.+)-[0-9a-f]{16}(\.exe|\.dll)?$/.exec(entry);
    if (m === null) continue;
    const path = join(CACHE_DIR, entry);
    const list = byName.get(`${m[1]}${m[2] ?? ""}`) ?? [];
    list.push({ path, mtime: statSync(path).mtimeMs });
    byName.set(`${m[1]}${m[2] ?? ""}`, list);
  }
  for (const list of byName.values()) {
    list.sort((a, b) => b.mtime - a.mtime);
    for (const old of list.slice(keep)) rmSync(old.path, { recursive: true, force: true });
  }
}
