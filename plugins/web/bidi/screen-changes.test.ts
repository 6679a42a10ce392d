import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { preloadOf } from "./page-start.ts";
import { FirefoxScreenChanges, SCREEN_CHANGES_SCRIPT, SCREEN_EVENTS } from "./screen-changes.ts";

let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(() => bed?.close());

test("changed on the first look, unchanged while nothing happens, changed after input or a navigation", async () => {
  const page = await bed.page(SCREEN_EVENTS);
  await bed.connection.send("script.addPreloadScript", { functionDeclaration: preloadOf(SCREEN_CHANGES_SCRIPT), contexts: [page.context] });
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: "data:text/html,<input id=i><p>still</p>", wait: "complete" });
  const changes = new FirefoxScreenChanges();
  const offs = changes.listen(bed.connection, page.context);
  let loading = false;
  expect(await changes.changed(page, () => loading)).toBe(true);
  // Nothing happened since: the previous frame can be reused (asked until the page settles).
  let quiet = false;
  for (let i = 0; i < 20 && !quiet; i++) quiet = !(await changes.changed(page, () => loading));
  expect(quiet).toBe(true);
  await page.evaluate("document.getElementById('i').dispatchEvent(new Event('input'))");
  expect(await changes.changed(page, () => loading)).toBe(true);
  for (let i = 0; i < 20 && !(quiet = !(await changes.changed(page, () => loading))); i++);
  loading = true;
  expect(await changes.changed(page, () => loading)).toBe(true);
  loading = false;
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: "data:text/html,<p>next</p>", wait: "complete" });
  expect(await changes.changed(page, () => loading)).toBe(true);
  offs.forEach((o) => o());
}, 60_000);
