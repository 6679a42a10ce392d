// `--keep-open` through the real CLI: the refusals (exit 2 with what to do instead), and a real
// headed Chromium on a virtual display (Xvfb) that stays open after the flow — its results
// already written — until its window is closed, or until Ctrl-C.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { headedBrowserPort } from "../support/processes.ts";
import CDP from "chrome-remote-interface";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { latestRunBundle } from "../support/runs.ts";
import { startBareDisplay } from "../support/vision-bed.ts";

let server: TestServer;
let project: TmpProject;
let xvfb: { kill(): void } | undefined;
let display = "";
let spec = "";

/** Xvfb on a free display at the browser's size (a headed Chromium shows on it); fails with instructions when it is not installed. */
async function startXvfb(): Promise<string> {
  const x = await startBareDisplay("1280x1024", "the --keep-open test");
  xvfb = { kill: () => void x.stop() };
  return x.display;
}

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
  spec = project.write(
    "greet.flow.yaml",
    [
      "name: Greet",
      "app: web",
      `url: ${server.url}/greeter.html`,
      "steps:",
      '  - rules: Type Ada into the "Your name" field',
      '  - rules: Click "Greet"',
      "  - assert: page shows Hello, Ada!",
      "",
    ].join("\n"),
  );
  const rec = await runCli(["record", spec], { cwd: project.dir });
  if (rec.code !== 0) throw new Error(`recording the fixture failed: ${rec.stderr}`);
  display = await startXvfb();
});
afterAll(() => {
  server.stop();
  project.remove();
  xvfb?.kill();
});

describe("--keep-open refusals", () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["--json", ["run", "greet.flow.yaml", "--keep-open", "--json"], /cannot be combined with --json/],
    ["a directory", ["run", ".", "--keep-open"], /applies to one flow, not to a directory/],
    ["--retries", ["run", "greet.flow.yaml", "--keep-open", "--retries", "2"], /cannot be combined with --retries/],
    ["--verify", ["record", "greet.flow.yaml", "--keep-open", "--verify"], /cannot be combined with --verify/],
  ];
  for (const [what, args, message] of cases) {
    test(`refuses ${what} with exit 2 and a way out`, async () => {
      const res = await runCli(args, { cwd: project.dir, env: { DISPLAY: display } });
      expect(res.code).toBe(2);
      expect(res.stderr + res.stdout).toMatch(message);
      expect(res.stderr + res.stdout).toMatch(/"hint"|hint:/);
    });
  }

  test("refuses a machine without a display, naming xvfb-run", async () => {
    const res = await runCli(["run", "greet.flow.yaml", "--keep-open"], { cwd: project.dir, env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("no display");
    expect(res.stderr).toContain("xvfb-run");
  });
});

/** The CLI as a child we can signal; resolves its output once it exits. */
function spawnCli(args: string[]) {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), ...args], {
    cwd: project.dir,
    env: { ...process.env, DISPLAY: display, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  const errDone = (async () => {
    const decoder = new TextDecoder();
    const reader = proc.stderr.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      stderr += decoder.decode(value, { stream: true });
    }
  })();
  const out = new Response(proc.stdout).text();
  return {
    proc,
    stderr: () => stderr,
    finished: async () => ({ code: await proc.exited, stdout: await out, stderr: (await errDone, stderr) }),
  };
}

async function waitFor(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

describe("--keep-open with a headed browser (Xvfb)", () => {
  test("the flow passes, its results are written, and the CLI waits until the flow's window is closed", async () => {
    const cli = spawnCli(["run", "greet.flow.yaml", "--keep-open"]);
    await waitFor("the keep-open notice", () => cli.stderr().includes("[KEEP-OPEN]"));
    // The verdict is on disk before anyone closes the window.
    expect(JSON.parse(readFileSync(join(latestRunBundle(project.dir), "result.json"), "utf8")).passed).toBe(true);
    await Bun.sleep(1500);
    expect(cli.proc.exitCode).toBeNull();
    // Close the flow's window as a person would: the page target goes away.
    const port = headedBrowserPort(cli.proc.pid);
    if (port === undefined) throw new Error("no browser process found under the CLI");
    const client = await CDP({ port, host: "127.0.0.1" });
    try {
      const { targetInfos } = await client.Target.getTargets({});
      const page = targetInfos.find((t) => t.type === "page" && t.url.includes("greeter.html"));
      expect(page).toBeDefined();
      await client.Target.closeTarget({ targetId: page!.targetId });
    } finally {
      await client.close().catch(() => undefined);
    }
    const done = await cli.finished();
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("PASS: Greet");
  });

  test("Ctrl-C ends the wait, closes the browser and keeps the verdict's exit code", async () => {
    const cli = spawnCli(["record", "greet.flow.yaml", "--keep-open"]);
    await waitFor("the keep-open notice", () => cli.stderr().includes("[KEEP-OPEN]"));
    const port = headedBrowserPort(cli.proc.pid);
    if (port === undefined) throw new Error("no browser process found under the CLI");
    cli.proc.kill("SIGINT");
    const done = await cli.finished();
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("Recorded 'Greet'");
    // The browser is gone with it.
    await expect(fetch(`http://127.0.0.1:${port}/json/version`)).rejects.toThrow();
  });
});
