// The session's input gate: trusted input waits for a page-side install; page commands do not.
import { expect, test } from "bun:test";
import { Session, type Connection } from "./connection.ts";

/** A connection whose answers the test releases one by one, recording the order commands left in. */
function scriptedConnection() {
  const sent: string[] = [];
  const answers = new Map<string, () => void>();
  const connection = {
    send(method: string) {
      sent.push(method);
      return new Promise((resolve) => answers.set(method, () => resolve({})));
    },
  } as unknown as Connection;
  return { connection, sent, answer: (method: string) => answers.get(method)!() };
}

test("Input.* commands wait for the gate; page commands go out at once; the gate clears once settled", async () => {
  const { connection, sent, answer } = scriptedConnection();
  const session = new Session(connection, "s1");
  const install = session.send("Runtime.evaluate", { expression: "1" });
  session.holdInputUntil(install);
  const key = session.send("Input.dispatchKeyEvent", { type: "keyDown", key: "a" });
  const query = session.send("Runtime.callFunctionOn", { functionDeclaration: "function () {}" });
  await Bun.sleep(5);
  expect(sent).toEqual(["Runtime.evaluate", "Runtime.callFunctionOn"]);
  answer("Runtime.evaluate");
  await install;
  await Bun.sleep(0);
  expect(sent).toEqual(["Runtime.evaluate", "Runtime.callFunctionOn", "Input.dispatchKeyEvent"]);
  answer("Input.dispatchKeyEvent");
  answer("Runtime.callFunctionOn");
  await Promise.all([key, query]);
  // A gate whose install failed still opens; once open, input goes straight out.
  const failed = Promise.reject(new Error("page gone"));
  session.holdInputUntil(failed);
  const later = session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 1, y: 1 });
  await Bun.sleep(5);
  expect(sent.at(-1)).toBe("Input.dispatchMouseEvent");
  answer("Input.dispatchMouseEvent");
  await later;
});

test("a bounded connection whose far end falls silent (a grid after its node died) fails every command and wait instead of hanging", async () => {
  const { Connection: Real } = await import("./connection.ts");
  // A WebSocket server that accepts the connection and never answers: what the grid leaves.
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req, s) => (s.upgrade(req) ? undefined : new Response("", { status: 400 })),
    websocket: { message() {} },
  });
  try {
    const connection = await Real.connect(`ws://127.0.0.1:${server.port}/session/x/se/cdp`, { callTimeoutMs: 300 });
    connection.explainLoss(async () => "the grid node http://node:5555 stopped answering");
    const waiting = connection
      .session("s")
      .waitFor("Page.loadEventFired", 60_000)
      .catch((e: Error) => e.message);
    const started = Date.now();
    const sent = await connection.send("Runtime.evaluate", { expression: "1" }).catch((e: Error) => e.message);
    expect(sent).toBe("the browser is gone: the grid node http://node:5555 stopped answering: no answer to Runtime.evaluate within 300 ms");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waiting).toStartWith("the browser is gone: the grid node http://node:5555 stopped answering");
    expect(connection.lost).toBe(true);
    await connection.close();
  } finally {
    server.stop(true);
  }
});

test("with a heartbeat, a slow command alone does not end the connection; a silent heartbeat does, failing what waits", async () => {
  const { Connection: Real } = await import("./connection.ts");
  // Answers Browser.getVersion (the heartbeat) while `alive`; never answers anything else.
  let alive = true;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req, s) => (s.upgrade(req) ? undefined : new Response("", { status: 400 })),
    websocket: {
      message(ws, data) {
        const m = JSON.parse(String(data)) as { id: number; method: string };
        if (alive && m.method === "Browser.getVersion") ws.send(JSON.stringify({ id: m.id, result: { product: "x" } }));
      },
    },
  });
  try {
    const connection = await Real.connect(`ws://127.0.0.1:${server.port}/`, { callTimeoutMs: 300, heartbeatMs: 100, heartbeatTimeoutMs: 400 });
    expect(await connection.send("Runtime.evaluate", { expression: "1" }).catch((e: Error) => e.message)).toContain(
      "the browser did not answer Runtime.evaluate within 300 ms",
    );
    expect(connection.lost).toBe(false);
    alive = false;
    const waiting = await connection
      .session("s")
      .waitFor("Page.loadEventFired", 60_000)
      .catch((e: Error) => e.message);
    expect(waiting).toBe("the browser is gone: no answer to Browser.getVersion within 400 ms");
    expect(connection.lost).toBe(true);
    await connection.close();
  } finally {
    server.stop(true);
  }
});

test("the tap sees every command of a real browser, answered or failed, and costs nothing once unset", async () => {
  const { requireChromium } = await import("../../../test/support/chromium.ts");
  const { findBrowser, launchBrowser } = await import("../launch.ts");
  const { cdpTap, Connection: Real } = await import("./connection.ts");
  requireChromium();
  const browser = await launchBrowser(findBrowser(process.env, { headless: true }).path!);
  const calls: Array<{ method: string; failed: boolean; answeredAfterSent: boolean }> = [];
  // The tap sees every connection of this process: a connection an earlier test file left closing
  // may still send. Only this test's own commands are looked at.
  const mine = new Set(["Browser.getVersion", "Target.attachToTarget"]);
  cdpTap.onCall = (c) => {
    if (mine.has(c.method)) calls.push({ method: c.method, failed: c.failed, answeredAfterSent: c.answeredAt >= c.sentAt });
  };
  try {
    const connection = await Real.connect(browser.wsUrl);
    await connection.send("Browser.getVersion");
    await connection.send("Target.attachToTarget", { targetId: "no-such-target" }).catch(() => undefined);
    cdpTap.onCall = undefined;
    await connection.send("Browser.getVersion");
    expect(calls).toEqual([
      { method: "Browser.getVersion", failed: false, answeredAfterSent: true },
      { method: "Target.attachToTarget", failed: true, answeredAfterSent: true },
    ]);
    await connection.close();
  } finally {
    cdpTap.onCall = undefined;
    await browser.close();
  }
}, 60_000);
