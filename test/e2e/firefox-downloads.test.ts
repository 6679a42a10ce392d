// Downloads in Firefox (WebDriver BiDi) through the real engine, as in Chromium: an attachment
// opened in a new tab or fetched by a window.open popup, one a popup starts after it shows a page,
// and one a frame of the page starts are all captured; two at once fail the "exactly one" wait
// naming both files.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { record } from "../../src/commands/record.ts";
import { expectGreen } from "../support/e2e.ts";
import { requireFirefox } from "../support/firefox.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";

const FIREFOX = { FLOWPROOF_BROWSER: "firefox" };
let server: TestServer;
let project: TmpProject;

beforeAll(async () => {
  requireFirefox();
  server = await startServer();
  project = tmpProject();
  const csv = (name: string, body: string) => () =>
    new Response(body, { headers: { "content-type": "text/csv", "content-disposition": `attachment; filename="${name}"` } });
  for (const name of ["figures", "ledger", "report", "framed", "a", "b"]) server.setRoute(`/files/${name}.csv`, csv(`${name}.csv`, `${name},1\n`));
  const html = (body: string) => () => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  // A "preparing your download" page: the download starts once the page has shown.
  server.setRoute("/preparing.html", html(`<!doctype html><p>Preparing</p><script>setTimeout(() => { location.href = "/files/report.csv"; }, 300);</script>`));
  server.setRoute(
    "/more-downloads.html",
    html(`<!doctype html><title>More downloads</title>
<a href="/preparing.html" target="_blank">Get report</a>
<button id="frame">Export in frame</button><iframe id="worker" src="about:blank"></iframe>
<script>document.getElementById("frame").addEventListener("click", () => { document.getElementById("worker").src = "/files/framed.csv"; });</script>`),
  );
});
afterAll(() => {
  server?.stop();
  project?.remove();
});

let flows = 0;
const write = (page: string, steps: readonly string[]) =>
  project.write(`dl-${++flows}.flow.yaml`, flowYaml(`Downloads ${flows}`, `${server.url}/${page}`, steps));
const engineOf = (trace: string) => (JSON.parse(readFileSync(trace, "utf8").split("\n")[0]!) as { app: { engine?: string } }).app.engine;

describe("downloads in Firefox", () => {
  test("an attachment opened in a new tab and one fetched by a window.open popup are both captured", async () => {
    const trace = await expectGreen(
      write("attachments.html", [
        'rules: Click "Open figures.csv"',
        "rules: Wait until the download completes as figures within 10s",
        'rules: Click "Download ledger"',
        "rules: Wait until the download completes as ledger within 10s",
        "rules: Go to /greeter.html",
        'rules: Type ${captured.figures} ${captured.ledger} into the "Your name" field',
        'assert: the "Your name" field contains figures.csv',
        'assert: the "Your name" field contains ledger.csv',
      ]),
      { env: FIREFOX },
    );
    expect(engineOf(trace)).toBe("firefox");
  });

  test("a download a new tab starts after showing a page, and one a frame of the page starts, are captured", async () => {
    const trace = await expectGreen(
      write("more-downloads.html", [
        'rules: Click "Get report"',
        "rules: Wait until the download completes as report within 10s",
        'rules: Click "Export in frame"',
        "rules: Wait until the download completes as framed within 10s",
        "rules: Go to /greeter.html",
        'rules: Type ${captured.report} ${captured.framed} into the "Your name" field',
        'assert: the "Your name" field contains report.csv',
        'assert: the "Your name" field contains framed.csv',
      ]),
      { env: FIREFOX },
    );
    expect(engineOf(trace)).toBe("firefox");
  });

  test("two downloads one click starts fail the wait for exactly one, naming each file by its own name", async () => {
    const spec = write("download.html", ['rules: Click "Export both"', "rules: Wait until the download completes as both within 10s"]);
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: { ...process.env, ...FIREFOX } });
    expect(recorded.ok).toBe(false);
    const detail = recorded.step_results[1]?.detail ?? "";
    expect(detail).toContain("expected exactly one download, but 2 completed");
    const paths = detail.slice(detail.indexOf("completed: ") + "completed: ".length).split(", ");
    expect(paths.map((p) => basename(p)).sort()).toEqual(["a.csv", "b.csv"]);
  });
});
