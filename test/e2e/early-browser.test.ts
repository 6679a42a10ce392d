// The browser a `flowproof run|record` of a web flow starts before its modules load: through the
// real CLI and real Chromium and Firefox (behind wrappers that note each start), the run takes that browser
// instead of launching another; a run that fails first (a flow that does not load, a missing trace,
// a signal while the suite's server starts) leaves no browser process and no profile behind; an
// api flow starts no browser at all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { requireFirefox } from "../support/firefox.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

let server: TestServer;
let project: TmpProject;
/** Each browser start appends its pid here (the wrapper `exec`s Chromium, so the pid is the browser's). */
let marker = "";
let env: Record<string, string>;

beforeAll(async () => {
  const chrome = requireChromium();
  server = await startServer();
  server.setRoute(
    "/app",
    () =>
      new Response("<!doctype html><title>App</title><button onclick=\"this.textContent='Done'\">Go</button>", { headers: { "content-type": "text/html" } }),
  );
  server.setRoute("/api/ping", () => Response.json({ ok: true }));
  project = tmpProject("flowproof-early-");
  marker = join(project.dir, "browser-starts.txt");
  const wrapper = project.write("chrome-wrapper.sh", `#!/bin/sh\necho $$ >> "${marker}"\nexec "${chrome}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  env = { FLOWPROOF_CHROME: wrapper, APP: server.url };
  project.write("web.flow.yaml", 'name: Web\napp: web\nurl: ${APP}/app\nsteps:\n  - Click "Go"\n  - assert: page shows Done\n');
  project.write("bad.flow.yaml", 'name: Bad\napp: web\nurl: ${APP}/app\ncolour: red\nsteps:\n  - Click "Go"\n');
  project.write("untraced.flow.yaml", 'name: Untraced\napp: web\nurl: ${APP}/app\nsteps:\n  - Click "Go"\n');
  project.write("api.flow.yaml", "name: Ping\napp: api\nsteps:\n  - assert_api:\n      request: GET ${APP}/api/ping\n      status: 200\n");
  // A suite whose server never answers: the run waits for it, long after its browser started.
  project.write("slow/suite.yaml", "server:\n  command: sleep 120\n  url: http://127.0.0.1:9/\n  timeout_seconds: 100\n");
  project.write("slow/web.flow.yaml", 'name: Slow\napp: web\nurl: ${APP}/app\nsteps:\n  - Click "Go"\n');
});
afterAll(() => {
  server.stop();
  project.remove();
});

/** The browser starts noted since the last call (and forgets them). */
function starts(): number[] {
  if (!existsSync(marker)) return [];
  const pids = readFileSync(marker, "utf8").trim().split("\n").filter(Boolean).map(Number);
  writeFileSync(marker, "");
  return pids;
}

/** Live (not zombie) processes in process group `pgid`: a browser's group is its own, helpers included. */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) out.push(Number(name));
    } catch {
      // gone while being read
    }
  }
  return out;
}

/** Profiles of browsers started by the flowproof process `pid` still in the temp directory. */
const profilesOf = (pid: number) => readdirSync(tmpdir()).filter((n) => n.startsWith(`flowproof-chrome-${pid}-`));

/** Resolves once the browser `pid` started (its whole group) is gone, or fails naming what survives. */
async function expectGone(pid: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (groupMembers(pid).length > 0) {
    if (Date.now() > until) throw new Error(`the browser ${pid} outlived flowproof: ${groupMembers(pid).join(", ")}`);
    await Bun.sleep(50);
  }
}

function spawnCli(args: readonly string[]) {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), ...args], {
    cwd: project.dir,
    env: { ...process.env, ...env, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const stderr = new Response(proc.stderr).text();
  void new Response(proc.stdout).text();
  return { proc, finished: async () => ({ code: await proc.exited, stderr: await stderr }) };
}

describe("a web flow's browser, started before the run loads", () => {
  test("record and run take the browser started first: one browser start each, and the flow passes", async () => {
    starts();
    const rec = await runCli(["record", "web.flow.yaml", "--author", "rules"], { cwd: project.dir, env });
    expect(rec.code).toBe(0);
    expect(starts()).toHaveLength(1);
    const run = await runCli(["run", "web.flow.yaml", "--recording-detail", "off", "--json"], { cwd: project.dir, env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).report.outcome).toBe("passed");
    const [pid, ...more] = starts();
    expect(more).toEqual([]);
    await expectGone(pid!);
  }, 120_000);

  test.each([
    ["a flow that does not load", "bad.flow.yaml", "unknown key"],
    ["a flow without its trace", "untraced.flow.yaml", "trace"],
  ])(
    "%s: exit 2, and the browser started for it is gone with its profile",
    async (_what, flow, message) => {
      starts();
      const cli = spawnCli(["run", flow]);
      const done = await cli.finished();
      expect(done.code).toBe(2);
      expect(done.stderr.toLowerCase()).toContain(message);
      // The browser did start (before the flow was read), and did not outlive the CLI.
      const [pid] = starts();
      expect(pid).toBeNumber();
      await expectGone(pid!);
      expect(profilesOf(cli.proc.pid)).toEqual([]);
    },
    60_000,
  );

  test.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)(
    "%s while the run is still loading (its suite's server starting): exit %d, no browser left",
    async (signal, exitCode) => {
      starts();
      const cli = spawnCli(["run", "slow/web.flow.yaml"]);
      const until = Date.now() + 30_000;
      let pids: number[] = [];
      while ((pids = starts()).length === 0) {
        if (Date.now() > until) throw new Error("no browser was started");
        await Bun.sleep(20);
      }
      cli.proc.kill(signal);
      const done = await cli.finished();
      expect(done.code).toBe(exitCode);
      await expectGone(pids[0]!);
      expect(profilesOf(cli.proc.pid)).toEqual([]);
    },
    60_000,
  );

  test("Firefox too: `run --browser firefox` takes the Firefox started first, and starts no Chromium", async () => {
    const firefox = requireFirefox();
    const firefoxMarker = join(project.dir, "firefox-starts.txt");
    const wrapper = project.write("firefox-wrapper.sh", `#!/bin/sh\necho $$ >> "${firefoxMarker}"\nexec "${firefox}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    starts();
    const run = await runCli(["run", "web.flow.yaml", "--browser", "firefox", "--recording-detail", "off", "--json"], {
      cwd: project.dir,
      env: { ...env, FLOWPROOF_FIREFOX: wrapper },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).report.outcome).toBe("passed");
    expect(readFileSync(firefoxMarker, "utf8").trim().split("\n")).toHaveLength(1);
    expect(starts()).toEqual([]);
  }, 120_000);

  test("an api flow starts no browser", async () => {
    starts();
    const rec = await runCli(["record", "api.flow.yaml"], { cwd: project.dir, env });
    expect(rec.code).toBe(0);
    const run = await runCli(["run", "api.flow.yaml", "--json"], { cwd: project.dir, env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).report.outcome).toBe("passed");
    expect(starts()).toEqual([]);
  }, 60_000);
});
