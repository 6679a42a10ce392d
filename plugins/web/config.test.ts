import { describe, expect, test } from "bun:test";
import { browserSource, parseWebConfig } from "./config.ts";

describe("parseWebConfig", () => {
  test("accepts the full shape", () => {
    const config = {
      viewport: { width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true },
      user_agent: "ua",
      args: ["--lang=de"],
      clock: { at: "2019-03-14T12:00:00Z", timezone: "UTC" },
      random: { seed: 7 },
      downloads_dir: "/tmp/d",
      mock: [{ url_contains: "/api", status: 404 }],
      session: { cookies: [{ name: "sid", value: "v" }], local_storage: { k: "v" } },
      headed: true,
    };
    expect(parseWebConfig(config)).toEqual(config);
    expect(parseWebConfig({})).toEqual({});
  });

  test.each([
    [{ colour: 1 }, 'unknown key "colour"'],
    [{ headed: "yes" }, "headed must be a boolean"],
    [{ viewport: { width: 0, height: 1 } }, "viewport needs whole width and height"],
    [{ random: { seed: -1 } }, "random.seed must be a u32"],
    [{ clock: { at: "soon" } }, "clock.at must be a date-time"],
    [{ mock: [{ url_contains: "" }] }, "mock[0].url_contains"],
    [{ session: { cookies: [{ name: "a", value: { v: 1 } }] } }, "session.cookies[0] needs string name and value"],
  ])("refuses %j", (config, message) => {
    expect(() => parseWebConfig(config)).toThrow(message);
  });

  test("takes the flow's keys as flowproof hands them over: the browser shape flattened, the method upper-cased, values as text", () => {
    expect(
      parseWebConfig({
        browser: { viewport: { width: 10, height: 20 } },
        mock: [{ url_contains: "/x", method: "post" }],
        session: { cookies: [{ name: "n", value: 42 }], local_storage: { k: true } },
        headed: true,
      }),
    ).toEqual({
      viewport: { width: 10, height: 20 },
      mock: [{ url_contains: "/x", method: "POST" }],
      session: { cookies: [{ name: "n", value: "42" }], local_storage: { k: "true" } },
      headed: true,
    });
  });

  test("never echoes a cookie value in its message", () => {
    expect(() => parseWebConfig({ session: { cookies: [{ name: 1, value: "hunter2-secret" }] } })).not.toThrow(/hunter2/);
  });
});

describe("browserSource", () => {
  test("an endpoint wins, then args make a private browser, else the shared one", () => {
    expect(browserSource({ endpoint: "ws://h/x", args: ["--a"] })).toEqual({ kind: "endpoint", url: "ws://h/x" });
    expect(browserSource({ args: ["--a"] })).toEqual({ kind: "private", args: ["--a"] });
    expect(browserSource({ args: [] })).toEqual({ kind: "shared" });
    expect(browserSource({})).toEqual({ kind: "shared" });
  });
});

describe("browserSource on a grid", () => {
  test("the run's FLOWPROOF_GRID_URL wins over the flow's browser.grid; `local` keeps the flow local; an endpoint wins over both", () => {
    expect(browserSource({ grid: "http://hub:4444" })).toEqual({ kind: "grid", url: "http://hub:4444" });
    expect(browserSource({ grid: "http://hub:4444" }, { FLOWPROOF_GRID_URL: "http://other:4444" })).toEqual({ kind: "grid", url: "http://other:4444" });
    expect(browserSource({ grid: "http://hub:4444", args: ["--a"] }, { FLOWPROOF_GRID_URL: "local" })).toEqual({ kind: "private", args: ["--a"] });
    expect(browserSource({}, { FLOWPROOF_GRID_URL: "http://hub:4444" })).toEqual({ kind: "grid", url: "http://hub:4444" });
    expect(browserSource({ endpoint: "ws://h/x" }, { FLOWPROOF_GRID_URL: "http://hub:4444" })).toEqual({ kind: "endpoint", url: "ws://h/x" });
  });
});
