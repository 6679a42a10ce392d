// The last line of defence for process groups flowproof starts (browsers, agents, app servers,
// hooks, MCP servers) and the temporary directories it makes for them: a small watchdog shell,
// started once per process, that kills every group still registered, then removes every directory
// still registered, when flowproof ends in a way no exit hook sees (SIGKILL, the OOM killer).
// flowproof tells it `+<pgid>` when a group starts and `-<pgid>` once the group was ended the
// normal way (`D+<path>` / `D-<path>` for a directory); its stdin reaching end-of-file is
// flowproof's death, however it came. POSIX only: on Windows the programs flowproof starts are in
// kill-on-close job objects instead.
//
// Its in-process half, `killAtExit`, is the one exit hook for everything a plugin started: each
// registration's synchronous kill runs when flowproof exits (and, when nothing else in the process
// handles SIGINT/SIGTERM/SIGHUP, before such a signal takes its default course).
import type { Subprocess } from "bun";

/**
 * The watchdog: reads registrations until end-of-file, then kills what is left and removes the
 * directories left (one path a line). It ignores the terminal's SIGINT and SIGHUP (flowproof handles
 * those itself and ends its groups in order).
 */
const WATCHDOG = [
  "trap '' INT HUP",
  'groups=" "',
  "dirs=''",
  "while IFS= read -r line; do",
  '  case "$line" in',
  '    +*) groups="$groups${line#+} " ;;',
  '    -*) groups=$(printf "%s" "$groups" | sed "s/ ${line#-} / /") ;;',
  // Shell builtins only for directories: no helper process ever carries a path in its arguments
  // but the `rm` of one left behind.
  '    D+*) dirs="$dirs${line#D+}',
  '" ;;',
  "    D-*)",
  '      kept=""',
  "      while IFS= read -r d; do",
  '        [ -n "$d" ] && [ "$d" != "${line#D-}" ] && kept="$kept$d',
  '"',
  "      done <<EOF",
  "$dirs",
  "EOF",
  "      dirs=$kept ;;",
  "  esac",
  "done",
  'for g in $groups; do kill -9 -"$g" 2>/dev/null; done',
  "while IFS= read -r d; do",
  '  [ -n "$d" ] && [ -e "$d" ] && rm -rf -- "$d"',
  "done <<EOF",
  "$dirs",
  "EOF",
].join("\n");

let watchdog: Subprocess<"pipe", "ignore", "ignore"> | null | undefined;

function start(): Subprocess<"pipe", "ignore", "ignore"> | null {
  if (process.platform === "win32") return null;
  try {
    // Its own process group: a signal sent to flowproof's group (a terminal's Ctrl-C) is not for it.
    const proc = Bun.spawn(["sh", "-c", WATCHDOG], { stdin: "pipe", stdout: "ignore", stderr: "ignore", detached: true });
    // Neither the watchdog nor its pipe keeps flowproof running.
    proc.unref();
    proc.stdin.unref();
    return proc;
  } catch {
    // No sh: the exit hooks remain the only guard.
    return null;
  }
}

function tell(line: string): void {
  watchdog ??= start();
  if (!watchdog) return;
  try {
    watchdog.stdin.write(`${line}\n`);
    void watchdog.stdin.flush();
  } catch {
    // The watchdog is gone (killed by someone): nothing more to tell it.
    watchdog = null;
  }
}

/**
 * Registers process group `pgid` (a child spawned `detached`, whose pid is its group's id): it is
 * killed if this process dies without ending it. Returns the release, to call once the group was
 * ended (so a later group that reuses the id is never touched).
 */
export function guardGroup(pgid: number): () => void {
  tell(`+${pgid}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    tell(`-${pgid}`);
  };
}

/**
 * Registers temporary directory `path` (absolute, one line): it is removed if this process dies
 * before removing it, after the registered groups (whose programs may write there) are killed.
 * Returns the release, to call once the directory was removed or handed over.
 */
export function guardDir(path: string): () => void {
  if (path.includes("\n") || !path.startsWith("/")) return () => undefined;
  tell(`D+${path}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    tell(`D-${path}`);
  };
}

/** Synchronous kills still registered, run once at process exit. */
const exitKills = new Set<() => void>();
let exitHookInstalled = false;

function runExitKills(): void {
  for (const kill of [...exitKills]) {
    exitKills.delete(kill);
    try {
      kill();
    } catch {
      // One kill failing (its process already gone) must not keep the others from running.
    }
  }
}

/**
 * The hook, installed once per process. A signal nothing else handles would end the process
 * without an exit event: the kills run first, then the signal takes its default course. The CLI's
 * own handlers (which stop flows in order) make this fallback stand aside.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", runExitKills);
  if (process.platform === "win32") return;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const fallback = (): void => {
      if (process.listenerCount(signal) > 1) return;
      runExitKills();
      process.removeListener(signal, fallback);
      process.kill(process.pid, signal);
    };
    process.on(signal, fallback);
  }
}

/**
 * Registers `kill`, a synchronous last resort for something this process started (a browser, an
 * agent, a desktop program): it runs when the process exits unless released first. Returns the
 * release, to call once the thing was ended the normal way.
 */
export function killAtExit(kill: () => void): () => void {
  installExitHook();
  exitKills.add(kill);
  return () => void exitKills.delete(kill);
}
