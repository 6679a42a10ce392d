// What the benchmarks share: medians, their whole-number command-line options, how busy the machine is.
import { readFileSync } from "node:fs";

/** The median of `xs`; NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `--name N` from the command line: a whole number ≥ `min`, else the usage line and exit 2. */
export function wholeOption(name: string, fallback: number, usage: string, min = 0): number {
  const i = process.argv.indexOf(name);
  const n = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < min) {
    console.error(`usage: ${usage} (${name} needs a whole number ≥ ${min})`);
    process.exit(2);
  }
  return n;
}

/** The 1, 5 and 15 minute load averages, printed beside the figures. */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

// Machine noise: the browser shares the cores with everything else, so a parallel test run or
// type-check skews every figure. The benches sample how busy the machine is for a second before the
// timed runs and a second after them (their own browsers are closed both times), from /proc/stat.
// Per-process accounting during the runs does not work: Chromium's helper processes are not reaped
// into the bench's counters.

function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait };
  } catch {
    return undefined;
  }
}

/** Share of the machine's CPU in use over the next `ms` while this process sleeps; undefined without /proc. */
export async function machineBusy(ms = 1000): Promise<number | undefined> {
  const a = cpuTimes();
  await Bun.sleep(ms);
  const b = cpuTimes();
  if (!a || !b || b.total <= a.total) return undefined;
  return (b.busy - a.busy) / (b.total - a.total);
}
