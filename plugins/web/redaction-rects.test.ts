import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rectsExpression } from "./redaction-rects.ts";
import type { AdapterSession, AppDriver, Rect } from "../../src/plugins/api.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { plugin } from "./index.ts";

describe("rectsExpression", () => {
  test("is one self-contained call carrying the selectors as JSON; the page's password fields are its password inputs, whatever the case of their type", () => {
    const expr = rectsExpression([{ passwordFields: true }, { css: '#a"b' }]);
    expect(expr.startsWith("(function locate(") || expr.startsWith("(locate(") || expr.startsWith("(function")).toBe(true);
    expect(expr.endsWith(`)(${JSON.stringify(["input[type=password i]", '#a"b'])}, "__flowproofSecretFields")`)).toBe(true);
  });

  test("answers every selector in a document, and an invalid one as unresolved", () => {
    // Evaluate against a tiny DOM stand-in: one document, no frames.
    const el = { getClientRects: () => [{ left: 1, top: 2, width: 3, height: 4 }] };
    const doc = {
      querySelectorAll: (css: string) => {
        if (css === "[[") throw new Error("not a valid selector");
        return css === "iframe, frame" ? [] : [el];
      },
    };
    const run = new Function("window", "document", "getComputedStyle", `return ${rectsExpression([{ css: "#a" }, { css: "[[" }])};`);
    expect(run({ devicePixelRatio: 2 }, doc, () => ({}))).toEqual([
      { ok: true, rects: [{ x: 2, y: 4, width: 6, height: 8 }] },
      { ok: false, detail: "not a valid selector" },
    ]);
  });

  test("locates a text target at the innermost elements holding the text", () => {
    const leaf = { tagName: "SPAN", textContent: "Last  synced", children: [], getClientRects: () => [{ left: 5, top: 6, width: 7, height: 8 }] };
    const parent = { tagName: "DIV", textContent: "Last  synced now", children: [leaf], getClientRects: () => [{ left: 0, top: 0, width: 100, height: 100 }] };
    const doc = { body: { querySelectorAll: () => [parent, leaf] }, querySelectorAll: () => [] };
    const run = new Function("window", "document", "getComputedStyle", `return ${rectsExpression([{ text: "Last synced" }])};`);
    expect(run({ devicePixelRatio: 1 }, doc, () => ({}))).toEqual([{ ok: true, rects: [{ x: 5, y: 6, width: 7, height: 8 }] }]);
  });

  test("locates the fields a secret was typed into while they hold a value, and forgets them once cleared or gone", () => {
    class Field {
      constructor(
        public value: string,
        public isConnected: boolean,
        public ownerDocument: unknown,
      ) {}
      textContent = "";
      getClientRects = () => [{ left: 1, top: 2, width: 30, height: 10 }];
    }
    const doc: Record<string, unknown> = { querySelectorAll: () => [] };
    const typed = new Field("s3cret", true, doc);
    const cleared = new Field("", true, doc);
    const gone = new Field("s3cret", false, doc);
    const held = new Set<unknown>([typed, cleared, gone]);
    doc["defaultView"] = { __flowproofSecretFields: held };
    const run = new Function(
      "window",
      "document",
      "getComputedStyle",
      "HTMLInputElement",
      "HTMLTextAreaElement",
      `return ${rectsExpression([{ secretFields: true }])};`,
    );
    expect(run({ devicePixelRatio: 1 }, doc, () => ({}), Field, Field)).toEqual([{ ok: true, rects: [{ x: 1, y: 2, width: 30, height: 10 }] }]);
    expect([...held]).toEqual([typed]);
  });
});

describe("where a page shows a secret, through a real page", () => {
  // Each case sits in its own 40 px row (row n at y = 40n), so a rect's row says which case it masks.
  const ROWS = [
    `<p>Echo: <b>pa</b>ss-WORD9 end</p>`,
    `<p><a href="/x?q=pass-word9">a link whose address holds it</a></p>`,
    `<p><input placeholder="Pass-Word9"></p>`,
    `<p><span style="position:absolute;left:300px">word9</span><span>pass-</span></p>`,
    `<p><span class="shown" data-v="pass-word9"></span></p>`,
    `<p><span data-v="pass-word9">an attribute no style shows</span></p>`,
    `<p style="display:none">pass-word9</p>`,
  ];
  const PAGE =
    `<!doctype html><style>body{margin:0;font:16px sans-serif} p{position:absolute;left:0;margin:0;height:40px} .shown::after{content:attr(data-v)}</style>` +
    ROWS.map((r, i) => r.replace("<p", `<p style="top:${i * 40}px"`).replace('<p style="top:' + i * 40 + 'px" style="', `<p style="top:${i * 40}px;`)).join("");
  let server: TestServer;
  let session: AdapterSession;
  let driver: AppDriver;
  beforeAll(async () => {
    requireChromium();
    server = await startServer();
    server.setRoute("/secrets.html", () => new Response(PAGE, { headers: { "content-type": "text/html" } }));
    session = await plugin.open();
    driver = await session.launch({}, { baseDir: process.cwd(), log: () => undefined });
    expect((await driver.navigate(`${server.url}/secrets.html`, 10_000)).ok).toBe(true);
  });
  afterAll(async () => {
    await driver.close();
    await session.close();
    server.stop();
  });

  test("masks split, capitalised, placeholder, out-of-order and attr() shown text; not an address, an unshown attribute or hidden text", async () => {
    const [answer] = await driver.rectsFor!([{ secretText: ["Pass-word9"] }]);
    if (!answer!.ok) throw new Error(answer!.detail);
    const rows = (rects: readonly Rect[]) => [...new Set(rects.map((r) => Math.floor((r.y + r.height / 2) / 40)))].sort();
    expect(rows(answer!.rects)).toEqual([0, 2, 3, 4]);
    // The split secret is masked from "pa" to "9", not the "Echo:" before it nor " end" after it.
    const inRow = (n: number) => answer!.rects.filter((r) => Math.floor((r.y + r.height / 2) / 40) === n);
    const echo = inRow(0);
    const left = Math.min(...echo.map((r) => r.x));
    const right = Math.max(...echo.map((r) => r.x + r.width));
    expect(left).toBeGreaterThan(30);
    expect(right - left).toBeLessThan(120);
    // Both pieces of the secret the page laid out out of order.
    expect(inRow(3).some((r) => r.x >= 290)).toBe(true);
    expect(inRow(3).some((r) => r.x < 60)).toBe(true);
  });
});
