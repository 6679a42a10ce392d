import { describe, expect, test } from "bun:test";
import { loadFlowText } from "./flow.ts";

const flow = (apps: string, steps: string) => `name: M\napps:\n${apps}steps:\n${steps}`;
const TWO = "  shop: { app: web, url: http://127.0.0.1:1/ }\n  admin: { app: web, url: \"${ADMIN_URL}/\" }\n";

describe("apps: and in: blocks", () => {
  test("a multi-surface flow: app is multi, every step carries its surface", () => {
    const r = loadFlowText("m.flow.yaml", flow(TWO, "  - in: shop\n    steps:\n      - rules: Click \"Buy\"\n  - in: admin\n    steps:\n      - assert: page shows Paid\n      - rules: Click \"Ship\"\n"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.flow.app).toBe("multi");
    expect(Object.keys(r.flow.apps ?? {})).toEqual(["shop", "admin"]);
    expect(r.flow.apps?.["admin"]?.url.raw).toBe("${ADMIN_URL}/");
    expect(r.flow.steps.map((s) => s.surface)).toEqual(["shop", "admin", "admin"]);
  });
  test.each([
    ["a bad surface name", "  Shop: { app: web, url: http://x/ }\n", "must match [a-z][a-z0-9_-]*"],
    ["a surface without url", "  shop: { app: web }\n", "web surface `shop` needs a `url`"],
    ["a per-surface browser", "  shop: { app: web, url: http://x/, browser: {} }\n", "does not run it on a surface yet"],
    ["a captured url", "  shop: { app: web, url: \"${captured.x}\" }\n", "cannot use ${captured.…}"],
  ])("refuses %s", (_, apps, message) => {
    const r = loadFlowText("m.flow.yaml", flow(apps, "  - in: shop\n    steps:\n      - rules: Click \"Buy\"\n"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => d.message).join("\n")).toContain(message);
  });
  test("refuses repeat/when inside an in: block", () => {
    const r = loadFlowText("m.flow.yaml", flow(TWO, "  - in: shop\n    steps:\n      - when: page shows X\n        steps:\n          - rules: Click \"A\"\n"));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]!.message).toContain("inside an `in:` block are not run");
  });
});
