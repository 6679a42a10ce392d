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
<div id="sheet"><button id="done">Done</button></div>
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
document.getElementById("done").addEventListener("click", () => {
  document.getElementById("sheet").hidden = true;
  document.activeElement.blur();
  setTimeout(() => document.getElementById("opener").focus(), 60);
});
for (const [from, to] of [["d1", "d2"], ["d2", "d3"]])
  document.getElementById(from).addEventListener("input", () => document.getElementById(to).focus());
</script>`;

/** A backdrop that covers the button as the pointer moves in to click it (after the probe found the button uncovered); a click on it closes the page's dialog. */
const COVERED = `<!doctype html><title>Covered</title><button id="ok">Yes, delete</button><p id="out">open</p>
<div id="veil" style="display:none;position:fixed;inset:0"></div>
<script>
const veil = document.getElementById("veil");
document.getElementById("ok").addEventListener("pointermove", () => (veil.style.display = "block"), { once: true });
veil.addEventListener("click", () => (document.getElementById("out").textContent = "closed by the backdrop"));
document.getElementById("ok").addEventListener("click", () => (document.getElementById("out").textContent = "deleted"));
</script>`;

/**
 * A panel restyled every 20 ms for 800 ms once "Open" is clicked (a dialog's motion phases); a
 * button that jumps away when pressed, so that its release lands beside it.
 */
const RESTYLED = `<!doctype html><title>Restyled</title><button id="open">Open</button>
<div id="panel"><button id="go">Go</button></div><p id="out">idle</p>
<div id="stage" style="height:200px"><button id="jumpy">Jumpy</button></div>
<script>
document.getElementById("open").addEventListener("click", () => {
  const started = performance.now();
  const restyle = () => (document.getElementById("panel").className = "phase-" + Math.round(performance.now() - started));
  restyle();
  const timer = setInterval(() => {
    restyle();
    if (performance.now() - started > 800) clearInterval(timer);
  }, 20);
});
document.getElementById("go").addEventListener("click", () => (document.getElementById("out").textContent = "went"));
const jumpy = document.getElementById("jumpy");
jumpy.addEventListener("pointerdown", () => (jumpy.style.transform = "translateX(300px)"));
jumpy.addEventListener("click", () => (document.getElementById("out").textContent = "jumped"));
</script>`;

/** A listbox that, once open, keeps sliding a pixel each frame (a popup a script keeps positioning). */
const SLIDING = `<!doctype html><title>Sliding</title><span id="l">Plan</span>
<button id="plan" role="combobox" aria-labelledby="l" aria-controls="lb" aria-expanded="false">Free</button>
<div id="lb" role="listbox" hidden style="position:absolute;top:60px;left:10px"><div role="option">Free</div><div role="option">Pro</div></div>
<script>
const plan = document.getElementById("plan"), lb = document.getElementById("lb");
plan.addEventListener("click", () => {
  lb.hidden = false;
  plan.setAttribute("aria-expanded", "true");
  let x = 10;
  const slide = () => { lb.style.left = ++x + "px"; if (!lb.hidden) requestAnimationFrame(slide); };
  requestAnimationFrame(slide);
});
for (const o of lb.children) o.addEventListener("click", () => { plan.textContent = o.textContent; lb.hidden = true; plan.setAttribute("aria-expanded", "false"); });
</script>`;

/**
 * Controls drawn over their own inputs (Element Plus's shapes): a select whose placeholder covers
 * its narrow read-only input, radios whose text is a span inside the label that wraps them, and a
 * switch whose wrapper cancels its hidden input's own toggle and keeps its state in aria-checked;
 * and a `<label for>` naming a `<span role="combobox">` (PrimeVue's), which HTML does not tie.
 */
const DRAWN = `<!doctype html><title>Drawn</title>
<label for="city">City</label>
<div id="citybox" style="position:relative;width:200px;height:30px;border:1px solid #888">
  <div><div><input id="city" role="combobox" readonly aria-controls="citylb" aria-expanded="false" style="width:11px;border:0"></div>
  <div id="ph" style="position:absolute;inset:0;padding:5px;background:#fff">Pick a city</div></div>
</div>
<ul id="citylb" role="listbox" hidden><li role="option">Paris</li><li role="option">Tokyo</li></ul>
<div role="radiogroup"><label><span><input type="radio" name="plan" value="a"></span><span>Basic</span></label>
<label><span><input type="radio" name="plan" value="b"></span><span>Pro</span></label></div>
<label for="sw">Notifications</label>
<div id="swbox"><input id="sw" type="checkbox" role="switch" aria-checked="true" checked style="opacity:0;position:absolute;width:0;height:0;margin:0"><span style="display:inline-block;width:40px;height:20px;background:#4a4"></span></div>
<label for="size">Size</label><span id="size" role="combobox" tabindex="0" aria-label="Pick a size" aria-controls="sizelb" aria-expanded="false">Pick a size</span>
<ul id="sizelb" role="listbox" hidden><li role="option">Small</li><li role="option">Large</li></ul>
<p id="out">notify=true</p>
<script>
const size = document.getElementById("size"), sizelb = document.getElementById("sizelb");
size.addEventListener("click", () => { sizelb.hidden = false; size.setAttribute("aria-expanded", "true"); });
for (const o of sizelb.children) o.addEventListener("click", () => { size.textContent = o.textContent; sizelb.hidden = true; size.setAttribute("aria-expanded", "false"); });
const input = document.getElementById("city"), lb = document.getElementById("citylb"), ph = document.getElementById("ph");
document.getElementById("citybox").addEventListener("click", () => { lb.hidden = !lb.hidden; input.setAttribute("aria-expanded", String(!lb.hidden)); });
for (const o of lb.children) o.addEventListener("click", () => { ph.textContent = o.textContent; lb.hidden = true; input.setAttribute("aria-expanded", "false"); });
const sw = document.getElementById("sw");
let on = true;
document.getElementById("swbox").addEventListener("click", (e) => {
  e.preventDefault();
  on = !on;
  sw.setAttribute("aria-checked", String(on));
  document.getElementById("out").textContent = "notify=" + on;
});
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
  server.setRoute("/covered.html", () => new Response(COVERED, { headers: { "content-type": "text/html" } }));
  server.setRoute("/restyled.html", () => new Response(RESTYLED, { headers: { "content-type": "text/html" } }));
  server.setRoute("/sliding.html", () => new Response(SLIDING, { headers: { "content-type": "text/html" } }));
  server.setRoute("/drawn.html", () => new Response(DRAWN, { headers: { "content-type": "text/html" } }));
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
        // …and while the focus, just left for nothing (a sheet hidden), may still be placed by the page.
        expect(await driver.click(id("done"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
        expect(await driver.fill(id("note"), "again")).toMatchObject({
          ok: false,
          failed: "stable",
          retryable: true,
          detail: expect.stringMatching(/^the keyboard focus left for nothing \d+ ms ago \(the page may be placing it\)$/),
        });
        await Bun.sleep(150);
        expect(await driver.fill(id("note"), "again")).toMatchObject({ ok: true });
        expect(await driver.readText(id("note"))).toMatchObject({ ok: true, value: "again" });
      } finally {
        await driver.close();
      }
    }, 60_000);

    test("a click whose point another element took between the probe and the press is kept from the page and fails the attempt", async () => {
      const driver = await open();
      try {
        expect((await driver.navigate(`${server.url}/covered.html`, 10_000)).ok).toBe(true);
        expect(await driver.click(id("ok"), { button: "left", clickCount: 1 })).toMatchObject({
          ok: false,
          failed: "receives-pointer",
          retryable: true,
          detail: expect.stringMatching(/^<button#ok> ".Yes, delete." did not receive the click: <div#veil> was on top when it landed$/),
        });
        expect(await driver.readText(id("out"))).toMatchObject({ ok: true, value: "open" });
        // The next attempt's probe sees the backdrop.
        expect(await driver.click(id("ok"), { button: "left", clickCount: 1 })).toMatchObject({ ok: false, failed: "receives-pointer" });
      } finally {
        await driver.close();
      }
    }, 60_000);

    test("a click waits while what holds its target is being restyled; a target that moves away while pressed does not take the click", async () => {
      const driver = await open();
      try {
        expect((await driver.navigate(`${server.url}/restyled.html`, 10_000)).ok).toBe(true);
        expect(await driver.click(id("open"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
        expect(await driver.click(id("go"), { button: "left", clickCount: 1 })).toMatchObject({
          ok: false,
          failed: "stable",
          retryable: true,
          detail: expect.stringMatching(/^<button#go> ".Go." may still be moving: the class or style of <div#panel>, which holds it, changed \d+ ms ago$/),
        });
        await Bun.sleep(1_000);
        expect(await driver.click(id("go"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
        expect(await driver.readText(id("out"))).toMatchObject({ ok: true, value: "went" });
        expect(await driver.click(id("jumpy"), { button: "left", clickCount: 1 })).toMatchObject({
          ok: false,
          failed: "receives-pointer",
          detail: expect.stringMatching(
            /^<button#jumpy> ".Jumpy." moved away from under the pointer while it was pressed: the click went to <div#stage> ".Jumpy."$/,
          ),
        });
        expect(await driver.readText(id("out"))).toMatchObject({ ok: true, value: "went" });
      } finally {
        await driver.close();
      }
    }, 60_000);

    test("Select clicks an option only once it stood still from one look to the next", async () => {
      const driver = await open();
      try {
        expect((await driver.navigate(`${server.url}/sliding.html`, 10_000)).ok).toBe(true);
        expect(await driver.select(id("plan"), ["Pro"])).toMatchObject({
          ok: false,
          failed: "stable",
          detail: expect.stringMatching(/^<div> ".Pro." has not stood still for a frame yet$/),
        });
        expect(await driver.readText(id("plan"))).toMatchObject({ ok: true, value: "Free" });
      } finally {
        await driver.close();
      }
    }, 60_000);

    test("controls drawn over their own inputs: a select opened through its placeholder, a radio named by the text beside it, a switch read by what it announces, a combobox a label's for names", async () => {
      const driver = await open();
      const text = (t: string, role?: string): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: role ? { text: t, role } : { text: t } }];
      try {
        expect((await driver.navigate(`${server.url}/drawn.html`, 10_000)).ok).toBe(true);
        // The placeholder drawn over the input is the select's own: clicking there opens it.
        expect(await driver.select(text("City", "dropdown"), ["Paris and Tokyo"])).toMatchObject({
          ok: false,
          detail: expect.stringContaining('to choose several, quote each one: "Paris" and "Tokyo"'),
        });
        await driver.pressKey("Escape", []);
        expect(await driver.select(text("City", "dropdown"), ["Tokyo"])).toMatchObject({ ok: true });
        expect(await driver.readText(text("City", "dropdown"))).toMatchObject({ ok: true, value: "Tokyo" });
        expect(await driver.click(id("city"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
        // The span beside the radio and the radio are one target.
        expect(await driver.candidates?.(text("Pro"))).toHaveLength(1);
        // The hidden input stays checked; the switch announces (and shows) off.
        expect(await driver.setChecked(text("Notifications", "checkbox"), false)).toMatchObject({ ok: true });
        expect(await driver.readText(id("out"))).toMatchObject({ ok: true, value: "notify=false" });
        expect(await driver.check(text("Notifications", "checkbox"), { kind: "checked", checked: false })).toMatchObject({ pass: true });
        // The label's `for` names the combobox though HTML does not let a label name a span.
        expect(await driver.select(text("Size", "dropdown"), ["Large"])).toMatchObject({ ok: true });
        expect(await driver.readText(text("Size", "dropdown"))).toMatchObject({ ok: true, value: "Large" });
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
