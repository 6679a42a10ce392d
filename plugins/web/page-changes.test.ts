// The wake of a retry loop in real Chromium, on pages served from 127.0.0.1: it resolves on the
// page's own late changes (a timer, a fetch answered late), on a navigation, and not while the page
// stays still.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openBarePage } from "../../test/support/cdp-page.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import type { Session } from "./cdp/connection.ts";
import type { LaunchedBrowser } from "./launch.ts";
import { CHANGE_KEY, untilPageChange } from "./page-changes.ts";

const PAGE = `<!doctype html><html><body>
  <p id="status">waiting</p><input id="field" value="">
  <script>
    window.later = (ms) => setTimeout(() => { document.getElementById("status").textContent = "changed"; }, ms);
    window.fetchLate = () => fetch("/page-changes/slow").then((r) => r.text()).then((t) => { document.getElementById("status").textContent = t; });
  </script>
</body></html>`;

let server: TestServer;
let browser: LaunchedBrowser;
let session: Session;

const evaluate = async (expression: string) => {
  const res = await session.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
  if (res.exceptionDetails) throw new Error(res.exceptionDetails.text);
  return res.result.value as unknown;
};

/** Whether `p` resolved within `ms` (a generous bound: the page changes well before it). */
const within = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), Bun.sleep(ms).then(() => false)]);

async function open(): Promise<void> {
  const loaded = new Promise<void>((resolve) => {
    const off = session.on("Page.loadEventFired", () => {
      off();
      resolve();
    });
  });
  await session.send("Page.navigate", { url: `${server.url}/page-changes/page.html` });
  await loaded;
}

beforeAll(async () => {
  server = await startServer();
  server.setRoute("/page-changes/page.html", () => new Response(PAGE, { headers: { "content-type": "text/html" } }));
  server.setRoute("/page-changes/slow", async () => {
    await Bun.sleep(300);
    return new Response("answered");
  });
  ({ browser, session } = await openBarePage());
  await Promise.all([session.send("Page.enable"), session.send("Runtime.enable")]);
});
afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe("untilPageChange", () => {
  test("does not resolve while the page stays still", async () => {
    await open();
    expect(await within(untilPageChange(session), 400)).toBe(false);
  });

  test("resolves when the page changes its DOM on a timer 40 ms after it was armed", async () => {
    await open();
    const wake = untilPageChange(session);
    await evaluate("window.later(40), true");
    expect(await within(wake, 10_000)).toBe(true);
    expect(await evaluate(`document.getElementById("status").textContent`)).toBe("changed");
  });

  test("resolves when a fetch answered after 300 ms changes the page", async () => {
    await open();
    const wake = untilPageChange(session);
    await evaluate("window.fetchLate(), true");
    expect(await within(wake, 10_000)).toBe(true);
    expect(await evaluate(`document.getElementById("status").textContent`)).toBe("answered");
  });

  test("resolves when a script sets a field through an input event", async () => {
    await open();
    const wake = untilPageChange(session);
    await evaluate(
      `(() => { const f = document.getElementById("field"); f.value = "x"; f.dispatchEvent(new Event("input", { bubbles: true })); return true; })()`,
    );
    expect(await within(wake, 10_000)).toBe(true);
  });

  test("resolves when the page navigates away, and every pending wake resolves together", async () => {
    await open();
    const first = untilPageChange(session);
    const second = untilPageChange(session);
    await open();
    expect(await within(Promise.all([first, second]), 10_000)).toBe(true);
  });

  test("leaves no enumerable global on the page", async () => {
    await open();
    const wake = untilPageChange(session);
    expect(await evaluate(`Object.keys(window).includes(${JSON.stringify(CHANGE_KEY)})`)).toBe(false);
    expect(await evaluate(`typeof window[${JSON.stringify(CHANGE_KEY)}]`)).toBe("function");
    await evaluate("window.later(0), true");
    await wake;
  });
});
