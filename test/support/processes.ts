// Processes as the signal and MCP lifecycle tests see them on Linux: a process's live descendants
// (read from /proc/<pid>/task/<tid>/children) and whether a pid is still running.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Every descendant of `pid` still listed by /proc, children before grandchildren. */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue; // already gone
    }
    for (const t of tasks) {
      try {
        const kids = readFileSync(`/proc/${p}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
        out.push(...kids);
        queue.push(...kids);
      } catch {
        // the thread ended while being read
      }
    }
  }
  return out;
}

/** Whether `pid` is a running (not zombie) process. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * The DevTools port of the headed browser a CLI process started (found among its descendants by the
 * user data dir on the browser's command line); undefined while there is none yet. A headless one
 * is an error: the tests that ask drive a visible window.
 */
export function headedBrowserPort(cliPid: number): number | undefined {
  for (const pid of descendants(cliPid)) {
    let cmd: string[];
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // already gone
    }
    const dir = cmd.find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
    if (!dir || cmd.some((a) => a.startsWith("--type="))) continue;
    let active: string;
    try {
      active = readFileSync(join(dir, "DevToolsActivePort"), "utf8");
    } catch {
      continue; // not listening yet
    }
    if (cmd.some((a) => a.startsWith("--headless"))) throw new Error(`the browser under process ${cliPid} runs headless: ${cmd.join(" ")}`);
    return Number(active.split("\n")[0]);
  }
  return undefined;
}
