import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { unmetGate } from "./suite-keys.ts";

const flow = (extra: string) => `name: F\napp: web\nurl: http://127.0.0.1/\nsteps:\n  - rules: Click "Go"\n${extra}`;

describe("loadSuiteKeys (through loadFlowText)", () => {
  test("reads control, exports and skip_unless_env", () => {
    const r = loadFlowText("f.flow.yaml", flow("control: { id: auth.x, title: T }\nexports:\n  ORDER_NO: ${captured.order}\nskip_unless_env: [STAGING]\n"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.flow.control).toEqual({ id: "auth.x", title: "T" });
    expect(r.flow.exports).toEqual({ ORDER_NO: "${captured.order}" });
    expect(r.flow.skip_unless_env).toEqual(["STAGING"]);
  });
  test.each([
    ["control: { id: Auth X }", "may use only lowercase letters"],
    ["control: { title: T }", "`control` needs an `id`"],
    ["control: { id: a, owner: b }", "unknown key `owner` in `control`"],
    ["exports: { 1BAD: x }", "is not an environment variable name"],
    ['exports: { GOOD: "${captured." }', "never closed"],
    ["exports: []", "must be a non-empty mapping"],
    ["skip_unless_env: STAGING", "must be a non-empty list"],
  ])("refuses %s", (extra, message) => {
    const r = loadFlowText("f.flow.yaml", flow(`${extra}\n`));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => d.message).join("\n")).toContain(message);
    expect(r.diagnostics[0]!.span?.line).toBe(6);
  });
});

describe("unmetGate", () => {
  test("names the unset and empty variables", () => {
    expect(unmetGate(["A", "B", "C"], { A: "1", B: "" })).toEqual(["B", "C"]);
    expect(unmetGate(undefined, {})).toEqual([]);
  });
});
