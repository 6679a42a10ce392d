// The web surface's effect observation in real Chromium: what a click did, and nothing of a value.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { plugin } from "./index.ts";
import { WEB_EFFECT_KINDS } from "./effects.ts";
import type { AdapterSession, AppDriver, EffectReading, EffectWatch } from "../../src/plugins/api.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";

let server: TestServer;
let session: AdapterSession;
let driver: AppDriver;

const PAGE = `<!doctype html><title>t</title>
<div><button id="save">Save</button><p id="out"></p></div>
<p><input type="checkbox" id="c"><label for="c">Agree</label></p>
<label>Name <input id="name"></label>
<script>
document.getElementById("save").addEventListener("click", () => {
  document.getElementById("out").textContent = "saved";
  fetch("/api/items/42?secret=s3cr3t-value", { method: "PUT", body: "s3cr3t-value" });
});
</script>`;

/** A page whose own timer, 100 ms after load, keeps it busy for 1.5 s and then moves it to /busy/done. */
const BUSY_PAGE = `<!doctype html><title>busy</title><p>busy</p>
<script>
setTimeout(() => { const t = Date.now(); while (Date.now() - t < 1500); history.pushState({}, "", "/busy/done"); }, 100);
</script>`;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/effects.html", () => new Response(PAGE, { headers: { "content-type": "text/html" } }));
  server.setRoute("/api/items/42", () => new Response("{}"));
  server.setRoute("/busy.html", () => new Response(BUSY_PAGE, { headers: { "content-type": "text/html" } }));
  session = await plugin.open();
  driver = await session.launch({}, { baseDir: import.meta.dir, log: () => undefined });
});
afterAll(async () => {
  await driver.close();
  await session.close();
  server.stop();
});

/** Reads until the watch has been quiet for 100 ms. */
async function settled(watch: EffectWatch): Promise<EffectReading> {
  for (;;) {
    const r = await watch.read();
    if (r.idleMs >= 100) return r;
    await Bun.sleep(20);
  }
}

test("a click's request, DOM change near the target and focus; a checkbox's state; never a value or a query", async () => {
  expect((await driver.navigate(`${server.url}/effects.html`, 10_000)).ok).toBe(true);
  const save = [{ tier: "text_anchor" as const, provenance: "rules", payload: { text: "Save" } }];
  const watch = (await driver.observeEffect!(save))!;
  expect(watch.kinds).toEqual(WEB_EFFECT_KINDS);
  expect((await driver.click(save, { button: "left", clickCount: 1 })).ok).toBe(true);
  const r = await settled(watch);
  await watch.stop();
  expect(r.effect).toEqual({ requests: ["PUT /api/items/:id"], focus: true, dom: "near" });
  expect(JSON.stringify(r)).not.toContain("s3cr3t");

  const agree = [{ tier: "text_anchor" as const, provenance: "rules", payload: { text: "Agree" } }];
  const w2 = (await driver.observeEffect!(agree))!;
  expect((await driver.click(agree, { button: "left", clickCount: 1 })).ok).toBe(true);
  const r2 = await settled(w2);
  await w2.stop();
  expect(r2.effect.target).toEqual(["checked"]);

  const name = [{ tier: "native_id" as const, provenance: "rules", payload: { css: "#name" } }];
  const w3 = (await driver.observeEffect!(name))!;
  expect((await driver.fill(name, "Ada Lovelace")).ok).toBe(true);
  const r3 = await settled(w3);
  await w3.stop();
  expect(r3.effect.target).toEqual(["value"]);
  expect(JSON.stringify(r3)).not.toContain("Ada");
}, 60_000);

test("a key pressed the moment a watch begins is seen: the observer is in place before any input", async () => {
  expect((await driver.navigate(`${server.url}/effects.html`, 10_000)).ok).toBe(true);
  const name = [{ tier: "native_id" as const, provenance: "rules", payload: { css: "#name" } }];
  expect((await driver.fill(name, "")).ok).toBe(true);
  for (let i = 0; i < 5; i++) {
    // No page command between the watch and the key: only the input gate orders them.
    const w = (await driver.observeEffect!([]))!;
    expect((await driver.pressKey("x", [])).ok).toBe(true);
    const r = await settled(w);
    await w.stop();
    expect(r.effect.target).toEqual(["value"]);
  }
}, 60_000);

test("keys that reached another element first give way to the field they edit: the step's target is the field", async () => {
  expect((await driver.navigate(`${server.url}/effects.html`, 10_000)).ok).toBe(true);
  const save = [{ tier: "text_anchor" as const, provenance: "rules", payload: { text: "Save" } }];
  expect((await driver.click(save, { button: "left", clickCount: 1 })).ok).toBe(true);
  // One watch over a key the focused button took, then the field typed into (a typing step tried again).
  const w = (await driver.observeEffect!([]))!;
  expect((await driver.pressKey("x", [])).ok).toBe(true);
  const name = [{ tier: "native_id" as const, provenance: "rules", payload: { css: "#name" } }];
  expect((await driver.fill(name, "Ada")).ok).toBe(true);
  const r = await settled(w);
  await w.stop();
  expect(r.effect.target).toEqual(["value"]);
}, 60_000);

test("the page's own navigation made while the observer waited to be installed is not the step's", async () => {
  expect((await driver.navigate(`${server.url}/busy.html`, 10_000)).ok).toBe(true);
  // The page's timer is running now: the observer's install waits behind it, and the timer's
  // navigation comes before the install is answered (so before the step could have done anything).
  await Bun.sleep(400);
  const w = (await driver.observeEffect!([]))!;
  const r = await settled(w);
  await w.stop();
  expect(r.effect).not.toHaveProperty("navigated");
  // The step's own navigation, sent at once behind the same install, still counts.
  const w2 = (await driver.observeEffect!([]))!;
  expect((await driver.navigate(`${server.url}/effects.html`, 10_000)).ok).toBe(true);
  const r2 = await settled(w2);
  await w2.stop();
  expect(r2.effect.navigated).toBe("/effects.html");
}, 60_000);
