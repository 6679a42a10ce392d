// Processes as the signal and MCP lifecycle tests see them on Linux: a process's live descendants
// (read from /proc/<pid>/task/<tid>/children) and whether a pid is still running.
import { readdirSync, readFileSync } from "node:fs";

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
