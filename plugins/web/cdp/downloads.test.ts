import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { openBarePage, type BarePage } from "../../../test/support/cdp-page.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { createDownloads } from "./downloads.ts";

let bare: BarePage;
let server: TestServer;
const own = mkdtempSync(join(tmpdir(), "flowproof-cdpdl-test-"));
beforeAll(async () => {
  bare = await openBarePage();
  server = await startServer();
  server.setRoute("/page.html", () => new Response('<a id="a" href="/report">Report</a>', { headers: { "content-type": "text/html" } }));
  server.setRoute(
    "/report",
    () => new Response("a,b\n1,2\n", { headers: { "content-type": "text/csv", "content-disposition": "attachment; filename=report.csv" } }),
  );
});
afterAll(async () => {
  server?.stop();
  await bare?.browser.close();
  rmSync(own, { recursive: true, force: true });
});

/** A page in a context of its own whose downloads are tracked (into `dir` when given); a click on its link downloads report.csv. */
async function downloading(dir?: string) {
  const connection = bare.connection;
  const { browserContextId } = await connection.send("Target.createBrowserContext", { disposeOnDetach: true });
  const { targetId } = await connection.send("Target.createTarget", { url: "about:blank", browserContextId });
  const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
  const session = connection.session(sessionId);
  const downloads = await createDownloads(connection, browserContextId, (frameId) => frameId === targetId, dir);
  await session.send("Page.navigate", { url: `${server.url}/page.html` });
  const evaluate = async (expression: string) => (await session.send("Runtime.evaluate", { expression, returnByValue: true })).result.value;
  for (let i = 0; i < 400 && (await evaluate("document.getElementById('a') !== null")) !== true; i++) await Bun.sleep(25);
  const click = () => evaluate("document.getElementById('a').click()");
  const completed = async (n: number) => {
    const until = Date.now() + 20_000;
    while (Date.now() < until && downloads.state(false).completed.length < n) await Bun.sleep(25);
    return downloads.state(false);
  };
  return { downloads, click, completed };
}

test("a download lands in a private directory under its server name, is handed over once, and goes with close", async () => {
  const { downloads, click, completed } = await downloading();
  await click();
  const state = await completed(1);
  expect(state.inProgress).toBe(0);
  const [path] = state.completed;
  expect(basename(path!)).toBe("report.csv");
  expect(readFileSync(path!, "utf8")).toBe("a,b\n1,2\n");
  expect(downloads.state(true).completed).toEqual([path!]);
  expect(downloads.state(false).completed).toEqual([]);
  downloads.close();
  expect(existsSync(dirname(dirname(path!)))).toBe(false);
}, 60_000);

test("in the flow's downloads_dir the file keeps its name there, a repeat gets a folder of its own, and the directory stays", async () => {
  const { downloads, click, completed } = await downloading(own);
  await click();
  await completed(1);
  await click();
  const state = await completed(2);
  expect(state.completed.map((p) => p.slice(own.length + 1)).sort()).toEqual(["2/report.csv", "report.csv"]);
  downloads.close();
  expect(existsSync(join(own, "report.csv"))).toBe(true);
}, 60_000);
