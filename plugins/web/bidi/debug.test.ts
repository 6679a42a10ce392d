// The Firefox driver's debug snapshot: the document as inert HTML without password values, and
// the console since the flow began, as Chromium's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { FirefoxDriver } from "./driver.ts";

let bed: FirefoxBed;
beforeAll(async () => {
  bed = await startFirefox();
});
afterAll(() => bed?.close());

const PAGE = `data:text/html,<title>Dbg</title><p>Visible words</p><input type="password" aria-label="Password" value="pw-9917"><button>Go</button>
<script>console.log("hello from the page"); console.warn("careful"); setTimeout(() => { throw new Error("boom later"); }, 0);</script>`;

test("a failed step's snapshot holds the inert document without password values and the console since the flow began", async () => {
  const driver = await FirefoxDriver.open(bed.connection, {}, { engine: "firefox" }, async () => undefined);
  try {
    expect((await driver.navigate(PAGE, 10_000)).ok).toBe(true);
    const until = Date.now() + 10_000;
    let snap = await driver.debugSnapshot((t) => t.replaceAll("careful", "[redacted]"));
    while (snap.console.length < 3 && Date.now() < until) {
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
      expect.stringContaining("uncaught: ") as unknown as string,
    ]);
    expect(snap.console[2]).toContain("boom later");
    expect(snap.anchors?.length).toBeGreaterThan(0);
  } finally {
    await driver.close();
  }
}, 60_000);
