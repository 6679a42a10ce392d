import { describe, expect, test } from "bun:test";
import { SpecError } from "../diagnostics/diagnostic.ts";
import type { AppDriver } from "../plugins/api.ts";
import { openSurface, ranOnOf, withHeaded } from "./surface.ts";
import { createRunContext } from "./project-plugins.ts";
import { NO_PLUGINS } from "../plugins/loader.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";

/** The run context these tests open surfaces through: the built-in adapters, a lifecycle of the test's own. */
const context = createRunContext(NO_PLUGINS, new Lifecycle());

describe("withHeaded", () => {
  test("adds headed only when the window is shown, leaving the config otherwise as it was", () => {
    const config = { viewport: { width: 1, height: 1 } };
    expect(withHeaded(config, true)).toEqual({ viewport: { width: 1, height: 1 }, headed: true });
    expect(withHeaded(config, false)).toBe(config);
    expect(config).toEqual({ viewport: { width: 1, height: 1 } });
  });
});

describe("openSurface", () => {
  test("an app kind no adapter serves is a spec error naming the kinds there are", async () => {
    const error = await openSurface("desktop", "/tmp/a.flow.yaml", () => undefined, context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toMatch(/no adapter for app kind "desktop" \(available: .*web/);
  });
});

describe("ranOnOf", () => {
  test("a driver's ran_on (a grid session) goes into the run report; a driver without one adds nothing", () => {
    const ranOn = { grid: "http://***@hub:4444", node: "http://10.0.0.7:5555", session: "s1" };
    expect(ranOnOf({ appInfo: () => ({ ran_on: ranOn }) } as unknown as AppDriver)).toEqual({ ran_on: ranOn });
    expect(ranOnOf({ appInfo: () => ({}) } as unknown as AppDriver)).toEqual({});
    expect(ranOnOf({} as AppDriver)).toEqual({});
  });
});
