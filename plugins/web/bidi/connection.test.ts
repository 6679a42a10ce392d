import { afterAll, beforeAll, expect, test } from "bun:test";
import { FlowproofError } from "../../../src/plugins/api.ts";
import { requireFirefox } from "../../../test/support/firefox.ts";
import type { LaunchedBrowser } from "../launch.ts";
import { BidiConnection, BidiError } from "./connection.ts";
import { launchFirefox } from "./launch.ts";

let browser: LaunchedBrowser;
beforeAll(async () => {
  browser = await launchFirefox(requireFirefox());
});
afterAll(() => browser?.close());

test("opens a BiDi session, answers commands by id and events to their listeners", async () => {
  const c = await BidiConnection.connect(browser.wsUrl);
  try {
    const status = await c.send<{ ready: boolean }>("session.status");
    expect(typeof status.ready).toBe("boolean");
    const { context } = await c.send<{ context: string }>("browsingContext.create", { type: "tab" });
    await c.send("session.subscribe", { events: ["browsingContext.load"], contexts: [context] });
    const loaded = new Promise<string>((resolve) => c.on("browsingContext.load", (p) => resolve(String(p["url"]))));
    await c.send("browsingContext.navigate", { context, url: "data:text/html,<p>hi</p>", wait: "complete" });
    expect(await loaded).toStartWith("data:text/html");
    // Several commands in flight are each answered with their own result.
    const answers = await Promise.all(
      [1, 2, 3].map((n) => c.send<{ result: { value: number } }>("script.evaluate", { expression: `${n} * 10`, target: { context }, awaitPromise: false })),
    );
    expect(answers.map((a) => a.result.value)).toEqual([10, 20, 30]);
    await c.send("browsingContext.close", { context });
  } finally {
    await c.close();
  }
}, 60_000);

test("a command the browser refuses rejects with a BidiError naming the command and the error", async () => {
  const c = await BidiConnection.connect(browser.wsUrl);
  try {
    const error = await c.send("browsingContext.startScreencast", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BidiError);
    expect((error as BidiError).error).toBe("unknown command");
    expect((error as BidiError).message).toContain("browsingContext.startScreencast");
  } finally {
    await c.close();
  }
}, 60_000);

test("after close, the connection is closed and every command rejects at once", async () => {
  const c = await BidiConnection.connect(browser.wsUrl);
  let told = false;
  c.onClose(() => (told = true));
  await c.close();
  expect(c.closed).toBe(true);
  expect(told).toBe(true);
  const error = await c.send("session.status").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FlowproofError);
  expect((error as Error).message).toContain("the browser is gone");
}, 60_000);

test("drop closes the socket at once, without a session.end round trip: listeners told, commands in flight rejected", async () => {
  const own = await launchFirefox(requireFirefox());
  try {
    const c = await BidiConnection.connect(own.wsUrl);
    let told = false;
    c.onClose(() => (told = true));
    const { context } = await c.send<{ context: string }>("browsingContext.create", { type: "tab" });
    const pending = c.send("script.evaluate", { expression: "new Promise(() => {})", target: { context }, awaitPromise: true }).catch((e: unknown) => e);
    c.drop();
    expect(c.closed).toBe(true);
    expect(told).toBe(true);
    expect(await pending).toBeInstanceOf(FlowproofError);
  } finally {
    await own.close();
  }
}, 60_000);

test("a browser that dies fails the command in flight, explained by how its process ended", async () => {
  const own = await launchFirefox(requireFirefox());
  const c = await BidiConnection.connect(own.wsUrl);
  c.explainLoss(() => new Promise((resolve) => own.onExit(resolve)));
  const { context } = await c.send<{ context: string }>("browsingContext.create", { type: "tab" });
  const pending = c.send("script.evaluate", { expression: "new Promise(() => {})", target: { context }, awaitPromise: true }).catch((e: unknown) => e);
  process.kill(own.pid, "SIGKILL");
  const error = (await pending) as Error;
  expect(error).toBeInstanceOf(FlowproofError);
  expect(error.message).toContain("the browser went away during script.evaluate");
  expect(error.message).toContain("killed");
  await own.close();
}, 60_000);
