import { describe, expect, test } from "bun:test";
import { PluginError, TraceError } from "../diagnostics/diagnostic.ts";
import { defineAdapter, keyRole, Type } from "../plugins/api.ts";
import type { TraceHeader } from "../trace/schema.ts";
import { assertHeaderBlocks, assertRecordedFacts, headerBlockProblems } from "./header-blocks.ts";
import { surfaceCatalog } from "./project-plugins.ts";

const HEADER: TraceHeader = {
  format: "flowproof-trace",
  version: 1,
  trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
  recorded_at: "2025-01-02T03:04:05.000Z",
  app: { name: "web", adapter: "web", url: "http://127.0.0.1/" },
  env: { os: "linux", resolution: [1280, 720] },
};

/** A project adapter with a block of its own beside `app` and a fact of its own in the app entry. */
const console_ = defineAdapter({
  kind: "inventory",
  capabilities: [],
  keys: {
    schema: Type.Object({
      terminal: Type.Optional(Type.Object({ rows: Type.Integer({ minimum: 1 }) }, { additionalProperties: false, ...keyRole({ recorded: { top: true } }) })),
      host: Type.Optional(Type.String(keyRole({ recorded: true }))),
    }),
  },
  facts: Type.Object({ build: Type.Optional(Type.String()) }, { additionalProperties: false }),
  open: async () => {
    throw new Error("not opened in this test");
  },
});
const catalog = surfaceCatalog([console_]);
const inventory = (app: Record<string, unknown>, rest: Record<string, unknown> = {}): TraceHeader => ({
  ...HEADER,
  app: { name: "inventory", adapter: "inventory", ...app },
  ...rest,
});

describe("headerBlockProblems", () => {
  test("the built-ins' blocks go through the same door: the web's browser, mock and session beside `app`, its grid session as a fact", () => {
    const web = {
      ...HEADER,
      app: { ...HEADER.app, ran_on: { grid: "http://grid/", session: "s1" } },
      browser: { viewport: { width: 390, height: 844 } },
      mock: [{ url_contains: "/api", body: { ok: true } }],
      session: { cookies: [{ name: "sid", value: "${SID}" }] },
    };
    expect(headerBlockProblems(web, catalog)).toEqual([]);
    expect(headerBlockProblems({ ...web, browser: { viewport: { width: "wide", height: 844 } } }, catalog)).toEqual([
      "`browser`: `width` must be a whole number from 1 to 10000",
    ]);
  });

  test("Windows and SAP entries hold their recorded keys and declared facts", () => {
    const windows = { ...HEADER, app: { name: "windows", adapter: "windows", command: "app.exe", window_title: "App", backend: "uia" } };
    expect(headerBlockProblems(windows, catalog)).toEqual([]);
    const sap = { ...HEADER, app: { name: "sap", adapter: "sap", connection: "DEV", login_user: "${SAP_USER}" } };
    expect(headerBlockProblems(sap, catalog)).toEqual([]);
    expect(headerBlockProblems({ ...sap, app: { ...sap.app, backend: "uia" } }, catalog)).toEqual([
      "`app.backend` is neither a key SAP GUI records nor a fact its adapter declares",
    ]);
  });

  test("a project adapter's block and fact are checked against its own schemas", () => {
    expect(headerBlockProblems(inventory({ host: "inv-1", build: "7.2" }, { terminal: { rows: 24 } }), catalog)).toEqual([]);
    expect(headerBlockProblems(inventory({ build: 7 }, { terminal: { rows: 0 } }), catalog)).toEqual([
      "`terminal`: `rows` must be a whole number of at least 1",
      "`app`: `build` must be a string (`app: inventory`)",
    ]);
  });

  test("a field beside `app` no adapter records is refused", () => {
    expect(headerBlockProblems({ ...HEADER, colour: "blue" }, catalog)).toEqual([
      "`colour` is no field of the trace format, and no adapter records a block of that name",
    ]);
  });

  test("a multi-surface flow's entries are each checked against their own adapter", () => {
    const multi = {
      ...HEADER,
      app: { name: "multi", adapter: "multi" },
      apps: {
        shop: { name: "web", adapter: "web", url: "/", browser: { viewport: { width: 300, height: 200 } } },
        inv: { name: "inventory", adapter: "inventory", build: 1 },
      },
    };
    expect(headerBlockProblems(multi, catalog)).toEqual(["`apps.inv`: `build` must be a string (`app: inventory`)"]);
  });
});

describe("the doors", () => {
  test("replay refuses the header as bad-trace; record refuses an undeclared fact as a plugin error", () => {
    const bad = inventory({ version_code: "x" });
    expect(() => assertHeaderBlocks(bad, catalog)).toThrow(TraceError);
    expect(() => assertRecordedFacts(bad, catalog)).toThrow(PluginError);
    try {
      assertHeaderBlocks(bad, catalog);
    } catch (error) {
      expect((error as TraceError).code).toBe("bad-trace");
      expect((error as TraceError).message).toBe(
        "the trace header's `app.version_code` is neither a key `app: inventory` records nor a fact its adapter declares",
      );
    }
    expect(() => assertHeaderBlocks(inventory({ build: "1" }), catalog)).not.toThrow();
  });
});
