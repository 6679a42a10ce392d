import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:net";
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
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "capture", "--port", "0", ...args], {
    cwd: p.dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
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
    const curl = Bun.spawnSync([
      "curl",
      "-s",
      "-H",
      "X-First: 1",
      "-H",
      "x-second: 2",
      "--data-binary",
      "<_-SCWM_-LGNUM>0001</_-SCWM_-LGNUM>",
      `${sink.url}/post?a=1`,
    ]);
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
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
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
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--port must be a whole number from 0 to 65535, not "70000"')]);
  });

  test("redacts credentials by name: vendor headers, Set-Cookie, query, form and JSON fields", async () => {
    const sink = await startSink(["--out", "creds", "--json"]);
    const secrets = [
      "AMZ-TOKEN-111",
      "GOOG-KEY-222",
      "PRIV-TOKEN-333",
      "VAULT-444",
      "APIM-KEY-555",
      "SESSION-666",
      "QUERY-KEY-777",
      "QUERY-PW-888",
      "FORM-PW-999",
      "FORM-TOKEN-000",
      "JSON-SECRET-aaa",
      "SSO-bbb",
    ];
    const headers = {
      "X-Amz-Security-Token": secrets[0]!,
      "X-Goog-Api-Key": secrets[1]!,
      "Private-Token": secrets[2]!,
      "X-Vault-Token": secrets[3]!,
      "Ocp-Apim-Subscription-Key": secrets[4]!,
      "Set-Cookie": `sid=${secrets[5]}; Path=/`,
      MYSAPSSO2: secrets[11]!,
    };
    await fetch(`${sink.url}/a?api_key=${secrets[6]}&user=ada&password=${secrets[7]}`, { headers });
    await fetch(`${sink.url}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `user=ada&password=${secrets[8]}&csrf_token=${secrets[9]}`,
    });
    await fetch(`${sink.url}/json`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: "ada", client_secret: secrets[10], nested: { accessToken: secrets[9] }, count: 2 }),
    });
    sink.proc.kill("SIGINT");
    const { stdout } = await sink.finish();
    const dir = join(p.dir, "creds");
    const saved = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    for (const secret of secrets) expect(`${stdout}\n${saved}`).not.toContain(secret);
    expect(saved).toContain("user=ada&password=[redacted: 11 bytes]&csrf_token=[redacted: 14 bytes]");
    expect(saved).toContain("GET /a?api_key=[redacted: 13 bytes]&user=ada&password=[redacted: 12 bytes] HTTP/1.1");
    expect(saved).toContain('"client_secret":"[redacted: 15 bytes]"');
    expect(saved).toContain('"user":"ada"');
    expect(saved).toContain("X-Goog-Api-Key: [redacted: 12 bytes]");
    expect(saved).toContain('"nested":{"accessToken":"[redacted: 14 bytes]"},"count":2');
    const records = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { path: string; headers: [string, string][] });
    expect(records[0]!.path).toBe("/a?api_key=[redacted: 13 bytes]&user=ada&password=[redacted: 12 bytes]");
  });

  test("HTTP/9.9, and Content-Length with Transfer-Encoding, are answered 400", async () => {
    const sink = await startSink(["--out", "bad"]);
    const { port, hostname } = new URL(sink.url);
    const ask = (wire: string) =>
      new Promise<string>((resolve, reject) => {
        let got = "";
        const socket = connect({ port: Number(port), host: hostname }, () => socket.write(wire));
        socket.on("data", (d) => (got += d.toString("latin1")));
        socket.on("end", () => resolve(got));
        socket.on("error", reject);
      });
    expect((await ask("GET / HTTP/9.9\r\nHost: x\r\n\r\n")).split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect((await ask("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")).split("\r\n")[0]).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    sink.proc.kill("SIGINT");
    const { stderr } = await sink.finish();
    expect(stderr).toContain("HTTP/9.9 is not HTTP/1.0 or HTTP/1.1");
    expect(stderr).toContain("both Transfer-Encoding and Content-Length");
    expect(readdirSync(join(p.dir, "bad"))).toEqual([]);
  });

  test("a 100 MB binary body is counted, not held; the first 64 KiB are dumped; other requests are answered meanwhile", async () => {
    const sink = await startSink(["--out", "big", "--json"]);
    const { port, hostname } = new URL(sink.url);
    const size = 100 * 1024 * 1024;
    const chunk = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) & 0xff);
    const socket = connect({ port: Number(port), host: hostname });
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`);
    const answered = new Promise<string>((resolve) => {
      let got = "";
      socket.on("data", (d) => {
        got += d.toString("latin1");
        if (got.includes("captured\n")) resolve(got);
      });
    });
    const started = performance.now();
    // Half the body, then another request on another connection is answered while this one is open.
    for (let i = 0; i < 50; i++) if (!socket.write(chunk)) await new Promise((r) => socket.once("drain", r));
    const other = await fetch(`${sink.url}/meanwhile`);
    expect(other.status).toBe(200);
    for (let i = 50; i < 100; i++) if (!socket.write(chunk)) await new Promise((r) => socket.once("drain", r));
    expect(await answered).toStartWith("HTTP/1.1 200 OK");
    expect(performance.now() - started).toBeLessThan(30_000);
    socket.end();
    const rss = sink.proc.pid ? readFileSync(`/proc/${sink.proc.pid}/status`, "utf8").match(/VmHWM:\s+(\d+) kB/)?.[1] : undefined;
    sink.proc.kill("SIGINT");
    const { stdout } = await sink.finish();
    const upload = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { path: string; body_length: number; body_kind: string; file: string })
      .find((r) => r.path === "/upload")!;
    expect([upload.body_length, upload.body_kind]).toEqual([size, "binary"]);
    const saved = readFileSync(upload.file, "utf8");
    expect(saved.length).toBeLessThan(1024 * 1024);
    expect(saved).toContain(`… ${size - 65536} more bytes, not kept`);
    expect(saved).toContain(`--- body: ${size} bytes, binary (hexdump above); the first 65536 shown, the other ${size - 65536} counted and not kept`);
    // The peak resident size stays that of an idle sink (it was gigabytes when bodies were held and dumped whole).
    if (rss !== undefined) expect(Number(rss) * 1024).toBeLessThan(300 * 1024 * 1024);
  }, 120_000);
});
