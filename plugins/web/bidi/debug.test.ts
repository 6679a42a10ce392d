// The Firefox driver's debug snapshot: the document as inert HTML without password values, and
// the console since the flow began, as Chromium's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { bidiRemoteText } from "./debug.ts";
import { FirefoxDriver } from "./driver.ts";

let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(() => bed?.close());

const PAGE = `data:text/html,<title>Dbg</title><p>Visible words</p><input type="password" aria-label="Password" value="pw-9917"><button>Go</button>
<script>console.log("hello from the page"); console.warn("careful"); console.info("ready", {build: 7, tag: "x"}, [1, "two"], 3, null); setTimeout(() => { throw new Error("boom later"); }, 0);</script>`;

test("a failed step's snapshot holds the inert document without password values and the console since the flow began", async () => {
  const driver = await FirefoxDriver.open(bed.connection, {}, { engine: "firefox" }, async () => undefined);
  try {
    expect((await driver.navigate(PAGE, 10_000)).ok).toBe(true);
    const until = Date.now() + 10_000;
    let snap = await driver.debugSnapshot((t) => t.replaceAll("careful", "[redacted]"));
    while (snap.console.length < 4 && Date.now() < until) {
      await Bun.sleep(50);
      snap = await driver.debugSnapshot((t) => t.replaceAll("careful", "[redacted]"));
    }
    expect(snap.html).toBe(true);
    expect(snap.dom).toContain("Visible words");
    expect(snap.dom).not.toContain("pw-9917");
    expect(snap.dom).not.toContain("<script");
    expect(snap.console.map((l) => l.replace(/^\[\+[0-9.]+s\] /, ""))).toEqual([
      "console.log: hello from the page",
      "console.warn: [redacted]",
      // Objects and arrays by their preview, in Chromium's words.
      "console.info: ready {build: 7, tag: x} [1, two] 3 null",
      expect.stringContaining("uncaught: ") as unknown as string,
    ]);
    expect(snap.console[3]).toContain("boom later");
    expect(snap.errors).toEqual([expect.stringContaining("boom later")]);
    expect(snap.anchors?.length).toBeGreaterThan(0);
  } finally {
    await driver.close();
  }
}, 60_000);

test("a console argument reads as Chromium's console lines show it", () => {
  expect(
    bidiRemoteText({
      type: "object",
      value: [
        ["a", { type: "number", value: 1 }],
        ["b", { type: "object" }],
        ["c", { type: "array" }],
      ],
    }),
  ).toBe("{a: 1, b: Object, c: Array}");
  const many = Array.from({ length: 7 }, (_, i) => [`k${i}`, { type: "boolean", value: true }]);
  expect(bidiRemoteText({ type: "object", value: many })).toBe("{k0: true, k1: true, k2: true, k3: true, k4: true, …}");
  expect(bidiRemoteText({ type: "number", value: "NaN" })).toBe("NaN");
  expect(bidiRemoteText({ type: "bigint", value: "12" })).toBe("12n");
  expect(bidiRemoteText({ type: "undefined" })).toBe("undefined");
});
