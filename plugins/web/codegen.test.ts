// The codegen window headless, driven by trusted CDP input: the events the page reports, each
// element named by checked targets, and a password field's value never reported.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openCodegen, parseReport, UNKNOWN_NAVIGATION, type CodegenBrowser, type CodegenEvent } from "./codegen.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";

let server: TestServer;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(() => server.stop());

/** A headless codegen window at `page` and the events it reported so far. */
async function open(page: string): Promise<{ browser: CodegenBrowser; events: CodegenEvent[] }> {
  const events: CodegenEvent[] = [];
  const browser = await openCodegen({ url: `${server.url}/${page}`, headed: false, onEvent: (e) => events.push(e), onNavigate: () => undefined });
  return { browser, events };
}

/** Clicks the centre of the element `css` names, as trusted input. */
async function click(b: CodegenBrowser, css: string, nth = 0): Promise<void> {
  const r = await b.session.send("Runtime.evaluate", {
    expression: `(() => { const r = document.querySelectorAll(${JSON.stringify(css)})[${nth}].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`,
    returnByValue: true,
  });
  const [x, y] = r.result.value as [number, number];
  for (const type of ["mousePressed", "mouseReleased"] as const)
    await b.session.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
}

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

const firstTarget = (e: CodegenEvent | undefined) => (e && "naming" in e ? e.naming.targets[0]?.target : undefined);

describe("openCodegen", () => {
  test("reports typing per field, a secret field without its value, a checkbox and a button by names that resolve back", async () => {
    const { browser, events } = await open("codegen-sign-in.html");
    try {
      await click(browser, "#email");
      await browser.session.send("Input.insertText", { text: "ada@example.com" });
      await click(browser, "#password");
      await browser.session.send("Input.insertText", { text: "s3cret-Value" });
      await click(browser, "#remember");
      await click(browser, "button");
      await until("four events", () => events.length >= 4);
      expect(events.map((e) => e.kind)).toEqual(["type", "type", "check", "click"]);
      expect(events[0]).toMatchObject({ kind: "type", value: "ada@example.com" });
      expect(firstTarget(events[0])).toEqual({ kind: "element", anchor: { kind: "text", text: "Email" }, role: "field" });
      expect(events[1]).toMatchObject({ kind: "type", secret: { label: "Password" } });
      expect(JSON.stringify(events)).not.toContain("s3cret-Value");
      expect(events[2]).toMatchObject({ kind: "check", checked: true });
      expect(firstTarget(events[2])).toEqual({ kind: "element", anchor: { kind: "text", text: "Remember me" }, role: "checkbox" });
      // The heading says "Sign in" too: the plain label is ambiguous, the role noun is not.
      expect(firstTarget(events[3])).toEqual({ kind: "element", anchor: { kind: "text", text: "Sign in" }, role: "button" });
    } finally {
      await browser.close();
    }
  });

  test("names a row's button by its item, the second of two same buttons by ordinal, and a dropdown by its label", async () => {
    const { browser, events } = await open("codegen-people.html");
    try {
      await click(browser, "tbody button", 1);
      await until("the row click", () => events.length >= 1);
      expect(firstTarget(events[0])).toEqual({
        kind: "scoped",
        container: { kind: "item" },
        anchors: ["Grace Hopper"],
        inner: { kind: "text", text: "Delete" },
        role: "button",
      });
      await click(browser, "button.save", 1);
      await until("the save click", () => events.length >= 2);
      expect(firstTarget(events[1])).toEqual({ kind: "element", anchor: { kind: "text", text: "Save" }, nth: 2, role: "button" });
      await browser.session.send("Runtime.evaluate", { expression: "document.getElementById('role').focus()" });
      await browser.session.send("Input.dispatchKeyEvent", { type: "keyDown", key: "ArrowDown", code: "ArrowDown", windowsVirtualKeyCode: 40 });
      await until("the select", () => events.length >= 3);
      expect(events[2]).toMatchObject({ kind: "select", options: ["Editor"] });
      expect(firstTarget(events[2])).toEqual({ kind: "element", anchor: { kind: "text", text: "Role" }, role: "dropdown" });
    } finally {
      await browser.close();
    }
  });

  test("Enter in a field is one key step: the click of the form's implicit submission is not reported again", async () => {
    const { browser, events } = await open("codegen-sign-in.html");
    try {
      await click(browser, "#password");
      await browser.session.send("Input.insertText", { text: "pw" });
      await browser.session.send("Input.dispatchKeyEvent", { type: "keyDown", key: "Enter", code: "Enter", text: "\r", windowsVirtualKeyCode: 13 });
      await browser.session.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
      await click(browser, "h1");
      await until("the heading click", () => events.some((e) => e.kind === "click"));
      expect(events.map((e) => e.kind)).toEqual(["type", "key", "click"]);
      expect(firstTarget(events[2])).toEqual({ kind: "element", anchor: { kind: "text", text: "Sign in" }, nth: 1 });
    } finally {
      await browser.close();
    }
  });

  test("flush reports what is typed in the still focused field before it returns", async () => {
    const { browser, events } = await open("codegen-sign-in.html");
    try {
      await click(browser, "#email");
      await browser.session.send("Input.insertText", { text: "grace@example.com" });
      expect(events).toEqual([]);
      await browser.flush();
      expect(events).toMatchObject([{ kind: "type", value: "grace@example.com" }]);
    } finally {
      await browser.close();
    }
  });

  test("Alt+S marks the focused field secret: its typing is reported without the value", async () => {
    const { browser, events } = await open("codegen-sign-in.html");
    try {
      await click(browser, "#email");
      await browser.session.send("Input.dispatchKeyEvent", { type: "keyDown", key: "s", code: "KeyS", modifiers: 1, windowsVirtualKeyCode: 83 });
      await browser.session.send("Input.dispatchKeyEvent", { type: "keyUp", key: "s", code: "KeyS", modifiers: 1, windowsVirtualKeyCode: 83 });
      await browser.session.send("Input.insertText", { text: "private@example.com" });
      await click(browser, "h1");
      await until("the typing", () => events.length >= 1);
      expect(events[0]).toMatchObject({ kind: "type", secret: { label: "Email" } });
      expect(JSON.stringify(events)).not.toContain("private@example.com");
    } finally {
      await browser.close();
    }
  });

  test("Alt+A on a table cell asserts its text by column and row", async () => {
    const { browser, events } = await open("codegen-people.html");
    try {
      const r = await browser.session.send("Runtime.evaluate", {
        expression:
          "(() => { const r = document.querySelectorAll('tbody tr')[1].cells[1].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()",
        returnByValue: true,
      });
      const [x, y] = r.result.value as [number, number];
      await browser.session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
      await browser.session.send("Input.dispatchKeyEvent", { type: "keyDown", key: "a", code: "KeyA", modifiers: 1, windowsVirtualKeyCode: 65 });
      await until("the assertion", () => events.length >= 1);
      expect(events[0]).toMatchObject({ kind: "assert_shows", text: "Invited" });
      expect(firstTarget(events[0])).toEqual({ kind: "cell", column: "Status", rowAnchors: ["Grace Hopper"] });
    } finally {
      await browser.close();
    }
  });

  test("reports a scroll only when the person scrolled to the bottom and the page loaded more", async () => {
    const { browser, events } = await open("codegen-feed.html");
    try {
      // Part of the way down: nothing loads, nothing is written.
      await browser.session.send("Input.dispatchMouseEvent", { type: "mouseWheel", x: 300, y: 300, deltaX: 0, deltaY: 300 });
      await browser.session.send("Input.dispatchMouseEvent", { type: "mouseWheel", x: 300, y: 300, deltaX: 0, deltaY: 100_000 });
      await until("the scroll", () => events.length >= 1);
      expect(events).toEqual([{ kind: "scroll", to: "bottom" }]);
      // Once more to the bottom: the feed loads again, and so the scroll is written again.
      await browser.session.send("Input.dispatchMouseEvent", { type: "mouseWheel", x: 300, y: 300, deltaX: 0, deltaY: 100_000 });
      await until("the second scroll", () => events.length >= 2);
      expect(events).toEqual([
        { kind: "scroll", to: "bottom" },
        { kind: "scroll", to: "bottom" },
      ]);
    } finally {
      await browser.close();
    }
  });

  test("a typed navigation whose page rewrites its URL as it loads is never dropped: a Go to when its history entry shows in time, else reported as unknown", async () => {
    server.setRoute(
      "/renames-itself.html",
      () =>
        new Response(`<!doctype html><title>Renamed</title><script>history.replaceState(null, "", "/renamed-on-load");</script>`, {
          headers: { "content-type": "text/html" },
        }),
    );
    const unknown: Array<{ url: string; why: string }> = [];
    const navigations: unknown[] = [];
    const browser = await openCodegen({
      url: `${server.url}/codegen-sign-in.html`,
      headed: false,
      onEvent: () => undefined,
      onNavigate: (n) => navigations.push(n),
      onUnknownNavigation: (url, why) => unknown.push({ url, why }),
    });
    try {
      // As the address bar navigates: a typed URL. Whether the browser's history still shows the
      // committed URL when codegen looks depends on whether the page's script renamed it first:
      // either way the navigation is accounted for, never dropped without a word.
      await browser.session.send("Page.navigate", { url: `${server.url}/renames-itself.html`, transitionType: "typed" });
      await until("the navigation accounted for", () => unknown.length > 0 || navigations.length > 0, 60_000);
      if (unknown.length > 0) {
        expect(unknown).toEqual([{ url: `${server.url}/renames-itself.html`, why: UNKNOWN_NAVIGATION }]);
        expect(navigations).toEqual([]);
      } else {
        expect(navigations).toEqual([{ kind: "go_to", url: `${server.url}/renames-itself.html` }]);
      }
      expect(UNKNOWN_NAVIGATION).toContain("whether you went there from the address bar or reloaded is unknown");
      navigations.length = 0;
      // A typed URL whose entry shows is still a navigation of the person's.
      await browser.session.send("Page.navigate", { url: `${server.url}/codegen-sign-in.html`, transitionType: "typed" });
      await until("the typed navigation", () => navigations.length > 0, 60_000);
      expect(navigations).toEqual([{ kind: "go_to", url: `${server.url}/codegen-sign-in.html` }]);
      // A typed URL with a fragment: the browser reports the document's URL and its fragment apart,
      // its history keeps them together; it is the same navigation of the person's.
      navigations.length = 0;
      await browser.session.send("Page.navigate", { url: `${server.url}/renames-itself.html`, transitionType: "link" });
      await browser.session.send("Page.navigate", { url: `${server.url}/codegen-sign-in.html#top`, transitionType: "typed" });
      await until("the typed navigation with a fragment", () => navigations.length > 0, 60_000);
      expect(navigations).toEqual([{ kind: "go_to", url: `${server.url}/codegen-sign-in.html#top` }]);
      // A typed address that does not load shows an error page, which the browser reports by the URL
      // that failed; it is still the person's Go to (the replay fails there too).
      navigations.length = 0;
      await browser.session.send("Page.navigate", { url: "http://127.0.0.1:9/nothing-here", transitionType: "typed" });
      await until("the typed navigation that failed", () => navigations.length > 0, 60_000);
      expect(navigations).toEqual([{ kind: "go_to", url: "http://127.0.0.1:9/nothing-here" }]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  test("resolves closed once the browser goes away", async () => {
    const { browser } = await open("codegen-sign-in.html");
    await browser.close();
    expect(await browser.closed).toMatch(/closed|exited|killed/);
  });
});

describe("parseReport", () => {
  test.each([
    ['{"kind":"key","key":"Enter"}', { kind: "key", key: "Enter" }],
    ['{"kind":"paste"}', undefined],
    ["not json", undefined],
    ["null", undefined],
  ])("reads %s", (payload, expected) => {
    expect(parseReport(payload)).toEqual(expected as CodegenEvent | undefined);
  });
});
