// `flowproof mcp` as a client sees it over stdio: it answers malformed lines as JSON-RPC requires,
// exits when the client closes stdin or on SIGTERM/SIGINT, and a flow a tool call started is
// stopped, its browser closed (checked by PID) and its result.json written first.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { descendants, isAlive } from "../support/processes.ts";
import { latestRunBundle } from "../support/runs.ts";

let server: TestServer;
let project: TmpProject;
let showsDone = true;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute(
    "/app",
    () =>
      new Response(
        `<!doctype html><button onclick="fetch('/clicked'); ${showsDone ? "document.getElementById('out').textContent = 'Done'" : ""}">Go</button><p id="out"></p>`,
        { headers: { "content-type": "text/html" } },
      ),
  );
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

/** `flowproof mcp` with its stdin and stdout in the test's hands; stdout is split into JSON lines. */
function spawnMcp() {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "mcp"], {
    cwd: project.dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = proc.stdout.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let i: number;
      while ((i = buffer.indexOf("\n")) >= 0) {
        lines.push(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
      }
    }
  })();
  const stderr = new Response(proc.stderr).text();
  const send = (text: string) => {
    proc.stdin.write(`${text}\n`);
    proc.stdin.flush();
  };
  const response = async (id: number | null, ms = 30_000): Promise<Record<string, unknown>> => {
    const until = Date.now() + ms;
    for (;;) {
      const found = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m["id"] === id);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no response with id ${id}; got: ${lines.join("\n")}`);
      await Bun.sleep(20);
    }
  };
  const initialize = async () => {
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
      }),
    );
    await response(1);
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  };
  return { proc, send, response, initialize, finished: async () => ({ code: await proc.exited, stderr: await stderr, output: (await reading, lines) }) };
}

/** The process's exit code, or a failure naming how long it kept running. */
async function exitWithin(proc: { exited: Promise<number>; kill(): void }, ms: number): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  const outcome = await Promise.race([proc.exited, late]);
  clearTimeout(timer);
  if (outcome === "late") {
    proc.kill();
    throw new Error(`flowproof mcp was still running ${ms} ms later`);
  }
  return outcome;
}

async function expectAllGone(pids: readonly number[], ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (pids.some(isAlive)) {
    if (Date.now() > until) throw new Error(`still running: ${pids.filter(isAlive).join(", ")}`);
    await Bun.sleep(100);
  }
}

const isBrowser = (pid: number) => {
  try {
    return /chrom/i.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
  } catch {
    return false;
  }
};

describe("flowproof mcp: malformed input", () => {
  test("a line that is not JSON gets -32700 with id null, one that is not JSON-RPC gets -32600, and the server keeps serving", async () => {
    const mcp = spawnMcp();
    mcp.send("{this is not json");
    const parse = await mcp.response(null);
    expect(parse).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect((parse["error"] as { message: string }).message).toStartWith("Parse error");
    mcp.send(JSON.stringify({ hello: "world", id: 5 }));
    expect(await mcp.response(5)).toMatchObject({ jsonrpc: "2.0", id: 5, error: { code: -32600 } });
    await mcp.initialize();
    mcp.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    expect(((await mcp.response(2))["result"] as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    mcp.proc.stdin.end();
    expect(await exitWithin(mcp.proc, 5_000)).toBe(0);
  }, 60_000);
});

describe("flowproof mcp: exits with its client", () => {
  test("closing stdin ends the server at once, exit 0", async () => {
    const mcp = spawnMcp();
    await mcp.initialize();
    mcp.proc.stdin.end();
    expect(await exitWithin(mcp.proc, 5_000)).toBe(0);
  }, 30_000);

  test.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)(
    "%s ends an idle server with exit %d",
    async (signal, code) => {
      const mcp = spawnMcp();
      await mcp.initialize();
      mcp.proc.kill(signal);
      expect(await exitWithin(mcp.proc, 5_000)).toBe(code);
    },
    30_000,
  );

  test.each([
    ["closing stdin", 0],
    ["SIGTERM", 143],
  ] as const)(
    "%s during a flowproof_run call stops the flow, closes its browser and writes result.json first (exit %d)",
    async (how, code) => {
      const mcp = spawnMcp();
      await mcp.initialize();
      const clicked = server.waitForRequest("/clicked");
      mcp.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "flowproof_run", arguments: { spec: "waits.flow.yaml" } } }));
      await clicked;
      const tree = descendants(mcp.proc.pid);
      expect(tree.filter(isBrowser).length).toBeGreaterThan(0);
      if (how === "SIGTERM") mcp.proc.kill("SIGTERM");
      else mcp.proc.stdin.end();
      expect(await exitWithin(mcp.proc, 20_000)).toBe(code);
      await expectAllGone(tree);
      const result = JSON.parse(readFileSync(join(latestRunBundle(project.dir), "result.json"), "utf8"));
      expect(result.passed).toBe(false);
      expect(result.interrupted).toBe(how === "SIGTERM" ? "SIGTERM" : "the MCP client closed the connection (end of input)");
      const interrupted = result.steps.find((s: { status: string }) => s.status === "errored");
      expect(interrupted.detail).toMatch(
        how === "SIGTERM" ? /^interrupted: the run was stopped \(SIGTERM\)/ : /^interrupted: the run was stopped \(the MCP client closed the connection/,
      );
    },
    90_000,
  );
});
