// The group guard for real: a process registers process groups and temporary directories, then is
// killed outright (SIGKILL, so no exit hook runs): the groups still registered die with it and the
// directories still registered are removed; a released group or directory is left alone.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstLine } from "../../test/support/cli.ts";

const dir = mkdtempSync(join(tmpdir(), "flowproof-guard-"));
const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether `done` holds within `withinMs` (polled). */
async function within(withinMs: number, done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (done()) return true;
    await Bun.sleep(50);
  }
  return done();
}

const gone = (pid: number, withinMs: number) => within(withinMs, () => !alive(pid));
const removed = (path: string, withinMs: number) => within(withinMs, () => !existsSync(path));

test.skipIf(process.platform === "win32")(
  "groups still registered die when their process is killed outright and directories still registered are removed; released ones stay; the guard keeps no process alive",
  async () => {
    const script = join(dir, "owner.ts");
    writeFileSync(
      script,
      `
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guardDir, guardGroup } from ${JSON.stringify(join(import.meta.dir, "group-guard.ts"))};
const start = () => spawn("sh", ["-c", "sleep 300 & sleep 300; wait"], { stdio: "ignore", detached: true });
const guarded = start();
guardGroup(guarded.pid!);
// Started after the watchdog: it must not hold the watchdog's pipe open (it outlives the owner).
const released = start();
guardGroup(released.pid!)();
guarded.unref();
released.unref();
// Directories: one registered (a space and a quote in its name), one registered and released.
const keptDir = mkdtempSync(join(${JSON.stringify(dir)}, "guarded it's "));
writeFileSync(join(keptDir, "file"), "x");
guardDir(keptDir);
const releasedDir = mkdtempSync(join(${JSON.stringify(dir)}, "released-"));
guardDir(releasedDir)();
// One more registered after a release, with a dollar sign: the list survives the removal.
const laterDir = mkdtempSync(join(${JSON.stringify(dir)}, "later $HOME "));
guardDir(laterDir);
console.log(JSON.stringify({ guarded: guarded.pid, released: released.pid, guardedDir: keptDir, releasedDir, laterDir }));
if (process.argv[2] === "wait") setInterval(() => undefined, 1000);
`,
    );
    // Killed outright while it runs.
    const owner = Bun.spawn([process.execPath, script, "wait"], { stdout: "pipe", stderr: "inherit" });
    const pids = JSON.parse(await firstLine(owner.stdout)) as { guarded: number; released: number; guardedDir: string; releasedDir: string; laterDir: string };
    leftovers.push(pids.guarded, pids.released);
    expect(alive(pids.guarded) && alive(pids.released)).toBe(true);
    owner.kill("SIGKILL");
    await owner.exited;
    expect(await gone(pids.guarded, 10_000)).toBe(true);
    expect(alive(pids.released)).toBe(true);
    expect(await removed(pids.guardedDir, 10_000)).toBe(true);
    expect(await removed(pids.laterDir, 10_000)).toBe(true);
    expect(existsSync(pids.releasedDir)).toBe(true);

    // An owner that has nothing left to do exits at once: neither the watchdog nor its pipe holds it.
    const started = Date.now();
    const quick = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "inherit" });
    const quickPids = JSON.parse((await new Response(quick.stdout).text()).trim()) as {
      guarded: number;
      released: number;
      guardedDir: string;
      releasedDir: string;
      laterDir: string;
    };
    leftovers.push(quickPids.guarded, quickPids.released);
    expect(await quick.exited).toBe(0);
    // Bounded well above a loaded machine's start-up time: the point is that nothing holds it open.
    expect(Date.now() - started).toBeLessThan(20_000);
    // Its exit closed the watchdog's stdin: the group it never released went with it.
    expect(await gone(quickPids.guarded, 10_000)).toBe(true);
    expect(await removed(quickPids.guardedDir, 10_000)).toBe(true);
    expect(existsSync(quickPids.releasedDir)).toBe(true);
  },
  60_000,
);

test.skipIf(process.platform === "win32")(
  "killAtExit: a kill still registered runs when the process exits, a released one does not; a signal nothing handles runs them first",
  async () => {
    const script = join(dir, "exit-kills.ts");
    writeFileSync(
      script,
      `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { killAtExit } from ${JSON.stringify(join(import.meta.dir, "group-guard.ts"))};
const out = process.argv[2]!;
killAtExit(() => writeFileSync(join(out, "kept"), "x"));
killAtExit(() => { throw new Error("already gone"); });
killAtExit(() => writeFileSync(join(out, "released"), "x"))();
console.log("ready");
if (process.argv[3] === "wait") setInterval(() => undefined, 1000);
`,
    );
    const normal = mkdtempSync(join(dir, "normal-"));
    const quick = Bun.spawn([process.execPath, script, normal], { stdout: "pipe", stderr: "inherit" });
    expect(await quick.exited).toBe(0);
    expect(existsSync(join(normal, "kept"))).toBe(true);
    expect(existsSync(join(normal, "released"))).toBe(false);

    const signalled = mkdtempSync(join(dir, "signal-"));
    const owner = Bun.spawn([process.execPath, script, signalled, "wait"], { stdout: "pipe", stderr: "inherit" });
    expect(await firstLine(owner.stdout)).toBe("ready");
    owner.kill("SIGTERM");
    await owner.exited;
    expect(owner.signalCode).toBe("SIGTERM");
    expect(existsSync(join(signalled, "kept"))).toBe(true);
    expect(existsSync(join(signalled, "released"))).toBe(false);
  },
  30_000,
);
