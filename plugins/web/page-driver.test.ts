// The skeleton both web drivers share, run in both engines over one page: the same step gives the
// same verdict whichever protocol carries it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Selector } from "../../src/plugins/api.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { startFirefox, type FirefoxBed } from "../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { FirefoxDriver } from "./bidi/driver.ts";
import { Connection } from "./cdp/connection.ts";
import { WebDriver } from "./driver.ts";
import { launchBrowser, type LaunchedBrowser } from "./launch.ts";

const PAGE = `<!doctype html><title>Shelf</title>
<button id="save">Save</button> <button id="ask">Ask</button>
<label><input type="checkbox" id="agree"> Agree</label>
<p id="out">none</p>
<div style="height:3000px"></div><p id="end">End</p>
<script>
const out = document.getElementById("out");
document.getElementById("save").onclick = () => (out.textContent = "saved");
document.getElementById("ask").onclick = () => (out.textContent = confirm("Sure?") ? "sure" : "not sure");
</script>`;

/** A web component whose popup (in its shadow root) keeps growing in; the option in it is slotted from the light DOM. */
const GROWING = `<!doctype html><title>Growing</title><grow-popup><button id="opt">Free</button></grow-popup>
<script>
customElements.define("grow-popup", class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = '<div part="popup"><slot></slot></div>';
    root.querySelector("div").animate([{ transform: "scale(0.8)" }, { transform: "scale(1)" }], { duration: 60000 });
  }
});
</script>`;

/**
 * Fields whose page moves the focus while they are typed into: the editor gives it to a button
 * once, after its third character (as a dialog closing gives the focus back to its opener); each
 * box of the code passes it on to the next one (the page's own design); a dialog fades out for
 * 400 ms once answered, then gives the focus back to its opener.
 */
const FOCUS = `<!doctype html><title>Focus</title><button id="opener">Delete project</button>
<div id="dialog"><button id="yes">Yes, delete</button></div><textarea id="note"></textarea>
<div id="editor" contenteditable="true"></div>
<input id="d1" maxlength="1"><input id="d2" maxlength="1"><input id="d3" maxlength="1">
<script>
let stolen = false;
document.getElementById("editor").addEventListener("input", (e) => {
  if (!stolen && e.target.textContent.length >= 3) { stolen = true; document.getElementById("opener").focus(); }
});
document.getElementById("yes").addEventListener("click", () => {
  const dialog = document.getElementById("dialog");
  dialog.animate([{ opacity: 1 }, { opacity: 0 }], 400).finished.then(() => {
    dialog.hidden = true;
    document.getElementById("opener").focus();
  });
});
for (const [from, to] of [["d1", "d2"], ["d2", "d3"]])
  document.getElementById(from).addEventListener("input", () => document.getElementById(to).focus());
</script>`;

const id = (i: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id: i } }];

let server: TestServer;
let chromium: LaunchedBrowser;
let connection: Connection;
let firefox: FirefoxBed;
beforeAll(async () => {
  server = await startServer();
  server.setRoute("/shelf.html", () => new Response(PAGE, { headers: { "content-type": "text/html" } }));
  server.setRoute("/focus.html", () => new Response(FOCUS, { headers: { "content-type": "text/html" } }));
  server.setRoute("/growing.html", () => new Response(GROWING, { headers: { "content-type": "text/html" } }));
  chromium = await launchBrowser(requireChromium());
  connection = await Connection.connect(chromium.wsUrl);
  firefox = await startFirefox();
});
afterAll(async () => {
  await connection?.close().catch(() => undefined);
  await chromium?.close();
  await firefox?.close();
  server?.stop();
});

const engines: Record<string, () => Promise<WebDriver | FirefoxDriver>> = {
  chromium: () => WebDriver.open(connection),
  firefox: () => FirefoxDriver.open(firefox.connection, {}, { engine: "firefox" }, async () => undefined),
};

for (const [engine, open] of Object.entries(engines)) {
  describe(engine, () => {
    /** A fresh driver showing the shelf page. */
    async function shelf(): Promise<WebDriver | FirefoxDriver> {
      const driver = await open();
      const opened = await driver.navigate(`${server.url}/shelf.html`, 10_000);
      if (!opened.ok) throw new Error(`the page did not open: ${opened.detail}`);
      return driver;
    }

    test("reads, counts, checks, points at and scrolls through the page script", async () => {
      const driver = await shelf();
      expect(await driver.readText(id("out"))).toEqual({ ok: true, value: "none", tier: "native_id" });
      expect(await driver.count(id("save"))).toBe(1);
      expect(await driver.count(id("missing"))).toBe(0);
      expect(await driver.check(id("out"), { kind: "text_contains", text: "none" })).toMatchObject({ pass: true });
      expect(await driver.check([], { kind: "title", op: "equals", value: "Shelf" })).toMatchObject({ pass: true });
      expect(await driver.pointFor(id("save"))).toEqual({ x: expect.any(Number), y: expect.any(Number) });
      expect(await driver.pointFor(id("missing"))).toBeUndefined();
      expect(await driver.scroll(id("end"), { into_view: true })).toMatchObject({ ok: true });
      expect(await driver.scroll(id("missing"), { into_view: true })).toMatchObject({ ok: false, failed: "not-found", retryable: true });
      expect((await driver.scene()).title).toBe("Shelf");
      expect(driver.downloads(false)).toEqual({ completed: [], inProgress: 0, canceled: [] });
      await driver.close();
    }, 60_000);

    test("an option slotted into a popup that is still growing in its shadow root waits: it is still moving", async () => {
      const driver = await open();
      try {
        expect((await driver.navigate(`${server.url}/growing.html`, 10_000)).ok).toBe(true);
        expect(await driver.click(id("opt"), { button: "left", clickCount: 1 })).toMatchObject({ ok: false, failed: "stable", retryable: true });
      } finally {
        await driver.close();
      }
    }, 60_000);

    test("keys typed after the page took the focus away fail the attempt, and the next one types the field anew; focus a page passes on to another field is kept; typing waits while the focus is in a dialog fading out", async () => {
      const driver = await open();
      try {
        expect((await driver.navigate(`${server.url}/focus.html`, 10_000)).ok).toBe(true);
        expect(await driver.fill(id("editor"), "hello world")).toMatchObject({
          ok: false,
          failed: "editable",
          retryable: true,
          // (page text comes marked for the engine to quote)
          detail: expect.stringMatching(
            /^<div#editor> lost the keyboard focus to <button#opener> ".Delete project." while the text was typed \(it holds 3 of 11 characters\)$/,
          ),
        });
        expect(await driver.fill(id("editor"), "hello world")).toMatchObject({ ok: true });
        expect(await driver.readText(id("editor"))).toMatchObject({ ok: true, value: "hello world" });
        expect(await driver.fill(id("d1"), "429")).toMatchObject({ ok: true });
        expect(await driver.readText(id("d3"))).toMatchObject({ ok: true, value: "9" });
        // Typing waits while the focus is in a dialog still fading out.
        expect(await driver.click(id("yes"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
        expect(await driver.fill(id("note"), "kept")).toMatchObject({
          ok: false,
          failed: "stable",
          retryable: true,
          detail: "the keyboard focus is still in <div#dialog>, which is animating (the page may move the focus when it ends)",
        });
        await Bun.sleep(600);
        expect(await driver.fill(id("note"), "kept")).toMatchObject({ ok: true });
        expect(await driver.readText(id("note"))).toMatchObject({ ok: true, value: "kept" });
      } finally {
        await driver.close();
      }
    }, 60_000);

    test("clicks and checks boxes with trusted input; an unknown key is refused for good", async () => {
      const driver = await shelf();
      expect(await driver.click(id("save"), { button: "left", clickCount: 1 })).toEqual({ ok: true, value: undefined, tier: "native_id" });
      expect(await driver.readText(id("out"))).toMatchObject({ ok: true, value: "saved" });
      expect(await driver.setChecked(id("agree"), true)).toMatchObject({ ok: true });
      expect(await driver.check(id("agree"), { kind: "checked", checked: true })).toMatchObject({ pass: true });
      expect(await driver.setChecked(id("out"), true)).toMatchObject({ ok: false, failed: "unsupported", retryable: false });
      expect(await driver.pressKey("NoSuchKey", [])).toMatchObject({ ok: false, failed: "unsupported", retryable: false });
      await driver.close();
    }, 60_000);

    test("an undeclared dialog is dismissed and fails the step that opened it; a declared one is answered and reported", async () => {
      const driver = await shelf();
      driver.armDialog(undefined);
      expect(await driver.click(id("ask"), { button: "left", clickCount: 1 })).toEqual({
        ok: false,
        failed: "dialog",
        detail: "an unexpected dialog opened: confirm: Sure?",
        retryable: false,
      });
      expect(await driver.readText(id("out"))).toMatchObject({ ok: true, value: "not sure" });
      driver.armDialog({ disposition: "accept", message: "Sure" });
      expect(await driver.click(id("ask"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
      expect(driver.dialogOutcome()).toEqual({ opened: true, type: "confirm", message: "Sure?" });
      expect(await driver.readText(id("out"))).toMatchObject({ ok: true, value: "sure" });
      await driver.close();
    }, 60_000);
  });
}
