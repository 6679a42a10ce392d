import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ConsoleLog, remoteText, serializeDom, type DomNode } from "./debug.ts";
import type { Session } from "./cdp/connection.ts";
import { EVIDENCE_CSP, type AdapterSession, type AppDriver } from "../../src/plugins/api.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { plugin } from "./index.ts";

/** A session whose events the test fires by hand. */
function fakeSession() {
  const listeners = new Map<string, (p: unknown) => void>();
  const session = {
    on: (event: string, fn: (p: unknown) => void) => {
      listeners.set(event, fn);
      return () => listeners.delete(event);
    },
  } as unknown as Session;
  return { session, fire: (event: string, p: unknown) => listeners.get(event)?.(p), listeners };
}

describe("ConsoleLog", () => {
  test("keeps console calls, uncaught errors and log entries in order, and stops when told", () => {
    const { session, fire, listeners } = fakeSession();
    const log = new ConsoleLog();
    const stop = log.listen(session);
    fire("Runtime.consoleAPICalled", {
      type: "error",
      args: [
        { type: "string", value: "boom" },
        { type: "number", value: 42 },
      ],
    });
    fire("Runtime.exceptionThrown", { exceptionDetails: { text: "Uncaught", exception: { type: "object", description: "Error: late" } } });
    fire("Log.entryAdded", { entry: { source: "network", level: "error", text: "Failed to load resource", url: "http://x/a.js" } });
    expect(log.lines.map((l) => l.replace(/^\[\+\d+\.\d{3}s\] /, ""))).toEqual([
      "console.error: boom 42",
      "uncaught: Error: late",
      "network.error: Failed to load resource (http://x/a.js)",
    ]);
    expect(log.errors).toEqual(["Error: late"]);
    stop();
    expect(listeners.size).toBe(0);
  });

  test("keeps only the newest 500 lines", () => {
    const { session, fire } = fakeSession();
    const log = new ConsoleLog();
    log.listen(session);
    for (let i = 0; i < 510; i++) fire("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: `line ${i}` }] });
    expect(log.lines.length).toBe(500);
    expect(log.lines[0]).toContain("line 10");
  });
});

describe("remoteText", () => {
  test("shows objects and arrays by their preview, like the DevTools console", () => {
    expect(remoteText({ type: "object", preview: { type: "object", overflow: false, properties: [{ name: "a", type: "number", value: "1" }] } } as never)).toBe(
      "{a: 1}",
    );
    expect(
      remoteText({
        type: "object",
        subtype: "array",
        preview: { type: "object", subtype: "array", overflow: true, properties: [{ name: "0", type: "number", value: "1" }] },
      } as never),
    ).toBe("[1, …]");
    expect(remoteText({ type: "undefined" } as never)).toBe("undefined");
    expect(remoteText({ type: "object", subtype: "error", description: "Error: x" } as never)).toBe("Error: x");
  });
});

describe("serializeDom", () => {
  const SECRET = `Zq7Can&ry+S3c/"<x>"=`;
  const hide = (t: string) => t.split(SECRET).join("${S}");

  const CSP = `<meta http-equiv="Content-Security-Policy" content="${EVIDENCE_CSP}">`;

  test("redacts text, attribute values, comments and raw text before escaping them", () => {
    const root: DomNode = [
      "html",
      [["lang", "en"]],
      [
        [
          "head",
          [],
          [
            ["title", [], [`Hi ${SECRET}`]],
            ["style", [], [`p::after { content: "${SECRET}"; } a > b {}`]],
          ],
        ],
        [
          "body",
          [["data-x", `q=${SECRET}`]],
          [{ comment: ` ${SECRET} ` }, ["p", [], [`a & b < c ${SECRET}`]], ["br", [], []], ["input", [["value", `${SECRET}`]], []]],
        ],
      ],
    ];
    const html = serializeDom("html", root, hide);
    expect(html).toBe(
      `<!DOCTYPE html>\n<html lang="en"><head>${CSP}<title>Hi \${S}</title><style>p::after { content: "\${S}"; } a > b {}</style></head>` +
        '<body data-x="q=${S}"><!-- ${S} --><p>a &amp; b &lt; c ${S}</p><br><input value="${S}"></body></html>',
    );
  });

  test("escapes what the page holds so the file stays well formed", () => {
    const html = serializeDom(
      null,
      ["div", [["title", 'say "hi" & <go>']], ["x\u00a0<y>", ["svg", [["viewBox", "0 0 1 1"]], [["foreignObject", [], []]]]]],
      (t) => t,
    );
    expect(html).toBe(
      `${CSP}<div title="say &quot;hi&quot; &amp; &lt;go&gt;">x&nbsp;&lt;y&gt;<svg viewBox="0 0 1 1"><foreignObject></foreignObject></svg></div>`,
    );
  });

  test("leaves out everything that could run, load or navigate, and puts the policy first in <head>", () => {
    const root: DomNode = [
      "html",
      [],
      [
        [
          "head",
          [],
          [
            [
              "meta",
              [
                ["http-equiv", "refresh"],
                ["content", "0;url=javascript:go()"],
              ],
              [],
            ],
            ["base", [["href", "http://evil.test/"]], []],
            ["script", [], ["go()"]],
          ],
        ],
        [
          "body",
          [["onload", "go()"]],
          [
            [
              "img",
              [
                ["src", "x"],
                ["onerror", "go()"],
                ["alt", "pic"],
              ],
              [],
            ],
            [
              "svg",
              [["onload", "go()"]],
              [
                [
                  "animate",
                  [
                    ["onbegin", "go()"],
                    ["attributeName", "href"],
                    ["to", "javascript:go()"],
                  ],
                  [],
                ],
                ["style", [], ["<img src=x onerror=go()>"]],
                ["a", [["xlink:href", " java\tscript:go()"]], ["x"]],
              ],
            ],
            [
              "iframe",
              [
                ["srcdoc", "<script>go()</script>"],
                ["src", "http://evil.test/"],
                ["title", "f"],
              ],
              [],
            ],
            ["object", [["data", "x.swf"]], [["embed", [["src", "x.swf"]], []]]],
            [
              "a",
              [
                ["href", "JavaScript:go()"],
                ["ping", "http://evil.test/"],
              ],
              ["a"],
            ],
            ["a", [["href", "data:text/html,<script>go()</script>"]], ["b"]],
            ["img", [["src", "data:image/png;base64,AAAA"]], []],
            ["form", [["action", "vbscript:go"]], [["button", [["formaction", "javascript:go()"]], ["c"]]]],
            { comment: "><img src=x onerror=go()>" },
            ["div", [['x"onclick', "go()"]], []],
          ],
        ],
      ],
    ];
    const html = serializeDom("html", root, (t) => t);
    expect(html).toBe(
      `<!DOCTYPE html>\n<html><head>${CSP}</head><body>` +
        '<img src="x" alt="pic"><svg><animate></animate><style>&lt;img src=x onerror=go()&gt;</style><a>x</a></svg>' +
        '<iframe title="f"></iframe><a ping="http://evil.test/">a</a><a>b</a><img src="data:image/png;base64,AAAA">' +
        "<form><button>c</button></form><!--\u203a\u2039img src=x onerror=go()\u203a--><div></div></body></html>",
    );
  });

  test("a document without a head gets one holding the policy", () => {
    expect(serializeDom(null, ["html", [], [["body", [], ["x"]]]], (t) => t)).toBe(`<html><head>${CSP}</head><body>x</body></html>`);
  });
});

describe("one definition of visible, through a real page", () => {
  // Each control is named by its text; `shown` is what dom.ts's isVisible says of it.
  const CASES: readonly { readonly name: string; readonly html: string; readonly shown: boolean }[] = [
    { name: "Plain", html: `<button>Plain</button>`, shown: true },
    { name: "Ghost", html: `<div style="visibility:hidden"><button>Ghost</button></div>`, shown: false },
    { name: "Contents", html: `<a href="#c" style="display:contents">Contents</a>`, shown: true },
    { name: "Zero", html: `<button style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero</button>`, shown: false },
    { name: "Folded", html: `<details><summary>More</summary><button>Folded</button></details>`, shown: false },
    { name: "Faint", html: `<button style="opacity:0">Faint</button>`, shown: true },
    { name: "Gone", html: `<button style="display:none">Gone</button>`, shown: false },
  ];
  let server: TestServer;
  let session: AdapterSession;
  let driver: AppDriver;
  beforeAll(async () => {
    requireChromium();
    server = await startServer();
    server.setRoute(
      "/visible.html",
      () =>
        new Response(`<!doctype html><title>Visible</title><body>${CASES.map((c) => `<p>${c.html}</p>`).join("")}</body>`, {
          headers: { "content-type": "text/html" },
        }),
    );
    session = await plugin.open();
    driver = await session.launch({}, { baseDir: process.cwd(), log: () => undefined });
    expect((await driver.navigate(`${server.url}/visible.html`, 10_000)).ok).toBe(true);
  });
  afterAll(async () => {
    await driver.close();
    await session.close();
    server.stop();
  });

  test("the resolver, the scene inventory and the debug snapshot agree on each tricky element", async () => {
    const scene = await driver.scene!();
    const snapshot = await driver.debugSnapshot!();
    const seen = await Promise.all(
      CASES.map(async (c) => ({
        name: c.name,
        resolver: (await driver.check([{ tier: "text_anchor", provenance: "rules", payload: { text: c.name } }], { kind: "visible", visible: true })).pass,
        scene: scene.entries.some((e) => e.text === c.name),
        debug: snapshot.anchors.includes(c.name),
      })),
    );
    expect(seen).toEqual(CASES.map((c) => ({ name: c.name, resolver: c.shown, scene: c.shown, debug: c.shown })));
  });
});
