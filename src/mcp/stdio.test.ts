import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineTransport } from "./stdio.ts";

async function started() {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: string[] = [];
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => written.push(...chunk.split("\n").filter(Boolean)));
  const transport = new LineTransport(input, output);
  const received: JSONRPCMessage[] = [];
  let closed = 0;
  transport.onmessage = (m) => received.push(m);
  transport.onclose = () => closed++;
  await transport.start();
  return { input, output, transport, received, written: () => written.map((l) => JSON.parse(l) as unknown), closed: () => closed };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe("LineTransport", () => {
  test("hands each JSON-RPC line to onmessage, across chunk boundaries and CRLF", async () => {
    const t = await started();
    t.input.write('{"jsonrpc":"2.0","id":1,"met');
    t.input.write('hod":"ping"}\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await tick();
    expect(t.received).toEqual([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
  });

  test("answers a line that is not JSON with -32700 and id null", async () => {
    const t = await started();
    t.input.write("{nope\n");
    await tick();
    expect(t.received).toEqual([]);
    expect(t.written()).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } }]);
  });

  test("answers JSON that is not JSON-RPC with -32600, keeping an id it can read", async () => {
    const t = await started();
    t.input.write('{"id":4,"x":1}\n[1,2]\n');
    await tick();
    expect(t.written()).toEqual([
      { jsonrpc: "2.0", id: 4, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" } },
    ]);
  });

  test("closes once, on end of input", async () => {
    const t = await started();
    t.input.end();
    await tick();
    expect(t.closed()).toBe(1);
    expect(t.transport.closedBy).toBe("end of input");
    await t.transport.close();
    expect(t.closed()).toBe(1);
  });

  test("closes on a broken pipe and drops later sends", async () => {
    const t = await started();
    const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    t.output.emit("error", epipe);
    expect(t.transport.closedBy).toBe("broken pipe");
    await t.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(t.closed()).toBe(1);
  });

  test("sends one JSON line per message", async () => {
    const t = await started();
    await t.transport.send({ jsonrpc: "2.0", id: 9, result: { ok: true } });
    await tick();
    expect(t.written()).toEqual([{ jsonrpc: "2.0", id: 9, result: { ok: true } }]);
  });
});
