// The Firefox driver's own members; the grammar's cases run in firefox.conformance.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { CAPABILITIES } from "../driver.ts";
import { FIREFOX_CAPABILITIES, FirefoxDriver } from "./driver.ts";

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
