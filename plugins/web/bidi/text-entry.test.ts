import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Selector } from "../../../src/plugins/api.ts";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import type { ProbeAnswer } from "../injected/protocol.ts";
import { KEYED_ENDS } from "../keyboard.ts";
import { fail, ok, toRungs } from "../page-calls.ts";
import { TypedSecrets } from "../typed-secrets.ts";
import { bidiTap, type BidiTappedCall } from "./connection.ts";
import { BidiInput } from "./input.ts";
import type { BidiPage } from "./page.ts";
import { fillFirefoxField, typeIntoFirefoxFocus, type FirefoxTextPage } from "./text-entry.ts";

const PAGE = "data:text/html,<label>Note <input id=note></label><label>Secret <input id=pw type=password></label><p>plain</p>";
const field = (label: string): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: label, role: "field" } }];

let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(() => bed?.close());

function textPage(page: BidiPage, secrets: TypedSecrets): FirefoxTextPage {
  return {
    input: new BidiInput(bed.connection, page.context),
    secrets,
    evaluate: (e) => page.evaluate(e),
    assign: async () => ok(undefined),
    focus: async (ladder, afterward) => {
      const a = await page.call<ProbeAnswer>("focusForTyping", { ladder: toRungs(ladder), purpose: "type" }, afterward);
      return "transient" in a ? fail("attached", a.transient) : a.ok ? ok(a, a.tier) : fail(a.failed, a.detail);
    },
    typingLost: async (length) => {
      const a = await page.call<string | null>("typingLost", { length });
      return typeof a === "string" ? a : undefined;
    },
    nextFrame: () => page.nextFrame(),
    afterInput: async () => undefined,
    takeDialog: () => undefined,
  };
}

async function opened() {
  const page = await bed.page();
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: PAGE, wait: "complete" });
  return page;
}

test("fills a field by its label, replacing what it held, as trusted keys", async () => {
  const page = await opened();
  const tp = textPage(page, new TypedSecrets());
  expect((await fillFirefoxField(tp, field("Note"), "first", {})).ok).toBe(true);
  expect((await fillFirefoxField(tp, field("Note"), "Grace", {})).ok).toBe(true);
  expect((await typeIntoFirefoxFocus(tp, " H.", {})).ok).toBe(true);
  expect(await page.evaluate("document.getElementById('note').value")).toBe("Grace H.");
  expect((await fillFirefoxField(tp, field("Note"), "", {})).ok).toBe(true);
  expect(await page.evaluate("document.getElementById('note').value")).toBe("");
}, 60_000);

test("a secret's field is marked for masking before it is typed, and frames mask it", async () => {
  const page = await opened();
  const secrets = new TypedSecrets();
  const tp = textPage(page, secrets);
  expect((await fillFirefoxField(tp, field("Secret"), "s3cret-value", { secret: true })).ok).toBe(true);
  const [answer] = await secrets.rectsFor((e) => page.evaluate(e), [{ secretFields: true }]);
  expect(answer?.ok && answer.rects.length > 0).toBe(true);
}, 60_000);

test("a password typed as written is masked wherever the page shows it, asked about in the round trip that focuses its field", async () => {
  const page = await opened();
  const secrets = new TypedSecrets();
  expect((await fillFirefoxField(textPage(page, secrets), field("Note"), "x", {})).ok).toBe(true); // the page API is in
  const calls: BidiTappedCall[] = [];
  bidiTap.onCall = (c) => calls.push(c);
  try {
    expect((await fillFirefoxField(textPage(page, secrets), field("Secret"), "hunter22", {})).ok).toBe(true);
  } finally {
    bidiTap.onCall = undefined;
  }
  // One page call before the keys: the focus, which also checked for a password field; one after
  // them: whether the field kept the focus while they were typed.
  expect(calls.map((c) => c.method)).toEqual(["script.evaluate", "input.performActions", "script.evaluate"]);
  await page.evaluate("document.querySelector('p').textContent = 'your password is hunter22'");
  const top = (await page.evaluate("document.querySelector('p').getBoundingClientRect().top")) as number;
  const [shown] = await secrets.rectsFor((e) => page.evaluate(e), [{ secretFields: true }]);
  expect(shown?.ok && shown.rects.some((r) => Math.abs(r.y - top) < 4)).toBe(true);
}, 60_000);

test("typing with nothing focused fails at once, saying what to write", async () => {
  const page = await opened();
  const r = await typeIntoFirefoxFocus(textPage(page, new TypedSecrets()), "x", {});
  expect(r).toMatchObject({ ok: false, failed: "editable", retryable: false });
  expect(r.ok ? "" : r.detail).toContain("nothing has keyboard focus");
}, 60_000);

test("a long text is typed as on Chromium: its first and last characters as keys, its middle inserted as a paste, newlines pressed", async () => {
  const page = await bed.page();
  await bed.connection.send("browsingContext.navigate", {
    context: page.context,
    url: `data:text/html,<label>Body <textarea id=body></textarea></label><script>
window.keys = 0; window.inserts = 0;
document.getElementById("body").addEventListener("keydown", () => window.keys++);
document.getElementById("body").addEventListener("input", (e) => { if (e.inputType === "insertText" && e.data && e.data.length > 1) window.inserts++; });
</script>`,
    wait: "complete",
  });
  const tp = textPage(page, new TypedSecrets());
  const text = `${"a".repeat(KEYED_ENDS)}${"middle ".repeat(500)}\n${"tail ".repeat(300)}${"z".repeat(KEYED_ENDS)}`;
  expect((await fillFirefoxField(tp, field("Body"), text, {})).ok).toBe(true);
  expect(await page.evaluate("document.getElementById('body').value")).toBe(text);
  // Keys: the first and last KEYED_ENDS characters and the newline; the middle's two runs went in as insertions.
  expect(await page.evaluate("[window.keys, window.inserts]")).toEqual([2 * KEYED_ENDS + 1, 3]);
}, 60_000);
