import { describe, expect, test } from "bun:test";
import { DEFAULT_VIEWPORT, initScripts, pageOrigin, seedCookies, viewportOf } from "./page-setup.ts";

describe("viewportOf", () => {
  test("is the flow's viewport, else the default page size", () => {
    expect(viewportOf({})).toEqual(DEFAULT_VIEWPORT);
    expect(viewportOf({ viewport: { width: 390, height: 844 } })).toEqual({ width: 390, height: 844 });
  });
});

describe("initScripts", () => {
  test("pins the clock at the instant of `at` and seeds random, in that order", () => {
    const scripts = initScripts({ clock: { at: "2019-03-14T12:00:00Z" }, random: { seed: 42 } });
    expect(scripts).toHaveLength(2);
    expect(scripts[0]!.endsWith(`)(${Date.UTC(2019, 2, 14, 12)})`)).toBe(true);
    expect(scripts[1]!.endsWith(")(42)")).toBe(true);
    expect(initScripts({})).toEqual([]);
  });
});

describe("seedCookies", () => {
  test("gives a cookie without a domain to the start URL and keeps a named domain", () => {
    expect(seedCookies({ session: { cookies: [{ name: "a", value: "1" }, { name: "b", value: "2", domain: "example.test" }] } }, "http://127.0.0.1:3000/app")).toEqual([
      { name: "a", value: "1", url: "http://127.0.0.1:3000/app", path: "/" },
      { name: "b", value: "2", domain: "example.test", path: "/" },
    ]);
    expect(seedCookies({}, "http://x/")).toEqual([]);
  });
});

describe("pageOrigin", () => {
  test("is the URL's origin, and file:// for a local file as Chromium reports it", () => {
    expect(pageOrigin("http://127.0.0.1:3000/a?b")).toBe("http://127.0.0.1:3000");
    expect(pageOrigin("file:///tmp/page.html")).toBe("file://");
  });
});
