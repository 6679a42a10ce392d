// A start page (and a Go to, and a click that navigates) whose server accepts the connection and
// then never answers, sends headers and stalls the body, or redirects without end: through the
// real CLI in real Chromium, each fails the flow with the documented message within the bound set
// by FLOWPROOF_NAVIGATION_TIMEOUT_MS, exits 2, names the URL on stderr while it waits, and leaves
// no browser behind (checked by PID in /proc); SIGTERM during a stalled start exits at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { descendants, isAlive } from "../support/processes.ts";

let server: TestServer;
let project: TmpProject;
/** Accepts connections, reads the request, never writes a byte. */
let silent: { port: number; stop(closeActive?: boolean): void };
/** Answers with headers and the start of a body, then never writes again. */
let halfway: { port: number; stop(closeActive?: boolean): void };
/** How the switchable start page answers: a page, or a stall of one kind. */
let mode: "page" | "silent" | "headers" | "redirects" = "page";

const BOUND_MS = 3_000;
const ENV = { FLOWPROOF_NAVIGATION_TIMEOUT_MS: String(BOUND_MS) };

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => undefined } });
  halfway = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data: (socket) =>
        void socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<!doctype html><title>Half</title><p>Half a page"),
    },
  });
  server.setRoute("/app", async (req) => {
    switch (mode) {
      case "page":
        return new Response(`<!doctype html><title>App</title><h1>Shop</h1><a href="${server.url}/stalls">Slow link</a>`, {
          headers: { "content-type": "text/html" },
        });
      case "silent":
        return new Promise<Response>(() => undefined);
      case "headers":
        return Response.redirect(`http://127.0.0.1:${halfway.port}/`, 302);
      case "redirects": {
        // Each hop answers a little late, so the loop outlasts the bound before Chromium's 20-hop cap.
        await new Promise((r) => setTimeout(r, 400));
        const n = Number(new URL(req.url).searchParams.get("n") ?? "0");
        return Response.redirect(`${server.url}/app?n=${n + 1}`, 302);
      }
    }
  });
  server.setRoute("/stalls", () => new Promise<Response>(() => undefined));
  project = tmpProject("flowproof-stall-");
});
afterAll(() => {
  server?.stop();
  silent?.stop(true);
  halfway?.stop(true);
  project?.remove();
});

/** The CLI as a child: its descendants are sampled while it runs, so none may outlive it. */
function spawnCli(args: string[], env: Record<string, string> = ENV) {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), ...args], {
    cwd: project.dir,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const seen = new Set<number>();
  const sampler = setInterval(() => {
    for (const p of descendants(proc.pid)) seen.add(p);
  }, 100);
  let err = "";
  const decoder = new TextDecoder();
  const stderr = (async () => {
    const reader = proc.stderr.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return err;
      err += decoder.decode(value, { stream: true });
    }
  })();
  const stdout = new Response(proc.stdout).text();
  const started = performance.now();
  return {
    proc,
    stderrSoFar: () => err,
    finished: async () => {
      const code = await proc.exited;
      const ms = performance.now() - started;
      clearInterval(sampler);
      return { code, ms, stdout: await stdout, stderr: await stderr, descendants: [...seen] };
    },
  };
}

async function expectAllGone(pids: readonly number[]): Promise<void> {
  const until = Date.now() + 5_000;
  while (pids.some(isAlive)) {
    if (Date.now() > until) throw new Error(`still running after the CLI exited: ${pids.filter(isAlive).join(", ")}`);
    await Bun.sleep(100);
  }
}

describe("a start page that never finishes loading", () => {
  for (const [kind, url] of [
    ["a server that never answers", () => `http://127.0.0.1:${silent.port}/`],
    ["a server that sends headers and stalls the body", () => `http://127.0.0.1:${halfway.port}/`],
    ["a redirect loop", () => `${server.url}/app?n=0`],
  ] as const) {
    test(`record: ${kind} fails the flow with the documented message within its bound, exit 2, no browser left`, async () => {
      if (kind === "a redirect loop") mode = "redirects";
      project.write("stall.flow.yaml", flowYaml("Stall", url(), ["assert: page shows Shop"]));
      const r = await spawnCli(["record", "stall.flow.yaml", "--author", "rules"]).finished();
      mode = "page";
      expect(r.stderr).toContain(`RECORD FAILED: could not open the flow's url: ${url()} did not finish loading within ${BOUND_MS} ms`);
      expect(r.code).toBe(2);
      // The bound, plus the browser's start and stop: well under the default 30 s.
      expect(r.ms).toBeLessThan(BOUND_MS + 15_000);
      expect(r.descendants.length).toBeGreaterThan(0);
      await expectAllGone(r.descendants);
    }, 60_000);
  }

  test("run: a recorded flow whose start page stops answering fails with the message within its bound, exit 2", async () => {
    project.write("shop.flow.yaml", flowYaml("Shop", `${server.url}/app`, ["assert: page shows Shop"]));
    const rec = await spawnCli(["record", "shop.flow.yaml", "--author", "rules"]).finished();
    expect(rec.code).toBe(0);
    mode = "silent";
    try {
      const r = await spawnCli(["run", "shop.flow.yaml"]).finished();
      expect(r.stdout + r.stderr).toContain(`could not open the flow's url: ${server.url}/app did not finish loading within ${BOUND_MS} ms`);
      expect(r.code).toBe(2);
      expect(r.ms).toBeLessThan(BOUND_MS + 15_000);
      await expectAllGone(r.descendants);
    } finally {
      mode = "page";
    }
  }, 90_000);

  test("the CLI names the URL it waits for on stderr (human and --json alike); --json stdout stays one document", async () => {
    project.write("slow.flow.yaml", flowYaml("Slow", `http://127.0.0.1:${silent.port}/slow`, ["assert: page shows Shop"]));
    const r = await spawnCli(["record", "slow.flow.yaml", "--author", "rules", "--json"], { FLOWPROOF_NAVIGATION_TIMEOUT_MS: "5000" }).finished();
    expect(r.stderr).toContain(`waiting for http://127.0.0.1:${silent.port}/slow to load`);
    const doc = JSON.parse(r.stdout) as { error: string };
    expect(doc.error).toBe(
      `could not open the flow's url: http://127.0.0.1:${silent.port}/slow did not finish loading within 5000 ms: the server never delivered the whole document`,
    );
    expect(r.code).toBe(2);
  }, 60_000);

  test("SIGTERM during a stalled start stops the run at once (no 10 s fallback), exit 143, no browser left", async () => {
    project.write("stuck.flow.yaml", flowYaml("Stuck", `http://127.0.0.1:${silent.port}/stuck`, ["assert: page shows Shop"]));
    // The default bound (30 s): only the signal can end this start.
    const cli = spawnCli(["record", "stuck.flow.yaml", "--author", "rules"], {});
    const until = Date.now() + 60_000;
    while (!cli.stderrSoFar().includes("waiting for")) {
      if (Date.now() > until) throw new Error("the CLI never said what it waits for");
      await Bun.sleep(50);
    }
    const signalled = performance.now();
    cli.proc.kill("SIGTERM");
    const r = await cli.finished();
    expect(r.code).toBe(143);
    expect(performance.now() - signalled).toBeLessThan(8_000);
    expect(r.stderr).not.toContain("did not stop within");
    expect(r.stderr).toContain(`could not open the flow's url: the run was stopped (SIGTERM) while http://127.0.0.1:${silent.port}/stuck was loading`);
    await expectAllGone(r.descendants);
  }, 90_000);
});

describe("an `apps:` web surface whose start page never answers", () => {
  test("fails the flow at that surface's first block within the bound, exit 2, no browser left", async () => {
    const never = `http://127.0.0.1:${silent.port}/admin`;
    project.write(
      "apps.flow.yaml",
      [
        "name: Two surfaces",
        "apps:",
        `  shop: { app: web, url: "${server.url}/app" }`,
        `  admin: { app: web, url: "${never}" }`,
        "steps:",
        "  - in: admin",
        "    steps:",
        "      - assert: page shows Orders",
        "",
      ].join("\n"),
    );
    const r = await spawnCli(["record", "apps.flow.yaml", "--author", "rules"]).finished();
    expect(r.stderr).toContain(`waiting for ${never} to load`);
    expect(r.stderr).toContain(`surface \`admin\` could not open ${never}: ${never} did not finish loading within ${BOUND_MS} ms`);
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(BOUND_MS + 15_000);
    await expectAllGone(r.descendants);
  }, 60_000);
});

describe("navigations a step starts", () => {
  test("a Go to whose server never answers fails that step within the bound", async () => {
    project.write("goto.flow.yaml", flowYaml("Go to stall", `${server.url}/app`, [`Go to http://127.0.0.1:${silent.port}/next`, "assert: page shows Shop"]));
    const r = await spawnCli(["record", "goto.flow.yaml", "--author", "rules", "--json"]).finished();
    const doc = JSON.parse(r.stdout) as { step_results: Array<{ status: string; detail?: string }> };
    expect(doc.step_results[0]?.status).toBe("failed");
    expect(doc.step_results[0]?.detail).toContain(`http://127.0.0.1:${silent.port}/next did not finish loading within ${BOUND_MS} ms`);
    expect(r.ms).toBeLessThan(BOUND_MS + 15_000);
    await expectAllGone(r.descendants);
  }, 60_000);

  test("a click whose navigation never answers fails that step within the bound, naming the navigation", async () => {
    project.write("click.flow.yaml", flowYaml("Click stall", `${server.url}/app`, ['Click "Slow link"', "assert: page shows Shop"]));
    const r = await spawnCli(["record", "click.flow.yaml", "--author", "rules", "--json"]).finished();
    const doc = JSON.parse(r.stdout) as { step_results: Array<{ status: string; detail?: string }> };
    expect(doc.step_results[0]?.status).toBe("failed");
    expect(doc.step_results[0]?.detail).toContain(`the navigation to ${server.url}/stalls did not finish loading within ${BOUND_MS / 1000} s`);
    expect(r.ms).toBeLessThan(2 * BOUND_MS + 15_000);
    await expectAllGone(r.descendants);
  }, 60_000);
});
