// The Firefox driver's own members; the grammar's cases run in firefox.conformance.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { CAPABILITIES } from "../driver.ts";
import type { Selector } from "../../../src/plugins/api.ts";
import { bidiTap } from "./connection.ts";
import { FIREFOX_CAPABILITIES, FirefoxDriver, NATIVE_DRAG_REFUSED } from "./driver.ts";

let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(() => bed?.close());

/** A PNG's size, from its header (IHDR). */
const decodePng = (png: Uint8Array) => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
};

const contexts = async () => (await bed.connection.send<{ contexts: unknown[] }>("browsingContext.getTree", {})).contexts.length;

test("declares what it drives: the Chromium driver's capabilities", () => {
  expect([...FIREFOX_CAPABILITIES].sort()).toEqual([...CAPABILITIES].sort());
});

test("frames are PNGs of the viewport, which a step can resize; a cookie check on a page without an origin says so; close removes the page's user context", async () => {
  const before = await contexts();
  let closed = false;
  const driver = await FirefoxDriver.open(bed.connection, { viewport: { width: 500, height: 400 } }, { engine: "firefox" }, async () => {
    closed = true;
  });
  expect(await contexts()).toBe(before + 1);
  expect((await driver.navigate("data:text/html,<title>Shot</title><p>frame</p>", 10_000)).ok).toBe(true);
  const frame = decodePng((await driver.captureFrame()).png);
  expect([frame.width, frame.height]).toEqual([500, 400]);
  expect(await driver.setViewport(320, 240)).toEqual({ ok: true, value: undefined });
  const smaller = decodePng((await driver.captureFrame()).png);
  expect([smaller.width, smaller.height]).toEqual([320, 240]);
  expect(await driver.environment()).toMatchObject({ resolution: [320, 240] });
  const cookie = await driver.check([], { kind: "cookie", name: "sid", fact: "exists" });
  expect(cookie).toEqual({ pass: false, actual: "the page (data:text/html,<title>Shot</title><p>frame</p>) has no cookies to check" });
  expect(driver.appInfo()).toEqual({ engine: "firefox" });
  await driver.close();
  expect(closed).toBe(true);
  expect(await contexts()).toBe(before);
}, 60_000);

test("closing removes the page's user context without first asking the page to stop or release its effect observers", async () => {
  const driver = await FirefoxDriver.open(bed.connection, {}, { engine: "firefox" }, async () => undefined);
  const calls: string[] = [];
  try {
    expect((await driver.navigate("data:text/html,<button id=go onclick=\"this.textContent='done'\">Go</button>", 10_000)).ok).toBe(true);
    for (let i = 0; i < 2; i++) {
      const watch = await driver.observeEffect(id("go"));
      expect((await driver.click(id("go"), { button: "left", clickCount: 1 })).ok).toBe(true);
      expect((await watch!.read()).effect.target).toBeUndefined();
      await watch!.stop();
    }
  } finally {
    bidiTap.onCall = (c) => calls.push(c.method);
    try {
      await driver.close();
    } finally {
      bidiTap.onCall = undefined;
    }
  }
  // The downloads subscription's release may go out beside it (not awaited); nothing goes to the page.
  expect(calls.filter((c) => c !== "session.unsubscribe")).toEqual(["browser.removeUserContext"]);
}, 60_000);

const id = (i: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id: i } }];
/** A native HTML5 drag source, a pointer-driven one (mousedown, mousemove, mouseup), a drop zone and a button. */
const DRAGS = `data:text/html,<div id="native" draggable="true" style="width:120px;height:40px;background:%23ccf">Native tile</div>
<div id="pointer" style="width:120px;height:40px;background:%23fcc;margin-top:10px">Pointer tile</div>
<div id="zone" style="width:240px;height:120px;background:%23cfc;margin-top:40px">Zone</div><button id="go">Go</button><p id="out">none</p>
<script>
const out = document.getElementById("out"), zone = document.getElementById("zone");
document.getElementById("native").addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", "native"));
zone.addEventListener("dragover", (e) => e.preventDefault());
zone.addEventListener("drop", (e) => { e.preventDefault(); out.textContent = "dropped " + e.dataTransfer.getData("text/plain"); });
let held = false;
document.getElementById("pointer").addEventListener("mousedown", () => (held = true));
document.addEventListener("mouseup", (e) => { if (held && zone.contains(document.elementFromPoint(e.clientX, e.clientY))) out.textContent = "dropped pointer"; held = false; });
document.getElementById("go").addEventListener("click", () => (out.textContent += " clicked"));
</script>`;

test("a hover target that jumps away whenever the pointer enters it is never hovered, wherever it is found next (as in Chromium)", async () => {
  const driver = await FirefoxDriver.open(bed.connection, {}, { engine: "firefox" }, async () => undefined);
  try {
    const page = readFileSync(join(import.meta.dir, "../../../test/fixtures/pages/hover-moves.html"), "utf8");
    expect((await driver.navigate(`data:text/html,${encodeURIComponent(page)}`, 10_000)).ok).toBe(true);
    // Each attempt finds the button where it is now and moves onto it; it jumps away every time.
    // (Right after a jump its new style is fresh, and a probe then waits for it: the test waits too.)
    const attempts = [];
    for (let i = 0; i < 3; i++) {
      attempts.push(await driver.hover(id("shy")));
      await Bun.sleep(100);
    }
    expect(attempts.map((a) => [a.ok, a.ok ? undefined : a.failed])).toEqual([
      [false, "receives-pointer"],
      [false, "receives-pointer"],
      [false, "receives-pointer"],
    ]);
  } finally {
    await driver.close();
  }
}, 60_000);

test("a hover after the viewport shrank away from where the pointer last was is still sent (its stir would be out of bounds)", async () => {
  const driver = await FirefoxDriver.open(bed.connection, { viewport: { width: 1200, height: 800 } }, { engine: "firefox" }, async () => undefined);
  try {
    const page = `data:text/html,<button id="far" style="position:absolute;left:1000px;top:600px">Far</button><div id="near" style="width:100px;height:40px">Near</div>`;
    expect((await driver.navigate(page, 10_000)).ok).toBe(true);
    expect((await driver.click(id("far"), { button: "left", clickCount: 1 })).ok).toBe(true);
    expect(await driver.setViewport(320, 240)).toEqual({ ok: true, value: undefined });
    // Answered with a verdict, not refused with "move target out of bounds".
    const moves: unknown[] = [];
    bidiTap.onCall = (c) => {
      if (c.method === "input.performActions") moves.push({ failed: c.failed });
    };
    try {
      expect(await driver.hover(id("near"))).toHaveProperty("ok");
    } finally {
      bidiTap.onCall = undefined;
    }
    expect(moves.at(-1)).toEqual({ failed: false });
  } finally {
    await driver.close();
  }
}, 60_000);

test("a leave prompt a click raises is dismissed and fails the click, though Firefox announces it after the click's round trip", async () => {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (r) =>
      new Response(
        new URL(r.url).pathname === "/away"
          ? "<p>away</p>"
          : `<label><input type="checkbox" id="guard"> Unsaved changes</label><a id="leave" href="/away">Leave</a>
<script>addEventListener("beforeunload", (e) => { if (document.getElementById("guard").checked) e.preventDefault(); });</script>`,
        { headers: { "content-type": "text/html" } },
      ),
  });
  const driver = await FirefoxDriver.open(bed.connection, {}, { engine: "firefox" }, async () => undefined);
  try {
    expect((await driver.navigate(`http://127.0.0.1:${server.port}/`, 10_000)).ok).toBe(true);
    expect((await driver.click(id("leave"), { button: "left", clickCount: 1 })).ok).toBe(true);
    expect(await driver.check([], { kind: "url", op: "contains", value: "/away" })).toMatchObject({ pass: true });
    expect((await driver.navigate(`http://127.0.0.1:${server.port}/`, 10_000)).ok).toBe(true);
    expect((await driver.setChecked(id("guard"), true)).ok).toBe(true);
    // As in a run: the click's effects are observed, so its round trip after input is their first reading.
    const watch = await driver.observeEffect(id("leave"));
    expect(await driver.click(id("leave"), { button: "left", clickCount: 1 })).toEqual({
      ok: false,
      failed: "dialog",
      detail: "an unexpected dialog opened: beforeunload",
      retryable: false,
    });
    await watch?.stop();
    expect(await driver.check([], { kind: "url", op: "contains", value: "/away" })).toMatchObject({ pass: false });
  } finally {
    await driver.close();
    server.stop(true);
  }
}, 60_000);

test("a native HTML5 drag is refused naming Firefox instead of dropping nothing; the page still takes input, and a pointer-driven drag drops", async () => {
  const driver = await FirefoxDriver.open(bed.connection, {}, { engine: "firefox" }, async () => undefined);
  try {
    expect((await driver.navigate(DRAGS, 10_000)).ok).toBe(true);
    expect(await driver.drag(id("native"), id("zone"))).toEqual({ ok: false, failed: "unsupported", detail: NATIVE_DRAG_REFUSED, retryable: false });
    expect(NATIVE_DRAG_REFUSED).toContain("Firefox");
    expect(await driver.drag(id("pointer"), id("zone"))).toMatchObject({ ok: true });
    expect((await driver.click(id("go"), { button: "left", clickCount: 1 })).ok).toBe(true);
    expect(await driver.check(id("out"), { kind: "text_contains", text: "dropped pointer clicked" })).toMatchObject({ pass: true });
  } finally {
    await driver.close();
  }
}, 60_000);
