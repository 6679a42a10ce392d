// CDP's download events are the browser's, not a page's: a context's tracker takes the downloads of
// its page, the page's frames and the tabs it opened, and none of another context's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { openBarePage, type BarePage } from "../../../test/support/cdp-page.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import type { Downloads } from "../downloads.ts";
import { discoverTargets } from "../page-start.ts";
import { createDownloads } from "./downloads.ts";

let bare: BarePage;
let server: TestServer;
beforeAll(async () => {
  bare = await openBarePage();
  await discoverTargets(bare.connection);
  server = await startServer();
  const html = (body: string) => () => new Response(body, { headers: { "content-type": "text/html" } });
  server.setRoute(
    "/page.html",
    html('<a id="a" href="/report">Report</a> <a id="tab" href="/report" target="_blank">In a tab</a> <iframe src="/frame.html"></iframe>'),
  );
  server.setRoute("/frame.html", html('<a id="f" href="/report">Report</a>'));
  server.setRoute(
    "/report",
    () => new Response("a,b\n1,2\n", { headers: { "content-type": "text/csv", "content-disposition": "attachment; filename=report.csv" } }),
  );
});
afterAll(async () => {
  server?.stop();
  await bare?.browser.close();
});

/** A context of its own showing page.html, its downloads tracked; `run` evaluates in its page. */
async function context(): Promise<{ downloads: Downloads; run: (expression: string) => Promise<unknown> }> {
  const connection = bare.connection;
  const { browserContextId } = await connection.send("Target.createBrowserContext", { disposeOnDetach: true });
  const { targetId } = await connection.send("Target.createTarget", { url: `${server.url}/page.html`, browserContextId });
  const session = connection.session((await connection.send("Target.attachToTarget", { targetId, flatten: true })).sessionId);
  const run = async (expression: string) => (await session.send("Runtime.evaluate", { expression, returnByValue: true })).result.value;
  const loaded = "document.readyState === 'complete' && document.querySelector('iframe').contentDocument?.readyState === 'complete'";
  for (let i = 0; i < 400 && (await run(loaded)) !== true; i++) await Bun.sleep(25);
  const frames = (await session.send("Page.getFrameTree")).frameTree;
  const own = new Set([frames.frame.id, ...(frames.childFrames ?? []).map((f) => f.frame.id)]);
  return { downloads: await createDownloads(connection, browserContextId, (frameId) => own.has(frameId)), run };
}

async function settled(downloads: Downloads, completed: number) {
  const until = Date.now() + 20_000;
  while (Date.now() < until && downloads.state(false).completed.length < completed) await Bun.sleep(25);
  return downloads.state(false);
}

test("the page's, its frame's and its tab's downloads are the context's, each in a folder of its own, removed at close", async () => {
  const { downloads, run } = await context();
  await run("document.getElementById('a').click()");
  await run("document.querySelector('iframe').contentDocument.getElementById('f').click()");
  await run("document.getElementById('tab').click()");
  const state = await settled(downloads, 3);
  expect(state.inProgress).toBe(0);
  expect(state.completed.map((p) => basename(p))).toEqual(["report.csv", "report.csv", "report.csv"]);
  expect(new Set(state.completed.map((p) => dirname(p))).size).toBe(3);
  expect(state.completed.map((p) => readFileSync(p, "utf8"))).toEqual(Array(3).fill("a,b\n1,2\n"));
  expect(downloads.state(true).completed).toHaveLength(3);
  expect(downloads.state(false).completed).toEqual([]);
  downloads.close();
  expect(existsSync(dirname(dirname(state.completed[0]!)))).toBe(false);
}, 60_000);

test("another context's download is not this one's", async () => {
  const mine = await context();
  const theirs = await context();
  await theirs.run("document.getElementById('a').click()");
  expect((await settled(theirs.downloads, 1)).completed).toHaveLength(1);
  expect(mine.downloads.state(false)).toEqual({ completed: [], inProgress: 0, canceled: [] });
  mine.downloads.close();
  theirs.downloads.close();
}, 60_000);
