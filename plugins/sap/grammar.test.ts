import { describe, expect, test } from "bun:test";
import { parseStep } from "../../test/support/grammar.ts";
import { SAP_GRAMMAR } from "./grammar.ts";

const ctx = { surface: { name: "sap", ...SAP_GRAMMAR } };

describe("SAP GUI's grammar", () => {
  test("a bare transaction code is transaction navigation", () => {
    expect(parseStep("Go to VA01", ctx)).toMatchObject({ ok: true, value: { kind: "navigate", url: { raw: "/nVA01" } } });
    expect(parseStep("Go to /nVA02", ctx)).toMatchObject({ ok: true, value: { kind: "navigate", url: { raw: "/nVA02" } } });
  });

  test("F-keys yes; css and reload no, naming what to write", () => {
    expect(parseStep("Press F8", ctx)).toEqual({ ok: true, value: { kind: "press_key", key: "F8", modifiers: [] } });
    const css = parseStep('Click "css:#x"', ctx);
    expect(css.ok ? "" : css.error.hint).toContain("SAP scripting id");
    const reload = parseStep("Reload the page", ctx);
    expect(reload.ok ? "" : reload.error.message).toBe("`Reload the page` cannot be done on sap: it has no page to reload (grammar form `reload`).");
  });
});
