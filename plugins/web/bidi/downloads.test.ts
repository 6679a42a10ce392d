import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { createFirefoxDownloads, DOWNLOAD_EVENTS } from "./downloads.ts";

let bed: FirefoxBed;
let server: TestServer;
const own = mkdtempSync(join(tmpdir(), "flowproof-fxdl-test-"));
beforeAll(async () => {
  bed = await startFirefox();
  server = await startServer();
  server.setRoute("/page.html", () => new Response('<a id="a" href="/report">Report</a>', { headers: { "content-type": "text/html" } }));
  server.setRoute(
    "/report",
    () => new Response("a,b\n1,2\n", { headers: { "content-type": "text/csv", "content-disposition": "attachment; filename=report.csv" } }),
  );
});
afterAll(async () => {
  await bed?.close();
  server?.stop();
  rmSync(own, { recursive: true, force: true });
});

async function downloading(dir?: string) {
  const { userContext } = await bed.connection.send<{ userContext: string }>("browser.createUserContext", {});
  const { context } = await bed.connection.send<{ context: string }>("browsingContext.create", { type: "tab", userContext });
  await bed.connection.send("session.subscribe", { events: DOWNLOAD_EVENTS, contexts: [context] });
  const downloads = await createFirefoxDownloads(bed.connection, userContext, context, dir);
  await bed.connection.send("browsingContext.navigate", { context, url: `${server.url}/page.html`, wait: "complete" });
  const click = () => bed.connection.send("script.evaluate", { expression: "document.getElementById('a').click()", target: { context }, awaitPromise: false });
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
