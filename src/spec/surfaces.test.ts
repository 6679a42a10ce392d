import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";

const flow = (apps: string, steps: string) => `name: M\napps:\n${apps}steps:\n${steps}`;
const TWO = '  shop: { app: web, url: http://127.0.0.1:1/ }\n  admin: { app: web, url: "${ADMIN_URL}/" }\n';

describe("apps: and in: blocks", () => {
  test("a multi-surface flow: app is multi, every step carries its surface", () => {
    const r = loadFlowText(
      "m.flow.yaml",
      flow(
        TWO,
        '  - in: shop\n    steps:\n      - rules: Click "Buy"\n  - in: admin\n    steps:\n      - assert: page shows Paid\n      - rules: Click "Ship"\n',
      ),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.flow.app).toBe("multi");
    expect(Object.keys(r.flow.apps ?? {})).toEqual(["shop", "admin"]);
    const admin = r.flow.apps?.["admin"];
    expect(admin?.url?.raw).toBe("${ADMIN_URL}/");
    expect(r.flow.steps.map((s) => s.surface)).toEqual(["shop", "admin", "admin"]);
  });
  test.each([
    ["a bad surface name", "  Shop: { app: web, url: http://x/ }\n", "must match [a-z][a-z0-9_-]*"],
    ["a surface without url", "  shop: { app: web }\n", "web surface `shop` needs a `url`"],
    [
      "a per-surface window on a web surface",
      "  shop: { app: web, url: http://x/, window: {} }\n",
      "`window:` sizes a desktop window; a web flow sizes its page with the browser's viewport",
    ],
    ["a bad per-surface browser", "  shop: { app: web, url: http://x/, browser: { viewport: { width: 0 } } }\n", "viewport"],
    ["an api surface with a url", "  shop: { app: api, url: http://x/ }\n", "api surface `shop` has no start page"],
    [
      "an api surface with a browser",
      "  shop: { app: api, browser: { user_agent: x } }\n",
      "`apps.shop.browser` belongs to web flows (`app: web`); surface `shop` is `app: api`",
    ],
    ["a vision surface without its window", "  shop: { app: vision }\n", "surface `shop` needs `window`"],
    ["a vision surface with a start page", "  shop: { app: vision, window: { title: Payments }, url: http://x/ }\n", "vision surface `shop` has no start page"],
    ["a captured url", '  shop: { app: web, url: "${captured.x}" }\n', "cannot use ${captured.…}"],
  ])("refuses %s", (_, apps, message) => {
    const r = loadFlowText("m.flow.yaml", flow(apps, '  - in: shop\n    steps:\n      - rules: Click "Buy"\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => d.message).join("\n")).toContain(message);
  });
  test("a surface that does not load is reported once: its in: blocks are not reported as undeclared", () => {
    const r = loadFlowText(
      "m.flow.yaml",
      flow("  shop: { app: web }\n", '  - in: shop\n    steps:\n      - rules: Click "Buy"\n  - in: shop\n    steps:\n      - rules: Click "Pay"\n'),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => d.message)).toEqual(["web surface `shop` needs a `url`"]);
  });
  test("Windows app surfaces: notepad, calc and a program whose command takes a capture of an earlier block, with their geometry; steps parse as the app's", () => {
    const apps = [
      "  shop: { app: web, url: http://127.0.0.1:1/ }",
      '  gui: { app: {command: \'"C:\\\\Apps\\\\client.exe" --order ${captured.order}\', window_title: "Order ${captured.order}"}, window: {width: 800, height: 600, x: 0, y: 0} }',
      "  notes: { app: notepad }",
      "",
    ].join("\n");
    const steps =
      '  - in: shop\n    steps:\n      - rules: Remember the "Order" as order\n  - in: gui\n    steps:\n      - rules: Right-click "id:112"\n      - rules: Press F5\n  - in: notes\n    steps:\n      - assert: document contains ${captured.order}\n';
    const r = loadFlowText("m.flow.yaml", flow(apps, steps), { plainStepsAreRules: true, platform: "win32" });
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    expect(r.flow.apps?.["gui"]).toEqual({
      app: "windows",
      keys: {
        command: '"C:\\\\Apps\\\\client.exe" --order ${captured.order}',
        window_title: "Order ${captured.order}",
        window: { width: 800, height: 600, x: 0, y: 0 },
      },
    });
    expect(r.flow.apps?.["notes"]).toEqual({ app: "notepad", keys: {} });
    expect(r.flow.steps.map((st) => st.surface)).toEqual(["shop", "gui", "gui", "notes"]);
  });
  test("refuses bad Windows app surfaces at load, each at its key, with what to write", () => {
    const apps = [
      "  gui: { app: {command: a.exe, window_titel: A}, window: {width: 800, heigth: 600} }",
      "  notes: { app: notepad, url: http://x/, window: {width: 800} }",
      "  prog: { app: windows }",
      "",
    ].join("\n");
    const steps = "  - in: gui\n    steps:\n      - rules: Type x\n";
    const r = loadFlowText("m.flow.yaml", flow(apps, steps), { plainStepsAreRules: true, platform: "win32" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const surfaceProblems = r.diagnostics.filter((d) => !d.message.startsWith("`in:` blocks need"));
    expect(surfaceProblems.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message} | ${d.hint}`)).toEqual([
      "3:32 unknown-key unknown key `window_titel` in `apps.gui.app`: a Windows program is `{command, window_title}` | did you mean `window_title`?",
      "3:71 unknown-key unknown key `heigth` in `apps.gui.window` | did you mean `height`? `apps.gui.window` takes: width, height, x, y",
      "4:26 bad-value notepad surface `notes` has no start page, so it takes no `url` | remove `url:`; the program is started from `app:`",
      "4:50 bad-value `apps.notes.window` gives `width` without `height`; a size needs both | window: {width: 800, height: 600}",
      "5:16 bad-value surface `prog`: a Windows program is written as its keys, `app: {command, window_title}` | app: {command: …, window_title: …}",
    ]);
    // In a Windows app surface's block, the Windows grammar subset applies.
    const grammar = loadFlowText(
      "m.flow.yaml",
      flow("  gui: { app: {command: a.exe, window_title: A} }\n", '  - in: gui\n    steps:\n      - rules: Hover over "A"\n      - rules: Click "css:#a"\n'),
      { plainStepsAreRules: true, platform: "win32" },
    );
    expect(grammar.ok ? [] : grammar.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`)).toEqual([
      "7:16 unsupported-step `Hover over` cannot be done on a Windows program: a desktop window has no page to go to, reload or resize, no hover and no file input.",
      "8:22 unsupported-step A `css:` selector cannot be used on a Windows program: it has no CSS selectors (grammar form `css`).",
    ]);
  });
  test("a Windows app surface on another OS requires Windows, exit-2 class error at the app's value", () => {
    const r = loadFlowText(
      "m.flow.yaml",
      flow("  notes: { app: notepad }\n  gui: { app: {command: a.exe, window_title: A} }\n", "  - in: notes\n    steps:\n      - rules: Type x\n"),
      { plainStepsAreRules: true, platform: "linux" },
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(
      r.diagnostics.filter((d) => !d.message.startsWith("`in:` blocks need")).map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`),
    ).toEqual([
      "3:17 unsupported-platform `apps.notes.app: notepad` requires Windows; this machine runs linux",
      "4:15 unsupported-platform `apps.gui.app: {command, window_title}` requires Windows; this machine runs linux",
    ]);
  });
  test("repeat, when and foreach inside an in: block run on its surface: the blocks and their steps carry it", () => {
    const steps = [
      "  - in: shop",
      "    steps:",
      '      - rules: Click "Buy"',
      "  - in: admin",
      "    steps:",
      "      - when: page shows Pending",
      "        steps:",
      '          - rules: Click "Approve"',
      "      - repeat:",
      "          until: page shows Done",
      "          max: 3",
      "          steps:",
      '            - rules: Click "Refresh"',
      "      - foreach:",
      "          values: [a, b]",
      "          steps:",
      '            - rules: Click "${each}"',
      "",
    ].join("\n");
    const r = loadFlowText("m.flow.yaml", flow(TWO, steps));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    expect(r.flow.steps.map((s) => [s.text, s.surface])).toEqual([
      ['Click "Buy"', "shop"],
      ['Click "Approve"', "admin"],
      ['Click "Refresh"', "admin"],
      ['Click "a"', "admin"],
      ['Click "b"', "admin"],
    ]);
    const blocks = r.flow.body.filter((n) => n.kind !== "step");
    expect(blocks.map((b) => [b.kind, "surface" in b ? b.surface : undefined])).toEqual([
      ["when", "admin"],
      ["repeat", "admin"],
    ]);
  });
  test("refuses a condition block in an api surface's in: block, and a foreach inside a when", () => {
    const api = loadFlowText(
      "m.flow.yaml",
      flow(
        "  backend: { app: api }\n",
        "  - in: backend\n    steps:\n      - when: page shows X\n        steps:\n          - assert_api: { url: http://x/ }\n",
      ),
    );
    expect(api.ok).toBe(false);
    if (!api.ok) expect(api.diagnostics.map((d) => d.message).join("\n")).toContain("it has no screen, and a `when:` condition reads the screen");
    const nested = loadFlowText(
      "m.flow.yaml",
      flow(
        TWO,
        '  - in: shop\n    steps:\n      - when: page shows X\n        steps:\n          - foreach:\n              values: [a]\n              steps:\n                - rules: Click "${each}"\n',
      ),
    );
    expect(nested.ok).toBe(false);
    if (!nested.ok) expect(nested.diagnostics[0]!.message).toContain("not inside a `repeat:` or `when:` block");
  });
});

const KINDS = new Map([
  ["assert_api", { schema: { type: "object" } }],
  ["assert_screenshot", { schema: { type: "object" }, needs: ["screenshot"] }],
]);
const OPTIONS = {
  plainStepsAreRules: true,
  structuredKinds: KINDS,
  appCapabilities: new Map([
    ["web", ["screenshot"]],
    ["api", []],
  ]),
};
const WEB_API = "  shop: { app: web, url: http://127.0.0.1:1/, browser: { viewport: { width: 400, height: 300 } } }\n  backend: { app: api }\n";

describe("api surfaces and per-surface browser", () => {
  test("an api surface needs no url; its structured steps carry the surface", () => {
    const r = loadFlowText(
      "m.flow.yaml",
      flow(
        WEB_API,
        '  - in: shop\n    steps:\n      - rules: Click "Buy"\n      - assert_screenshot: { name: cart }\n  - in: backend\n    steps:\n      - assert_api: { url: "http://x/${captured.id}" }\n',
      ),
      OPTIONS,
    );
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    expect(r.flow.apps?.["backend"]).toEqual({ app: "api", keys: {} });
    expect(r.flow.apps?.["shop"]).toMatchObject({ app: "web", keys: { browser: { viewport: { width: 400, height: 300 } } } });
    expect(r.flow.steps.map((s) => [s.form, s.surface])).toEqual([
      ["rules", "shop"],
      ["structured", "shop"],
      ["structured", "backend"],
    ]);
  });
  test.each([
    ["a text step in an api block", '      - rules: Click "Buy"\n', "surface `backend` is `app: api`: it has no UI"],
    ["an assert step in an api block", "      - assert: page shows Paid\n", "surface `backend` is `app: api`: it has no UI"],
    ["assert_screenshot in an api block", "      - assert_screenshot: { name: x }\n", "which the `app: api` surface `backend` does not have"],
    ["assert_no_secret_leak in a multi-surface flow", "      - assert_no_secret_leak: ${TOKEN}\n", "refused in multi-surface flows"],
  ])("refuses %s at load", (_, step, message) => {
    const r = loadFlowText("m.flow.yaml", flow(WEB_API, `  - in: backend\n    steps:\n${step}`), OPTIONS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics.map((d) => d.message).join("\n")).toContain(message);
  });
});
