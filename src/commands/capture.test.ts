import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { startCapture, type CaptureSink, type CapturedRequest } from "./capture.ts";
import { tmpProject } from "../../test/support/tmp-project.ts";

const p = tmpProject("flowproof-capture-");
afterAll(() => p.remove());

let sink: CaptureSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

async function start(dir: string): Promise<{ sink: CaptureSink; seen: CapturedRequest[]; problems: string[] }> {
  const seen: CapturedRequest[] = [];
  const problems: string[] = [];
  sink = await startCapture({ port: 0, out: join(p.dir, dir) }, { onRequest: (r) => seen.push(r), onProblem: (m) => problems.push(m) });
  return { sink, seen, problems };
}

/** Sends `wire` on one raw connection and resolves with everything the sink answered once it closes. */
function rawExchange(port: number, wire: string | Uint8Array, { end = true } = {}): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.write(wire);
      if (end) socket.end();
    });
    let answer = "";
    socket.on("data", (d) => (answer += d.toString("latin1")));
    socket.on("close", () => done(answer));
    socket.on("error", fail);
  });
}

describe("startCapture", () => {
  test("answers 200 to fetch and saves the request with its body and namespace fields", async () => {
    const { sink, seen } = await start("fetch");
    const res = await fetch(`${sink.url}/sap/bc/idoc?x=1`, {
      method: "POST",
      headers: { "X-Trace-Id": "abc", "Content-Type": "application/json" },
      body: '{"/SCWM/LGNUM":"0001"}',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("captured\n");
    expect(seen).toHaveLength(1);
    const r = seen[0]!.record;
    expect([r.seq, r.method, r.path, r.body_length, r.namespace_fields, r.file]).toEqual([
      1,
      "POST",
      "/sap/bc/idoc?x=1",
      22,
      ["/SCWM/LGNUM"],
      join(sink.outDir, "req-001.txt"),
    ]);
    expect(r.headers.find(([n]) => n.toLowerCase() === "x-trace-id")).toBeDefined();
    const saved = readFileSync(r.file, "utf8");
    expect(saved.split("\n")[0]).toBe("POST /sap/bc/idoc?x=1 HTTP/1.1");
    expect(saved).toContain('\n\n{"/SCWM/LGNUM":"0001"}\n--- body: 22 bytes, text\n--- SAP namespace fields: /SCWM/LGNUM\n');
  });

  test("keeps header order and case exactly, and serves several requests on one connection", async () => {
    const { sink, seen } = await start("raw");
    const wire =
      "PUT /a HTTP/1.1\r\nzeta: 1\r\nALPHA: 2\r\nMiXeD: three  spaces\r\nContent-Length: 3\r\n\r\nabc" +
      "POST /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nxyz\r\n0\r\n\r\n" +
      "GET /c HTTP/1.1\r\nConnection: close\r\n\r\n";
    const answer = await rawExchange(sink.port, wire, { end: false });
    expect(answer.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(3);
    expect(answer).toContain("Connection: close");
    expect(seen.map((r) => [r.record.method, r.record.path, r.record.body_length, r.record.chunked])).toEqual([
      ["PUT", "/a", 3, false],
      ["POST", "/b", 3, true],
      ["GET", "/c", 0, false],
    ]);
    expect(readFileSync(seen[0]!.record.file, "utf8").split("\n").slice(0, 6)).toEqual([
      "PUT /a HTTP/1.1",
      "zeta: 1",
      "ALPHA: 2",
      "MiXeD: three  spaces",
      "Content-Length: 3",
      "",
    ]);
  });

  test("answers 100 Continue to a client that waits for it", async () => {
    const { sink, seen } = await start("expect");
    const answer = await new Promise<string>((done) => {
      const socket = connect({ host: "127.0.0.1", port: sink.port }, () =>
        socket.write("POST /up HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\nConnection: close\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (d) => {
        text += d.toString("latin1");
        if (text.startsWith("HTTP/1.1 100 Continue\r\n\r\n") && !text.includes("200")) socket.write("body");
      });
      socket.on("close", () => done(text));
    });
    expect(answer).toStartWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK");
    expect(seen.map((r) => r.record.body_length)).toEqual([4]);
  });

  test("hexdumps a binary body", async () => {
    const { sink, seen } = await start("binary");
    await fetch(sink.url, { method: "POST", body: new Uint8Array([0, 1, 2, 255]) });
    expect(seen[0]!.record.body_kind).toBe("binary");
    expect(readFileSync(seen[0]!.record.file, "utf8")).toContain("00000000  00 01 02 ff");
  });

  test("answers 400 to bytes that are not HTTP and says so", async () => {
    const { sink, seen, problems } = await start("garbage");
    expect(await rawExchange(sink.port, "HELLO THERE\r\n\r\n")).toStartWith("HTTP/1.1 400 Bad Request");
    expect(seen).toHaveLength(0);
    expect(problems[0]).toContain("not an HTTP/1.x request line");
  });

  test("numbers on after the files a previous run left, never overwriting one", async () => {
    const dir = join(p.dir, "again");
    const first = await start("again");
    await fetch(first.sink.url);
    await first.sink.close();
    writeFileSync(join(dir, "req-041.txt"), "kept");
    const { sink, seen } = await start("again");
    await fetch(sink.url);
    expect(seen[0]!.record.seq).toBe(42);
    expect(readdirSync(dir).sort()).toEqual(["req-001.txt", "req-041.txt", "req-042.txt"]);
    expect(readFileSync(join(dir, "req-041.txt"), "utf8")).toBe("kept");
  });

  test("a port in use is listen-failed, with what to do", async () => {
    const { sink: taken } = await start("busy");
    const error = await startCapture({ port: taken.port, out: join(p.dir, "busy2") }, { onRequest: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowproofError);
    expect((error as FlowproofError).diagnostics[0]).toEqual({
      code: "listen-failed",
      message: `capture: 127.0.0.1:${taken.port} is already in use`,
      hint: "pass another --port, or --port 0 to take a free one",
    });
  });
});
