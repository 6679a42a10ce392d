import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { BidiDialogs } from "./dialogs.ts";

let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(() => bed?.close());

async function withDialogs() {
  const page = await bed.page(["browsingContext.userPromptOpened"]);
  const dialogs = new BidiDialogs();
  const faults: string[] = [];
  const offs = dialogs.listen(bed.connection, page.context, (m) => faults.push(m));
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: "data:text/html,<p>dialogs</p>", wait: "complete" });
  return { page, dialogs, faults, off: () => offs.forEach((o) => o()) };
}

test("answers the declared prompt as planned, with its reply, and reports it", async () => {
  const { page, dialogs, off } = await withDialogs();
  dialogs.arm({ disposition: "accept", message: "Your name", reply: "Ada" });
  expect(await page.evaluate("prompt('Your name?')")).toBe("Ada");
  expect(dialogs.outcome()).toEqual({ opened: true, type: "prompt", message: "Your name?" });
  expect(dialogs.takeUnexpected()).toBeUndefined();
  off();
}, 60_000);

test("dismisses an undeclared dialog, and names it once", async () => {
  const { page, dialogs, off } = await withDialogs();
  expect(await page.evaluate("confirm('Delete everything?')")).toBe(false);
  expect(dialogs.outcome()).toEqual({ opened: false });
  expect(dialogs.takeUnexpected()).toBe("confirm: Delete everything?");
  expect(dialogs.takeUnexpected()).toBeUndefined();
  off();
}, 60_000);

test("a page that opens dialogs without end is stopped and named", async () => {
  const { page, faults, off } = await withDialogs();
  // Firefox's loop goes on while its dialogs are dismissed: the fault is awaited, not the loop.
  const loop = page.evaluate("(() => { for (let i = 0; i < 120; i++) alert('again ' + (i % 2)); return 0; })()").catch(() => undefined);
  const deadline = Date.now() + 40_000;
  while (faults.length === 0 && Date.now() < deadline) await Bun.sleep(50);
  expect(faults[0]).toContain("the page opens dialogs without end: 20 within 5 s");
  off();
  await bed.connection.send("browsingContext.close", { context: page.context }).catch(() => undefined);
  await loop;
}, 60_000);
