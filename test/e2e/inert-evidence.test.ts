// The failure evidence a page leaves behind cannot run the page's script: a page carrying an
// inline script, `onload`, `onerror`, an SVG `onbegin`, an `iframe srcdoc` and a plain image from
// the server makes a record fail; its debug/dom.html is then opened from disk (file://) in real
// Chromium, and the server counts no request from it and its title is never changed. The same
// page saved as it was is opened next as the control: every payload reaches the server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { plugin } from "../../plugins/web/index.ts";

const PAYLOADS = ["script", "onload", "onerror", "onbegin", "srcdoc", "image"] as const;

let server: TestServer;
let project: TmpProject;
const hits: string[] = [];
/** Called after each hit is counted. */
let counted: () => void = () => undefined;

function handlerPage(base: string): string {
  const hit = (tag: string) => `fetch('${base}/hit?${tag}',{mode:'no-cors'})`;
  return `<!doctype html>
<html><head><title>Handlers</title></head>
<body onload="${hit("onload")};if(location.protocol==='file:')document.title='PWNED'">
<h1>Handlers</h1>
<script>${hit("script")}</script>
<img src="${base}/missing.png" onerror="${hit("onerror")}" alt="">
<svg width="10" height="10"><rect width="10" height="10"><animate attributeName="x" from="0" to="1" dur="1s" onbegin="${hit("onbegin")}"/></rect></svg>
<iframe srcdoc="<script>${hit("srcdoc").replace(/'/g, "&#39;")}</script>"></iframe>
<img src="${base}/hit?image" alt="">
</body></html>`;
}

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
  server.setRoute("/handlers.html", () => new Response(handlerPage(server.url), { headers: { "content-type": "text/html; charset=utf-8" } }));
  server.setRoute("/hit", (req) => {
    hits.push(new URL(req.url).search.slice(1));
    counted();
    return new Response("", { headers: { "access-control-allow-origin": "*" } });
  });
});
afterAll(() => {
  server.stop();
  project.remove();
});

/** Resolves once the server has counted every payload `since` hits ago, or rejects after `ms`. */
async function allPayloadsSince(since: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (PAYLOADS.some((p) => !hits.slice(since).includes(p))) {
    if (Date.now() > deadline) throw new Error(`payloads that never ran: ${PAYLOADS.filter((p) => !hits.slice(since).includes(p)).join(", ")}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      counted = resolve;
      timer = setTimeout(resolve, deadline - Date.now());
    });
    clearTimeout(timer);
  }
}

describe("debug/dom.html of a page with active content", () => {
  test("runs nothing of the page's when opened in a browser", async () => {
    const spec = project.write(
      "handlers.flow.yaml",
      ["name: Handlers", "app: web", `url: ${server.url}/handlers.html`, "steps:", "  - assert: page shows Never shown", ""].join("\n"),
    );
    const rec = await runCli(["record", spec, "--json"], { cwd: project.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "1000" } });
    expect(rec.code).toBe(1);
    const out = JSON.parse(rec.stdout) as { failed_record_dir: string };
    const dom = join(project.dir, out.failed_record_dir, "debug", "dom.html");
    const html = readFileSync(dom, "utf8");
    expect(html).toContain("<h1>Handlers</h1>");
    const control = project.write("control.html", handlerPage(server.url));

    const session = await plugin.open();
    try {
      const driver = await session.launch({}, { baseDir: project.dir, log: () => undefined });
      try {
        const before = hits.length;
        expect((await driver.navigate(pathToFileURL(dom).href, 10_000)).ok).toBe(true);
        const title = (await driver.scene!()).title;
        // The control: the page as it was, from disk too. Once all of its payloads have reached the
        // server, any request dom.html had made would have been counted before them.
        const between = hits.length;
        expect((await driver.navigate(pathToFileURL(control).href, 10_000)).ok).toBe(true);
        await allPayloadsSince(between, 30_000);
        expect({ title, fromSnapshot: hits.slice(before, between) }).toEqual({ title: "Handlers", fromSnapshot: [] });
      } finally {
        await driver.close();
      }
    } finally {
      await session.close();
    }
  });
});
