// The reaper an uncontained agent runs under on Linux, so that no descendant outlives the
// execution — not even one that left the agent's process group (`setsid`, a double fork). It is a
// child subreaper (PR_SET_CHILD_SUBREAPER): a descendant whose parent dies is re-parented to it,
// not to init, so it can always find every descendant left (walking /proc from itself). It runs
// the agent's command in a process group of its own, tells flowproof that group's id on fd 3, and
// kills every descendant when the agent exits, when it is asked to stop (SIGTERM, SIGINT, SIGHUP),
// or when flowproof itself is gone (its parent changed), then exits as the agent did.
//
// It runs as a separate process (`bun -e`, the running executable acting as Bun), so
// `reaperProgram` assembles its source from the functions below: each uses only its arguments.

/** One row of the process table: a process, its parent, and whether it is a zombie. */
export interface ProcRow {
  readonly pid: number;
  readonly ppid: number;
  readonly zombie: boolean;
}

/** A /proc/<pid>/stat line as a row (the command name may hold spaces and parentheses). */
export function reaperParseStat(text: string): ProcRow | undefined {
  const close = text.lastIndexOf(")");
  const pid = Number.parseInt(text, 10);
  if (close < 0 || !Number.isInteger(pid)) return undefined;
  const [state, ppid] = text.slice(close + 2).split(" ");
  const parent = Number(ppid);
  return Number.isInteger(parent) ? { pid, ppid: parent, zombie: state === "Z" || state === "X" } : undefined;
}

/** Every live (not zombie) descendant of `root` in the table, parents before children. */
export function reaperDescendants(rows: readonly ProcRow[], root: number): number[] {
  const children = new Map<number, ProcRow[]>();
  for (const r of rows) children.set(r.ppid, [...(children.get(r.ppid) ?? []), r]);
  const out: number[] = [];
  const queue = [root];
  const seen = new Set([root]);
  while (queue.length > 0) {
    for (const c of children.get(queue.shift()!) ?? []) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      queue.push(c.pid);
      if (!c.zombie) out.push(c.pid);
    }
  }
  return out;
}

/** The built-in modules the reaper uses, handed in. */
export interface ReaperModules {
  readonly fs: typeof import("node:fs");
  readonly cp: typeof import("node:child_process");
  readonly os: typeof import("node:os");
  readonly ffi: typeof import("bun:ffi");
}

/** The reaper's main: runs `command` (FLOWPROOF_REAPER_COMMAND) through `sh -c` and ends every descendant with it. */
export function reaperMain(command: string, modules: ReaperModules): void {
  const { fs, cp, os, ffi } = modules;
  const libc = ffi.dlopen("libc.so.6", {
    prctl: { args: ["i32", "u64", "u64", "u64", "u64"], returns: "i32" },
    waitpid: { args: ["i32", "ptr", "i32"], returns: "i32" },
  });
  const parent = process.ppid;
  libc.symbols.prctl(36 /* PR_SET_CHILD_SUBREAPER */, 1, 0, 0, 0);
  const table = (): ProcRow[] => {
    const rows: ProcRow[] = [];
    for (const name of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const row = reaperParseStat(fs.readFileSync(`/proc/${name}/stat`, "utf8"));
        if (row) rows.push(row);
      } catch {
        // gone meanwhile
      }
    }
    return rows;
  };
  const status = new Int32Array(1);
  /** Reaps the children that are zombies (never the agent's shell while it runs: Bun waits for that one). */
  const reap = (except: number | undefined) => {
    for (const r of table()) if (r.ppid === process.pid && r.zombie && r.pid !== except) libc.symbols.waitpid(r.pid, ffi.ptr(status), 1 /* WNOHANG */);
  };
  let ending = false;
  /** Kills every descendant, again and again, until none is left; then exits as the agent did. */
  const end = (code: number, signal?: NodeJS.Signals) => {
    if (ending) return;
    ending = true;
    const deadline = Date.now() + 5_000;
    for (;;) {
      const rows = table();
      const left = reaperDescendants(rows, process.pid);
      // Done when no descendant is alive and no child of its own waits to be reaped.
      if ((left.length === 0 && !rows.some((r) => r.ppid === process.pid && r.zombie)) || Date.now() > deadline) break;
      for (const pid of left) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone already
        }
      }
      while (libc.symbols.waitpid(-1, ffi.ptr(status), 1 /* WNOHANG */) > 0) {
        // reaped one
      }
      Bun.sleepSync(5);
    }
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : code);
  };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "BUN_BE_BUN" && k !== "FLOWPROOF_REAPER_COMMAND") env[k] = v;
  // The agent's own process group: flowproof ends it first, the reaper ends whatever is left.
  const child = cp.spawn("sh", ["-c", command], { stdio: "inherit", env, detached: true });
  if (child.pid !== undefined) {
    try {
      fs.writeSync(3, `${child.pid}\n`);
      fs.closeSync(3);
    } catch {
      // nobody listens on fd 3: flowproof ends the agent through the reaper alone
    }
  }
  child.on("error", () => end(127));
  child.on("exit", (code, signal) => end(code ?? 1, signal ?? undefined));
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // gone already
        }
      }
      // A moment to end on their own, then everything left is killed.
      setTimeout(() => end(128 + (os.constants.signals[signal] ?? 0)), 1_000);
    });
  }
  let tick = 0;
  setInterval(() => {
    // flowproof is gone (killed outright): nobody else would end the agent's descendants.
    if (process.ppid !== parent) end(1);
    if (++tick % 10 === 0) reap(child.pid);
  }, 100);
}

/** The source `bun -e` runs: the functions above, then `reaperMain` on FLOWPROOF_REAPER_COMMAND. */
export function reaperProgram(): string {
  const parts = [reaperParseStat, reaperDescendants, reaperMain].map((f) => f.toString());
  const modules = `{ fs: require("node:fs"), cp: require("node:child_process"), os: require("node:os"), ffi: require("bun:ffi") }`;
  return `${parts.join("\n")}\nreaperMain(process.env.FLOWPROOF_REAPER_COMMAND, ${modules});\n`;
}
