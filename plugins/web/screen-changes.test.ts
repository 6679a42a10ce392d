// The screen-changed signal in real Chromium: the page script on real documents (served from
// 127.0.0.1), read through the host side over CDP exactly as the recorder reads it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openBarePage } from "../../test/support/cdp-page.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import type { Session } from "./cdp/connection.ts";
import type { LaunchedBrowser } from "./launch.ts";
import { SCREEN_CHANGES_SCRIPT, SCREEN_KEY, ScreenChanges } from "./screen-changes.ts";

const PAGE = `<!doctype html><html><head><style>
  #box { width: 40px; height: 40px; background: #00f; }
  .spin { animation: spin 400ms linear 1; }
  @keyframes spin { to { transform: rotate(90deg); } }
  #scroller { height: 50px; overflow: auto; } #tall { height: 500px; }
</style></head><body>
  <div id="box"></div><p id="text">hello</p><input id="field" value="a"><div id="scroller"><div id="tall">x</div></div>
  <div id="host"></div><canvas id="canvas" width="10" height="10"></canvas>
  <iframe id="inner" src="/screen-changes/inner.html"></iframe>
  <script>window.closedRoot = document.getElementById("host").attachShadow({ mode: "closed" }); window.closedRoot.innerHTML = "<span>in</span>";</script>
</body></html>`;

let server: TestServer;
let browser: LaunchedBrowser;
let session: Session;
const changes = new ScreenChanges();

const evaluate = async (expression: string) => {
  const res = await session.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
  if (res.exceptionDetails) throw new Error(res.exceptionDetails.text);
  return res.result.value as unknown;
};
/**
 * Looks until the page settles (loading, the first look, events a change queued for later such as
 * the selectionchange a focus() fires), so a test starts from a clean flag: two clean looks in a row.
 */
async function settle(): Promise<void> {
  let clean = 0;
  for (let i = 0; i < 100 && clean < 2; i++) {
    clean = (await changes.changed(session)) ? 0 : clean + 1;
    if (clean < 2) await Bun.sleep(50);
  }
  expect(clean).toBe(2);
}

beforeAll(async () => {
  server = await startServer();
  server.setRoute("/screen-changes/page.html", () => new Response(PAGE, { headers: { "content-type": "text/html" } }));
  server.setRoute("/screen-changes/inner.html", () => new Response("<!doctype html><p id='deep'>inner</p>", { headers: { "content-type": "text/html" } }));
  ({ browser, session } = await openBarePage());
  changes.listen(session);
  await Promise.all([
    session.send("Page.enable"),
    session.send("Runtime.enable"),
    session.send("Page.addScriptToEvaluateOnNewDocument", { source: SCREEN_CHANGES_SCRIPT }),
  ]);
  await session.send("Page.navigate", { url: `${server.url}/screen-changes/page.html` });
});
afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe("ScreenChanges in a real page", () => {
  test("a new document is a change; a look with nothing done since is not", async () => {
    await settle();
    expect(await changes.changed(session)).toBe(false);
  });

  test("DOM changes: attributes, text, children, and inside a closed shadow root and a same-origin frame", async () => {
    for (const change of [
      `document.getElementById("box").style.background = "#f00"`,
      `document.getElementById("text").firstChild.data = "bye"`,
      `document.body.append(document.createElement("hr"))`,
      `window.closedRoot.firstChild.textContent = "changed"`,
      `document.getElementById("inner").contentDocument.getElementById("deep").textContent = "deeper"`,
    ]) {
      await settle();
      await evaluate(change);
      expect([change, await changes.changed(session)]).toEqual([change, true]);
      expect([change, await changes.changed(session)]).toEqual([change, false]);
    }
  });

  test("what the DOM does not report: a value, a checked state, focus, a selection, scrolling set by script", async () => {
    for (const change of [
      `document.getElementById("field").value = "b"`,
      `document.getElementById("field").focus()`,
      `document.getElementById("field").setSelectionRange(0, 1)`,
      `document.getElementById("scroller").scrollTop = 100`,
      `window.scrollTo(0, 10)`,
    ]) {
      await settle();
      await evaluate(change);
      expect([change, await changes.changed(session)]).toEqual([change, true]);
    }
  });

  test("a running animation is a change at every look, and at the first look after it ended", async () => {
    await settle();
    await evaluate(`document.getElementById("box").classList.add("spin"); document.getElementById("box").getAnimations().length`);
    expect(await changes.changed(session)).toBe(true);
    await Bun.sleep(50);
    expect(await changes.changed(session)).toBe(true);
    await evaluate(`Promise.all(document.getAnimations().map((a) => a.finished))`);
    expect(await changes.changed(session)).toBe(true);
    expect(await changes.changed(session)).toBe(false);
  });

  test("a Web Animation that starts and ends between two looks is a change", async () => {
    await settle();
    await evaluate(`document.getElementById("box").animate([{ opacity: 1 }, { opacity: 0.5 }], 30).finished.then(() => true)`);
    expect(await changes.changed(session)).toBe(true);
  });

  test("a hidden element added and removed within one task (a style probe) is not a change", async () => {
    await settle();
    await evaluate(
      `{ const s = document.createElement("span"); s.style.display = "none"; document.body.appendChild(s); getComputedStyle(s).color; s.remove(); }`,
    );
    expect(await changes.changed(session)).toBe(false);
  });

  test("a page without the script, and a navigation, are changes", async () => {
    await settle();
    await evaluate(`delete window[${JSON.stringify(SCREEN_KEY)}]`);
    expect(await changes.changed(session)).toBe(true);
    expect(await changes.changed(session)).toBe(true);
    await session.send("Page.navigate", { url: `${server.url}/screen-changes/page.html` });
    expect(await changes.changed(session)).toBe(true);
    await settle();
  });

  test("once a script drew on a canvas, every look is a change", async () => {
    await settle();
    await evaluate(`document.getElementById("canvas").getContext("2d").fillRect(0, 0, 5, 5)`);
    expect(await changes.changed(session)).toBe(true);
    expect(await changes.changed(session)).toBe(true);
  });
});
