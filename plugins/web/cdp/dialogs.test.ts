// The CDP side of dialogs: answers sent with Page.handleJavaScriptDialog, and a beforeunload that
// stays cancels its navigation. (An undeclared dialog failing its step is page-driver.test.ts's, in both engines.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openBarePage, type BarePage } from "../../../test/support/cdp-page.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { CdpDialogs } from "./dialogs.ts";

let bare: BarePage;
let server: TestServer;
beforeAll(async () => {
  bare = await openBarePage();
  await bare.session.send("Page.enable");
  server = await startServer();
  const html = (body: string) => () => new Response(body, { headers: { "content-type": "text/html" } });
  server.setRoute("/leave.html", html("<p>leave?</p><script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; })</script>"));
  server.setRoute("/away.html", html("<p>away</p>"));
});
afterAll(async () => {
  server?.stop();
  await bare?.browser.close();
});

/** Listens with a fresh CdpDialogs on the bare page; what it faulted and cancelled, and how to stop. */
function listening() {
  const dialogs = new CdpDialogs();
  const faults: string[] = [];
  let cancelled = 0;
  const offs = dialogs.listen(
    bare.session,
    (m) => faults.push(m),
    () => cancelled++,
  );
  return { dialogs, faults, cancelled: () => cancelled, off: () => offs.forEach((o) => o()) };
}

const evaluate = async (expression: string) => (await bare.session.send("Runtime.evaluate", { expression, returnByValue: true })).result.value;

test("answers the declared prompt as planned, with its reply, and reports it", async () => {
  const { dialogs, off } = listening();
  dialogs.arm({ disposition: "accept", message: "Your name", reply: "Ada" });
  expect(await evaluate("prompt('Your name?')")).toBe("Ada");
  expect(dialogs.outcome()).toEqual({ opened: true, type: "prompt", message: "Your name?" });
  expect(dialogs.takeUnexpected()).toBeUndefined();
  off();
}, 60_000);

test("an undeclared beforeunload is dismissed, which cancels the navigation that raised it", async () => {
  const { dialogs, cancelled, off } = listening();
  await bare.session.send("Page.navigate", { url: `${server.url}/leave.html` });
  for (let i = 0; i < 400 && (await evaluate("document.readyState")) !== "complete"; i++) await Bun.sleep(25);
  // A beforeunload asks only once the user has touched the page.
  await bare.session.send("Input.dispatchMouseEvent", { type: "mousePressed", x: 5, y: 5, button: "left", clickCount: 1 });
  await bare.session.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: 5, y: 5, button: "left", clickCount: 1 });
  await evaluate("location.href = '/away.html'");
  const until = Date.now() + 20_000;
  while (Date.now() < until && cancelled() === 0) await Bun.sleep(25);
  expect(cancelled()).toBe(1);
  expect(dialogs.takeUnexpected()).toBe("beforeunload");
  expect(await evaluate("document.querySelector('p').textContent")).toBe("leave?");
  off();
}, 60_000);

test("a page that opens dialogs without end is stopped and named", async () => {
  const { faults, off } = listening();
  void bare.session
    .send("Runtime.evaluate", { expression: "(() => { for (let i = 0; i < 25; i++) alert('again ' + (i % 2)); return 0; })()" })
    .catch(() => undefined);
  const until = Date.now() + 20_000;
  while (Date.now() < until && faults.length === 0) await Bun.sleep(25);
  expect(faults[0]).toContain("the page opens dialogs without end: 20 within 5 s");
  off();
}, 60_000);
