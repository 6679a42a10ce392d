// The page's task tags in real Chromium: each callback runs with the epoch it was scheduled in,
// work scheduled from tagged work inherits its tag, and scheduling behaves as without the tags.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openBarePage } from "../../test/support/cdp-page.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import type { Session } from "./cdp/connection.ts";
import type { LaunchedBrowser } from "./launch.ts";
import { TASK_ORIGINS_SCRIPT, TASKS_KEY } from "./task-origins.ts";

let server: TestServer;
let browser: LaunchedBrowser;
let session: Session;

const evaluate = async (expression: string): Promise<unknown> => {
  const res = await session.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
  if (res.exceptionDetails) throw new Error(res.exceptionDetails.exception?.description ?? res.exceptionDetails.text);
  return res.result.value;
};

beforeAll(async () => {
  server = await startServer();
  server.setRoute("/tasks.html", () => new Response("<!doctype html><title>tasks</title><p>tasks</p>", { headers: { "content-type": "text/html" } }));
  ({ browser, session } = await openBarePage());
  await Promise.all([
    session.send("Page.enable"),
    session.send("Runtime.enable"),
    session.send("Page.addScriptToEvaluateOnNewDocument", { source: TASK_ORIGINS_SCRIPT }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  server?.stop();
});

/** A fresh document, its epoch at 0. */
async function fresh(): Promise<void> {
  await session.send("Page.navigate", { url: `${server.url}/tasks.html?${Math.random()}` });
  for (let i = 0; i < 100; i++) {
    if ((await evaluate(`document.readyState === "complete" && typeof window.${TASKS_KEY} === "object"`)) === true) return;
    await Bun.sleep(20);
  }
  throw new Error("the page did not load");
}

describe("task tags", () => {
  test("a callback runs with the epoch it was scheduled in, not the one it runs in", async () => {
    await fresh();
    const seen = await evaluate(`new Promise((done) => {
      const T = window.${TASKS_KEY};
      const out = {};
      setTimeout(() => { out.timeout = T.current; }, 30);
      requestAnimationFrame(() => { out.frame = T.current; });
      T.epoch++;
      setTimeout(() => { out.later = T.current; }, 0);
      setTimeout(() => done({ ...out, outside: T.current, epoch: T.epoch }), 60);
    })`);
    expect(seen).toEqual({ timeout: 0, frame: 0, later: 1, outside: 1, epoch: 1 });
  });

  test("work scheduled from tagged work inherits its tag, through timers, intervals, microtasks and MessageChannel", async () => {
    await fresh();
    const seen = await evaluate(`new Promise((done) => {
      const T = window.${TASKS_KEY};
      const out = {};
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { out.message = T.current; };
      const listened = new MessageChannel();
      listened.port1.addEventListener("message", () => { out.listened = T.current; });
      listened.port1.start();
      let ticks = 0;
      const id = setInterval(() => {
        if (++ticks < 2) return;
        clearInterval(id);
        out.interval = T.current;
        setTimeout(() => { out.nested = T.current; }, 0);
        queueMicrotask(() => { out.microtask = T.current; });
        channel.port2.postMessage(null);
        listened.port2.postMessage(null);
      }, 10);
      T.epoch = 5;
      setTimeout(() => done({ ...out, isChannel: channel instanceof MessageChannel }), 120);
    })`);
    expect(seen).toEqual({ interval: 0, nested: 0, microtask: 0, message: 0, listened: 0, isChannel: true });
  });

  test("scheduling answers as it does untagged: ids that clear, arguments passed, a string body still runs", async () => {
    await fresh();
    const seen = await evaluate(`new Promise((done) => {
      const out = { cleared: true };
      const id = setTimeout(() => { out.cleared = false; }, 10);
      clearTimeout(id);
      setTimeout((a, b) => { out.args = [a, b]; }, 0, "x", 2);
      window.stringRan = false;
      setTimeout("window.stringRan = true", 0);
      const { setTimeout: detached } = window;
      detached(() => { out.detached = true; }, 0);
      setTimeout(() => done({ ...out, stringRan: window.stringRan, name: setTimeout.name, idType: typeof id }), 40);
    })`);
    expect(seen).toEqual({ cleared: true, args: ["x", 2], detached: true, stringRan: true, name: "setTimeout", idType: "number" });
  });

  test("the before/after hook sees each tagged callback with its tag; untagged work runs outside any tag", async () => {
    await fresh();
    const seen = await evaluate(`new Promise((done) => {
      const T = window.${TASKS_KEY};
      const phases = [];
      T.around = (phase, origin) => phases.push(phase + ":" + origin);
      T.epoch = 2;
      setTimeout(() => {
        fetch(location.href).then(() => {
          const untagged = T.current;
          T.around = undefined;
          done({ phases, untagged });
        });
      }, 0);
    })`);
    expect(seen).toEqual({ phases: ["start:2", "end:2"], untagged: undefined });
  });
});
