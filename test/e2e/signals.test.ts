// SIGINT/SIGTERM to the real CLI, to the npm launcher and to a suite with `server:`: the flow stops,
// result.json says which step was interrupted, the exit code is 130/143, and no browser, server or
// child outlives the CLI (checked by PID in /proc).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult } from "../support/schemas.ts";
import { descendants, isAlive } from "../support/processes.ts";
import { latestRunBundle } from "../support/runs.ts";

let server: TestServer;
let project: TmpProject;
/** Whether the app page shows "Done" after the click (true while recording, false while replaying). */
let showsDone = true;

const page = () =>
  `<!doctype html><title>App</title><button onclick="fetch('/clicked'); ${showsDone ? "document.getElementById('out').textContent = 'Done'" : ""}">Go</button><p id="out"></p>`;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/app", () => new Response(page(), { headers: { "content-type": "text/html" } }));
  server.setRoute("/clicked", () => new Response("ok"));
  project = tmpProject();
  project.write("waits.flow.yaml", `name: Waits\napp: web\nurl: ${server.url}/app\nsteps:\n  - Click "Go"\n  - assert: page shows Done within 60s\n`);
  const rec = await runCli(["record", "waits.flow.yaml", "--author", "rules"], { cwd: project.dir });
  if (rec.code !== 0) throw new Error(`recording the fixture failed: ${rec.stderr}`);
  showsDone = false;
});
afterAll(() => {
  server.stop();
  project.remove();
});

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

/** Resolves once none of `pids` is alive, or rejects naming the survivors after `ms`. */
async function expectAllGone(pids: readonly number[], ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0) return;
    if (Date.now() > until) throw new Error(`still running after the CLI exited: ${alive.map((p) => `${p} ${commandOf(p).slice(0, 120)}`).join("; ")}`);
    await Bun.sleep(100);
  }
}

async function waitFor(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** The CLI (or the launcher: `command`) as a child the test can signal. */
function spawnCli(args: string[], command: string[] = [process.execPath, join(REPO_ROOT, "src", "cli", "main.ts")]) {
  const proc = Bun.spawn([...command, ...args], { cwd: project.dir, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  const stdout = new Response(proc.stdout).text();
  const stderr = new Response(proc.stderr).text();
  return { proc, finished: async () => ({ code: await proc.exited, stdout: await stdout, stderr: await stderr }) };
}

function latestRun(): string {
  return latestRunBundle(project.dir);
}

/**
 * The signal may land in the click (its settle wait) or in the assertion: either way the steps
 * before it passed, it is errored as interrupted, and the ones after it were not run.
 */
function expectInterrupted(result: { passed: boolean; interrupted?: string; steps: { status: string; detail?: string }[] }, signal: string): void {
  expect(result.passed).toBe(false);
  expect(result.interrupted).toBe(signal);
  const at = result.steps.findIndex((s) => s.status !== "passed");
  expect(at).toBeGreaterThanOrEqual(0);
  expect(result.steps[at]!.status).toBe("errored");
  expect(result.steps[at]!.detail).toMatch(new RegExp(`^interrupted: the run was stopped \\(${signal}\\)`));
  for (const s of result.steps.slice(at + 1)) expect(s).toMatchObject({ status: "skipped", detail: "not run: the run was interrupted" });
}

const browsersOf = (pids: readonly number[]) => pids.filter((p) => /chrom/i.test(commandOf(p)));

describe("signals to `flowproof run`", () => {
  test.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const)(
    "%s mid-step stops the flow, writes result.json with the step interrupted, closes the browser and exits %d",
    async (signal, exitCode) => {
      const clicked = server.waitForRequest("/clicked");
      const cli = spawnCli(["run", "waits.flow.yaml"]);
      await clicked;
      const tree = descendants(cli.proc.pid);
      expect(browsersOf(tree).length).toBeGreaterThan(0);
      const sent = Date.now();
      cli.proc.kill(signal);
      const done = await cli.finished();
      expect(Date.now() - sent).toBeLessThan(10_000);
      expect(done.code).toBe(exitCode);
      expect(done.stderr).toContain(`[INTERRUPTED] ${signal}`);
      await expectAllGone(tree);
      const dir = latestRun();
      expectValidResult(join(dir, "result.json"));
      const result = JSON.parse(readFileSync(join(dir, "result.json"), "utf8"));
      expectInterrupted(result, signal);
      expect(readFileSync(join(dir, "junit.xml"), "utf8")).toContain("interrupted");
    },
    90_000,
  );
});

describe("signals to the npm launcher (node bin/flowproof.js)", () => {
  test("SIGTERM reaches the CLI: its browser closes, result.json is written, and the launcher exits 143 after it", async () => {
    const clicked = server.waitForRequest("/clicked");
    const launcher = spawnCli(["run", "waits.flow.yaml"], ["node", join(REPO_ROOT, "bin", "flowproof.js")]);
    await clicked;
    const tree = descendants(launcher.proc.pid);
    expect(browsersOf(tree).length).toBeGreaterThan(0);
    launcher.proc.kill("SIGTERM");
    const done = await launcher.finished();
    expect(done.code).toBe(143);
    // The CLI itself (the launcher's child) and everything under it are gone too.
    await expectAllGone(tree);
    const result = JSON.parse(readFileSync(join(latestRun(), "result.json"), "utf8"));
    expectInterrupted(result, "SIGTERM");
  }, 90_000);
});

/** A port nothing listens on (taken from the OS, then released). */
function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** Every result.json below `dir`. */
function resultFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith("result.json"))
    .map((f) => join(dir, f));
}

describe("Ctrl-C in a terminal (SIGINT to the whole foreground process group)", () => {
  test("through the npm launcher: the CLI gets the signal twice (from the terminal and from the launcher), stops in order once, and exits 130", async () => {
    const clicked = server.waitForRequest("/clicked");
    // setsid: the launcher leads a process group of its own, as a shell's foreground job does.
    const launcher = spawnCli(["run", "waits.flow.yaml"], ["setsid", "node", join(REPO_ROOT, "bin", "flowproof.js")]);
    await clicked;
    const tree = descendants(launcher.proc.pid);
    expect(browsersOf(tree).length).toBeGreaterThan(0);
    process.kill(-launcher.proc.pid, "SIGINT");
    const done = await launcher.finished();
    expect(done.code).toBe(130);
    expect(done.stderr).toContain("[INTERRUPTED] SIGINT: stopping the run");
    expect(done.stderr).not.toContain("SIGINT again");
    await expectAllGone(tree);
    expectInterrupted(JSON.parse(readFileSync(join(latestRun(), "result.json"), "utf8")), "SIGINT");
  }, 90_000);
});

/** Clicks the suite's page reported (its button calls the test server). */
let clicks = 0;

describe("signals to a suite run with `server:`", () => {
  test("SIGTERM stops every running flow, starts no other, and ends the app server's whole process group; its port is free again", async () => {
    const port = freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    server.setRoute("/suite-clicked", () => {
      clicks++;
      return new Response("ok", { headers: { "access-control-allow-origin": "*" } });
    });
    // Recorded against the test server (the page shows Done); the suite's own server serves a
    // page where Done never appears, so both flows are mid-step when the signal comes.
    server.setRoute(
      "/site/app.html",
      () =>
        new Response(`<!doctype html><button onclick="document.getElementById('out').textContent = 'Done'">Go</button><p id="out"></p>`, {
          headers: { "content-type": "text/html" },
        }),
    );
    project.write(
      "suite/site/app.html",
      `<!doctype html><button onclick="fetch('${server.url}/suite-clicked', { mode: 'no-cors' })">Go</button><p id="out"></p>`,
    );
    for (const name of ["a", "b", "c"]) {
      project.write(
        `suite/${name}.flow.yaml`,
        `name: Suite ${name}\napp: web\nurl: http://127.0.0.1:\${APP_PORT}/site/app.html\nsteps:\n  - Click "Go"\n  - assert: page shows Done within 60s\n`,
      );
      const rec = await runCli(["record", `suite/${name}.flow.yaml`, "--author", "rules"], { cwd: project.dir, env: { APP_PORT: new URL(server.url).port } });
      if (rec.code !== 0) throw new Error(`recording ${name} failed: ${rec.stderr}`);
    }
    // Written after recording, which starts a suite's `server:` too: the flows were recorded
    // against the test server. The shell stays and the server is its grandchild, as with `npm start`.
    project.write(
      "suite/suite.yaml",
      `server:\n  command: python3 -m http.server \${APP_PORT} --bind 127.0.0.1 --directory site & wait\n  url: http://127.0.0.1:\${APP_PORT}/app.html\n  timeout_seconds: 30\n`,
    );
    // The suite's server serves site/ at the root: the flows' url resolves under it.
    project.write("suite/site/site/app.html", readFileSync(join(project.dir, "suite/site/app.html"), "utf8"));
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "run", "suite", "--workers", "2"], {
      cwd: project.dir,
      env: { ...process.env, NO_COLOR: "1", APP_PORT: String(port) },
      stdout: "pipe",
      stderr: "pipe",
    });
    const stderr = new Response(proc.stderr).text();
    const stdout = new Response(proc.stdout).text();
    await waitFor("both flows to click", () => clicks >= 2);
    const tree = descendants(proc.pid);
    const appServer = tree.filter((p) => commandOf(p).includes("http.server"));
    expect(appServer.length).toBeGreaterThanOrEqual(1);
    expect(browsersOf(tree).length).toBeGreaterThan(0);
    proc.kill("SIGTERM");
    const code = await proc.exited;
    const err = await stderr;
    await stdout;
    expect(code).toBe(143);
    expect(err).toContain("[INTERRUPTED] SIGTERM");
    await expectAllGone(tree);
    expect(await answers(`${appUrl}/app.html`)).toBe(false);
    const results = resultFiles(join(project.dir, "suite", ".flowproof")).map(
      (f) =>
        JSON.parse(readFileSync(f, "utf8")) as {
          name: string;
          passed: boolean;
          error?: string;
          interrupted?: string;
          steps: { status: string; detail?: string }[];
        },
    );
    expect(results.map((r) => r.name).sort()).toEqual(["Suite a", "Suite b", "Suite c"]);
    // a and b were mid-step; c (two workers) had not started and does not start a browser.
    for (const r of results.filter((r) => r.name !== "Suite c")) expectInterrupted(r, "SIGTERM");
    const notStarted = results.find((r) => r.name === "Suite c")!;
    expect(notStarted).toMatchObject({ passed: false, interrupted: "SIGTERM", error: "the run was interrupted (SIGTERM) before this flow started" });
    expect(notStarted.steps.every((s) => s.status === "skipped")).toBe(true);
  }, 150_000);

  test("a second SIGTERM while the run is stopping kills a server that ignores SIGTERM and exits 143 at once", async () => {
    // Same flow and site as above, under a server that ignores SIGTERM: stopping it in order would
    // wait 5 s before killing its group.
    const port = freePort();
    project.write("stubborn/a.flow.yaml", readFileSync(join(project.dir, "suite/a.flow.yaml"), "utf8"));
    project.write("stubborn/a.trace.jsonl", readFileSync(join(project.dir, "suite/a.trace.jsonl"), "utf8"));
    project.write("stubborn/site/site/app.html", readFileSync(join(project.dir, "suite/site/site/app.html"), "utf8"));
    project.write(
      "stubborn/suite.yaml",
      `server:\n  command: trap '' TERM; python3 -m http.server \${APP_PORT} --bind 127.0.0.1 --directory site & wait\n  url: http://127.0.0.1:\${APP_PORT}/site/app.html\n  timeout_seconds: 30\n`,
    );
    const before = clicks;
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "run", "stubborn"], {
      cwd: project.dir,
      env: { ...process.env, NO_COLOR: "1", APP_PORT: String(port) },
      stdout: "pipe",
      stderr: "pipe",
    });
    const stderr = new Response(proc.stderr).text();
    const stdout = new Response(proc.stdout).text();
    await waitFor("the flow to click", () => clicks > before);
    const tree = descendants(proc.pid);
    expect(tree.filter((p) => commandOf(p).includes("http.server")).length).toBeGreaterThanOrEqual(1);
    const first = Date.now();
    proc.kill("SIGTERM");
    // A repeat within half a second counts as the same request; this one means "quit now".
    await Bun.sleep(1_000);
    proc.kill("SIGTERM");
    const code = await proc.exited;
    const err = await stderr;
    await stdout;
    expect(code).toBe(143);
    expect(err).toContain("[INTERRUPTED] SIGTERM again: stopping every browser and child now");
    // In order, the server alone would have taken 5 s after the flow stopped.
    expect(Date.now() - first).toBeLessThan(5_500);
    await expectAllGone(tree);
    expect(await answers(`http://127.0.0.1:${port}/site/app.html`)).toBe(false);
  }, 120_000);

  test("SIGKILL (no handler or exit hook runs) still ends the app server's whole process group and every browser, and leaves no temporary directory", async () => {
    const port = freePort();
    project.write("killed/a.flow.yaml", readFileSync(join(project.dir, "suite/a.flow.yaml"), "utf8"));
    project.write("killed/a.trace.jsonl", readFileSync(join(project.dir, "suite/a.trace.jsonl"), "utf8"));
    project.write("killed/site/site/app.html", readFileSync(join(project.dir, "suite/site/site/app.html"), "utf8"));
    project.write(
      "killed/suite.yaml",
      `server:\n  command: python3 -m http.server \${APP_PORT} --bind 127.0.0.1 --directory site & wait\n  url: http://127.0.0.1:\${APP_PORT}/site/app.html\n  timeout_seconds: 30\n`,
    );
    const before = clicks;
    // A temporary directory of its own: the browser profile, its downloads directory (and the full
    // browser's singleton socket) land there, and must all be gone once it was killed.
    const tmp = project.write("killed-tmp/.keep", "").replace(/\/\.keep$/, "");
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "run", "killed"], {
      cwd: project.dir,
      env: { ...process.env, NO_COLOR: "1", APP_PORT: String(port), TMPDIR: tmp },
      stdout: "ignore",
      stderr: "ignore",
    });
    await waitFor("the flow to click", () => clicks > before);
    const tree = descendants(proc.pid);
    expect(tree.filter((p) => commandOf(p).includes("http.server")).length).toBeGreaterThanOrEqual(1);
    expect(browsersOf(tree).length).toBeGreaterThan(0);
    // A headless run starts the browser a headless run is given: the headless shell when installed.
    const program = (pid: number) => basename(commandOf(pid).split(" ")[0] ?? "");
    expect(browsersOf(tree).map(program)).toContain(basename(requireChromium()));
    // (flowproof-page-script is the page script's cache, kept on purpose.)
    const ours = () => readdirSync(tmp).filter((e) => (e.startsWith("flowproof-") && e !== "flowproof-page-script") || e.startsWith("org.chromium."));
    expect(ours().some((e) => e.startsWith("flowproof-chrome-"))).toBe(true);
    expect(ours().some((e) => e.startsWith("flowproof-downloads-"))).toBe(true);
    proc.kill("SIGKILL");
    await proc.exited;
    await expectAllGone(tree);
    expect(await answers(`http://127.0.0.1:${port}/site/app.html`)).toBe(false);
    await waitFor("the temporary directories to be removed", () => ours().length === 0, 15_000).catch((e) => {
      throw new Error(`${e.message}: left ${ours().join(", ")}`);
    });
  }, 120_000);
});
