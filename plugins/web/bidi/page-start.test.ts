import { afterAll, beforeAll, expect, test } from "bun:test";
import { AdapterUnavailableError } from "../../../src/plugins/api.ts";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { BidiPage } from "./page.ts";
import { preloadOf, startFirefoxPage } from "./page-start.ts";

let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(() => bed?.close());

async function userPage(): Promise<{ page: BidiPage; userContext: string }> {
  const { userContext } = await bed.connection.send<{ userContext: string }>("browser.createUserContext", {});
  const { context } = await bed.connection.send<{ context: string }>("browsingContext.create", { type: "tab", userContext });
  return { page: new BidiPage(bed.connection, context), userContext };
}

test("a preload script runs its source as the body of a function", () => {
  expect(new Function(`return (${preloadOf("globalThis.__x = 1;")})`)().toString()).toContain("globalThis.__x = 1;");
});

test("every document gets the page API and the pinned clock; the viewport and time zone are the flow's", async () => {
  const { page, userContext } = await userPage();
  await startFirefoxPage(page, userContext, { viewport: { width: 640, height: 480 }, clock: { at: "2026-01-15T12:00:00Z", timezone: "Asia/Tokyo" } });
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: "data:text/html,<p>x</p>", wait: "complete" });
  expect(
    await page.evaluate(
      "({ api: typeof globalThis.__flowproof, now: new Date().toISOString().slice(0, 13), tz: Intl.DateTimeFormat().resolvedOptions().timeZone, size: [innerWidth, innerHeight] })",
    ),
  ).toEqual({ api: "object", now: "2026-01-15T12", tz: "Asia/Tokyo", size: [640, 480] });
}, 60_000);

test("another user context keeps its own shaping", async () => {
  const { page, userContext } = await userPage();
  await startFirefoxPage(page, userContext, {});
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: "data:text/html,<p>y</p>", wait: "complete" });
  const read = await page.evaluate<{ year: number; size: number[] }>("({ year: new Date().getFullYear(), size: [innerWidth, innerHeight] })");
  expect(read).toEqual({ year: new Date().getFullYear(), size: [1280, 800] });
}, 60_000);

test("a shaping Firefox cannot apply is an error naming the key, not a silent skip", async () => {
  const { page, userContext } = await userPage();
  const error = await startFirefoxPage(page, userContext, { clock: { at: "2026-01-15T12:00:00Z", timezone: "Not/AZone" } }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AdapterUnavailableError);
  expect((error as Error).message).toContain("clock.timezone");
}, 60_000);
