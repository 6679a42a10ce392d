import { describe, expect, test } from "bun:test";
import type { Session } from "./cdp/connection.ts";
import { DEFAULT_VIEWPORT, initScripts, pageOrigin, readEnvironment, seedCookies, viewportOf } from "./page-setup.ts";

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
    expect(
      seedCookies(
        {
          session: {
            cookies: [
              { name: "a", value: "1" },
              { name: "b", value: "2", domain: "example.test" },
            ],
          },
        },
        "http://127.0.0.1:3000/app",
      ),
    ).toEqual([
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

describe("readEnvironment", () => {
  /** A session that answers with `answers` in turn: an Error is thrown, anything else is the page's value. */
  const answering = (...answers: unknown[]): Session =>
    ({
      send: async () => {
        const next = answers.shift();
        if (next instanceof Error) throw next;
        return { result: { value: next } };
      },
    }) as unknown as Session;
  const replaced = () => new Error("Runtime.evaluate: Inspected target navigated or closed");

  test("a page between documents (the last step navigated) is waited out and asked again", async () => {
    let settled = 0;
    const env = await readEnvironment(answering(replaced(), [1024, 700, "en-GB"]), {}, async () => void settled++);
    expect(env).toEqual({ os: process.platform, resolution: [1024, 700], locale: "en-GB" });
    expect(settled).toBe(2);
  });

  test("a page that keeps navigating is described by the flow's viewport; any other failure throws", async () => {
    const env = await readEnvironment(answering(replaced(), replaced(), replaced()), { viewport: { width: 390, height: 844 } }, async () => undefined);
    expect(env).toEqual({ os: process.platform, resolution: [390, 844] });
    await expect(readEnvironment(answering(new Error("the page crashed")), {}, async () => undefined)).rejects.toThrow("the page crashed");
  });
});
