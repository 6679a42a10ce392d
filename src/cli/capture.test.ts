import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runCli } from "../../test/support/cli.ts";
import { tmpProject } from "../../test/support/tmp-project.ts";

const p = tmpProject("flowproof-capture-cli-");
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const proc of started) if (proc.exitCode === null) proc.kill("SIGKILL");
  p.remove();
});

/** Starts `flowproof capture` and resolves once it prints the address it listens on. */
async function startSink(args: readonly string[]) {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "capture", "--port", "0", ...args], { cwd: p.dir, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  started.push(proc);
  const stderr = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let err = "";
  while (!/listening on (http:\/\/\S+),/.test(err)) {
    const { value, done } = await stderr.read();
    if (done) throw new Error(`capture ended before listening: ${err}`);
    err += decoder.decode(value, { stream: true });
  }
  const url = /listening on (http:\/\/\S+),/.exec(err)![1]!;
  const rest = (async () => {
    for (;;) {
      const { value, done } = await stderr.read();
      if (done) return err;
      err += decoder.decode(value, { stream: true });
    }
  })();
  const stdout = new Response(proc.stdout).text();
  return { proc, url, startErr: err, finish: async () => ({ code: await proc.exited, stdout: await stdout, stderr: await rest }) };
}

describe("flowproof capture", () => {
  test("prints and saves requests from curl and fetch; Ctrl-C ends it with exit 0", async () => {
    const sink = await startSink(["--out", "caught"]);
    expect(sink.startErr).toContain("WARNING: capture is unauthenticated: any program on this machine can send it requests");
    const curl = Bun.spawnSync(["curl", "-s", "-H", "X-First: 1", "-H", "x-second: 2", "--data-binary", "<_-SCWM_-LGNUM>0001</_-SCWM_-LGNUM>", `${sink.url}/post?a=1`]);
    expect(curl.stdout.toString()).toBe("captured\n");
    const res = await fetch(`${sink.url}/second`, { headers: { Authorization: "Bearer s3cr3t-token" } });
    expect(res.status).toBe(200);
    sink.proc.kill("SIGINT");
    const { code, stdout, stderr } = await sink.finish();
    expect(code).toBe(0);
    expect(stderr).toContain("capture: stopped; 2 requests saved in");
    const dir = join(p.dir, "caught");
    expect(readdirSync(dir).sort()).toEqual(["req-001.txt", "req-002.txt"]);
    const first = readFileSync(join(dir, "req-001.txt"), "utf8").split("\n");
    expect(first[0]).toBe("POST /post?a=1 HTTP/1.1");
    // curl's own headers first, then ours, in the order and case given.
    expect(first.slice(1, 6).filter((l) => /^x-/i.test(l))).toEqual(["X-First: 1", "x-second: 2"]);
    expect(first).toContain("--- SAP namespace fields: /SCWM/LGNUM");
    expect(stdout).toContain(`=== req-001 saved to ${join(dir, "req-001.txt")}\nPOST /post?a=1 HTTP/1.1`);
    expect(stdout + readFileSync(join(dir, "req-002.txt"), "utf8")).not.toContain("s3cr3t-token");
    expect(stdout).toContain("Bearer [redacted: 12 bytes]");
  });

  test("--json prints one JSON line per request", async () => {
    const sink = await startSink(["--out", "json", "--json"]);
    Bun.spawnSync(["curl", "-s", "-X", "PUT", "-H", "Content-Type: text/plain", "--data-binary", "hello", `${sink.url}/x`]);
    Bun.spawnSync(["curl", "-s", `${sink.url}/y`]);
    sink.proc.kill("SIGINT");
    const { code, stdout } = await sink.finish();
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l["seq"], l["method"], l["path"], l["body_length"], l["namespace_fields"], l["file"]])).toEqual([
      [1, "PUT", "/x", 5, [], join(p.dir, "json", "req-001.txt")],
      [2, "GET", "/y", 0, [], join(p.dir, "json", "req-002.txt")],
    ]);
    expect((lines[0]!["headers"] as string[][]).map(([n]) => n)).toEqual(["Host", "User-Agent", "Accept", "Content-Type", "Content-Length"]);
  });

  test("SIGTERM stops it with the signal's exit code", async () => {
    const sink = await startSink(["--out", "term"]);
    sink.proc.kill("SIGTERM");
    expect((await sink.finish()).code).toBe(143);
  });

  test("--port is required and must be a port number; exit 2", async () => {
    const none = await runCli(["capture"], { cwd: p.dir });
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining("capture needs --port")]);
    const bad = await runCli(["capture", "--port", "70000"], { cwd: p.dir });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining("--port must be a whole number from 0 to 65535, not \"70000\"")]);
  });
});
