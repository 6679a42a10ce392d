import { describe, expect, test } from "bun:test";
import { builtinCatalog, loadFlowText, type Diagnostic, type Flow } from "../../test/support/surfaces.ts";

const HEAD = "name: Demo\napp: web\nurl: http://127.0.0.1:3000/";
const STEPS = 'steps:\n  - rules: Click "Save"\n';
const withBlock = (block: string) => `${HEAD}\n${block}\n${STEPS}`;

function loaded(block: string): Flow {
  const r = loadFlowText("a.flow.yaml", withBlock(block));
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.message}`).join("\n"));
  return r.flow;
}

function problems(block: string): readonly Diagnostic[] {
  const r = loadFlowText("a.flow.yaml", withBlock(block));
  if (r.ok) throw new Error("expected problems");
  return r.diagnostics;
}

describe("the web adapter's mock: key", () => {
  test("keeps rules as written, the body as data (the adapter upper-cases the method at launch)", () => {
    const flow = loaded(
      "mock:\n  - url_contains: /api/rates\n    method: get\n    status: 201\n    body: { rate: 1.23 }\n  - url_contains: /hello\n    body: hi\n    content_type: text/html",
    );
    expect(flow.keys?.["mock"]).toEqual([
      { url_contains: "/api/rates", method: "get", status: 201, body: { rate: 1.23 } },
      { url_contains: "/hello", content_type: "text/html", body: "hi" },
    ]);
  });

  test.each([
    ["mock: /api", "bad-value", "`mock` must be a list", 4, 7],
    ["mock:\n  - method: GET", "missing-key", "a mock rule needs `url_contains`", 5, 5],
    ["mock:\n  - url_contains: /a\n    staus: 404", "unknown-key", "unknown key `staus` in a mock rule", 6, 5],
    ["mock:\n  - url_contains: /a\n    status: 700", "bad-value", "`status` must be a whole number from 100 to 599", 6, 13],
    ["mock:\n  - url_contains: /a\n    method: FETCH", "bad-value", "`method` must be one of", 6, 13],
    ["mock:\n  - url_contains: ${API}/a", "bad-reference", "`url_contains` must be written literally", 5, 19],
  ])("%j → %s", (block, code, message, line, column) => {
    const d = problems(block)[0]!;
    expect(d.code).toBe(code as Diagnostic["code"]);
    expect(d.message).toContain(message);
    expect(d.span).toMatchObject({ line, column });
    expect(d.hint).toBeTruthy();
  });

  test("suggests the key that was meant", () => {
    expect(problems("mock:\n  - url_contains: /a\n    staus: 404")[0]!.hint).toContain("did you mean `status`?");
  });
});

describe("the web adapter's session: key", () => {
  test("keeps cookie values and localStorage values as written, references raw", () => {
    const flow = loaded(
      'session:\n  cookies:\n    - { name: sid, value: "${SID}" }\n    - { name: n, value: 42, domain: example.test }\n  local_storage:\n    cart: \'["a"]\'\n    token: ${TOKEN}',
    );
    expect(flow.keys?.["session"]).toEqual({
      cookies: [
        { name: "sid", value: "${SID}" },
        { name: "n", value: 42, domain: "example.test" },
      ],
      local_storage: { cart: '["a"]', token: "${TOKEN}" },
    });
  });

  test.each([
    ["session: admin", "bad-value", "names an entry of a suite's `identities:`", 4, 10],
    ["session:\n  cookie: []", "unknown-key", "unknown key `cookie` in `session`", 5, 3],
    ["session:\n  cookies:\n    - { value: x }", "missing-key", "a session cookie needs `name`", 6, 7],
    ["session:\n  cookies:\n    - { name: 'a b', value: x }", "bad-value", "cannot contain spaces", 6, 15],
    ['session:\n  cookies:\n    - { name: a, value: "${captured.x}" }', "bad-reference", "cannot use ${captured.…}", 6, 25],
    ["session:\n  local_storage: [a]", "bad-value", "`local_storage` must be a mapping", 5, 18],
  ])("%j → %s", (block, code, message, line, column) => {
    const d = problems(block)[0]!;
    expect(d.code).toBe(code as Diagnostic["code"]);
    expect(d.message).toContain(message);
    expect(d.span).toMatchObject({ line, column });
  });
});

describe("the web adapter's browser: key", () => {
  test("keeps every key of the browser block", () => {
    const flow = loaded(
      [
        "browser:",
        "  viewport: { width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true }",
        "  user_agent: my-agent",
        '  args: ["--lang=en-US"]',
        '  clock: { at: "2026-01-15T12:00:00Z", timezone: Europe/Berlin }',
        "  random: { seed: 1234 }",
        "  downloads_dir: downloads",
      ].join("\n"),
    );
    expect(flow.keys?.["browser"]).toEqual({
      viewport: { width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true },
      user_agent: "my-agent",
      args: ["--lang=en-US"],
      clock: { at: "2026-01-15T12:00:00Z", timezone: "Europe/Berlin" },
      random: { seed: 1234 },
      downloads_dir: "downloads",
    });
  });

  test("accepts a grid as a URL or a ${VAR} reference, with extra capabilities", () => {
    expect(loaded("browser:\n  grid: http://127.0.0.1:4444\n  capabilities: { platformName: linux }").keys?.["browser"]).toEqual({
      grid: "http://127.0.0.1:4444",
      capabilities: { platformName: "linux" },
    });
    expect(loaded("browser:\n  grid: ${GRID_URL}").keys?.["browser"]).toEqual({ grid: "${GRID_URL}" });
  });

  test("takes the engine by name: chromium or firefox", () => {
    expect(loaded("browser:\n  name: firefox\n  viewport: { width: 800, height: 600 }").keys?.["browser"]).toEqual({
      name: "firefox",
      viewport: { width: 800, height: 600 },
    });
    expect(loaded("browser:\n  name: chromium\n  args: [--lang=de]").keys?.["browser"]).toEqual({ name: "chromium", args: ["--lang=de"] });
  });

  test("accepts an endpoint as a URL or a ${VAR} reference", () => {
    expect(loaded("browser:\n  endpoint: http://127.0.0.1:9222").keys?.["browser"]).toEqual({ endpoint: "http://127.0.0.1:9222" });
    expect(loaded("browser:\n  endpoint: ${GRID}").keys?.["browser"]).toEqual({ endpoint: "${GRID}" });
  });

  test.each([
    ["browser:\n  viewprt: {}", "unknown-key", "unknown key `viewprt` in `browser`", 5, 3, "did you mean `viewport`?"],
    ["browser:\n  viewport: { width: 390 }", "missing-key", "`viewport` needs `height`", 5, 13, "height"],
    ["browser:\n  viewport: { width: 0, height: 10 }", "bad-value", "`width` must be a whole number from 1 to 10000", 5, 22, "width"],
    [
      "browser:\n  viewport: { width: 10, height: 10, device_scale_factor: 0 }",
      "bad-value",
      "`device_scale_factor` must be a number above 0",
      5,
      59,
      "device_scale_factor",
    ],
    ["browser:\n  viewport: { width: 10, height: 10, mobile: yes }", "bad-value", "`mobile` must be true or false", 5, 46, "mobile: true"],
    ['browser:\n  args: ["--remote-debugging-port=9"]', "bad-value", "is set by flowproof itself", 5, 10, "endpoint"],
    ["browser:\n  args: [lang]", "bad-value", "must be a Chromium flag", 5, 10, "--lang"],
    ["browser:\n  clock: { timezone: UTC }", "missing-key", "`clock` needs `at`", 5, 10, "at:"],
    ['browser:\n  clock: { at: "yesterday" }', "bad-value", "must be an RFC 3339 date and time", 5, 16, "mid-day"],
    ['browser:\n  clock: { at: "${NOW}" }', "bad-reference", "`at` must be written literally", 5, 16, "at:"],
    ['browser:\n  clock: { at: "2026-01-15T12:00:00Z", timezone: Mars/Olympus }', "bad-value", "is not an IANA time zone", 5, 50, "Europe/Berlin"],
    ["browser:\n  random: { seed: -1 }", "bad-value", "`seed` must be a whole number from 0 to 4294967295", 5, 19, "seed"],
    ['browser:\n  random: { seed: "${SEED}" }', "bad-value", "`seed` must be a whole number", 5, 19, "seed"],
    ["browser:\n  endpoint: localhost:9222", "bad-value", "`endpoint` must be a ws://", 5, 13, "http://127.0.0.1:9222"],
    [
      'browser:\n  endpoint: ws://h/x\n  args: ["--lang=de"]',
      "bad-value",
      "`args` cannot be passed to a browser flowproof connects to",
      6,
      3,
      "remove `args:`",
    ],
    ["browser:\n  grid: hub:4444", "bad-value", "`grid` must be the http:// or https:// URL of a Selenium Grid 4", 5, 9, "http://127.0.0.1:4444"],
    ["browser:\n  grid: https://ci:k3y@grid.example", "bad-value", "`grid` carries credentials written literally", 5, 9, "${GRID_URL}"],
    ["browser:\n  grid: http://hub:4444\n  endpoint: ws://h/x", "bad-value", "`grid` and `endpoint` both name where the browser is", 5, 3, "keep `grid:`"],
    [
      'browser:\n  name: firefox\n  args: ["--lang=de"]',
      "bad-value",
      "`args` are Chromium flags; Firefox (`name: firefox`) takes none",
      6,
      3,
      "name: chromium",
    ],
    ["browser:\n  name: firefox\n  grid: http://hub:4444", "bad-value", "not on a Selenium Grid", 6, 3, "name: chromium"],
    [
      "browser:\n  name: firefox\n  viewport: { width: 390, height: 844, mobile: true }",
      "bad-value",
      "`mobile` and `touch` emulation are Chromium's",
      6,
      3,
      "name: chromium",
    ],
    ["browser:\n  name: webkit", "bad-value", '`name` must be "chromium" or "firefox"', 5, 9, "name: firefox"],
  ])("%j → %s", (block, code, message, line, column, hint) => {
    const d = problems(block)[0]!;
    expect(d.code).toBe(code as Diagnostic["code"]);
    expect(d.message).toContain(message);
    expect(d.span).toMatchObject({ line, column });
    expect(d.hint).toContain(hint);
  });

  test("reports every problem of the blocks together", () => {
    const d = problems("browser:\n  viewport: { width: 0, height: 0 }\n  random: { seed: x }\nmock:\n  - statuss: 1");
    expect(d.map((x) => [x.code, x.span?.line])).toEqual([
      ["bad-value", 5],
      ["bad-value", 5],
      ["bad-value", 6],
      ["unknown-key", 8],
      ["missing-key", 8],
    ]);
  });
});

describe("shaping on a non-web app", () => {
  test("is refused naming the app", () => {
    const r = loadFlowText("a.flow.yaml", `name: Demo\napp: desk\nbrowser:\n  user_agent: x\n${STEPS}`, {
      catalog: builtinCatalog([{ kind: "desk", capabilities: ["pointer"] }]),
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]!.code).toBe("unsupported-feature");
    expect(r.diagnostics[0]!.message).toBe("`browser:` belongs to web flows (`app: web`); the flow is `app: desk`");
  });
});

describe("suite defaults", () => {
  const SUITE = {
    file: "suite.yaml",
    values: { browser: { viewport: { width: 390, height: 844 } } },
    maps: { identities: { admin: { cookies: [{ name: "sid", value: "${ADMIN_SID}" }] } } },
  };
  const load = (block: string, app = "web") =>
    loadFlowText(
      "a.flow.yaml",
      `name: Demo\napp: ${app}\n${app === "web" ? "url: http://127.0.0.1:3000/\n" : ""}${block}\n${app === "web" ? STEPS : "steps:\n  - assert_api: { request: GET http://x/ }\n"}`,
      { plainStepsAreRules: true, suite: SUITE, structuredKinds: new Map([["assert_api", { schema: { type: "object" } }]]) },
    );

  test("session: <name> becomes the identity's shape, values raw", () => {
    const r = load("session: admin");
    expect(r.ok && r.flow.keys?.["session"]).toEqual({ cookies: [{ name: "sid", value: "${ADMIN_SID}" }] });
  });
  test("an unknown name lists the declared identities", () => {
    const r = load("session: admn");
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.diagnostics[0]).toMatchObject({
        message: "no entry `admn` in the `identities:` of suite.yaml",
        hint: "did you mean `admin`? declared identities: admin",
        span: { line: 4, column: 10 },
      });
  });
  test("a web flow without browser: gets the suite's; its own block wins outright", () => {
    const r = load("session: admin");
    expect(r.ok && r.flow.keys?.["browser"]).toEqual({ viewport: { width: 390, height: 844 } });
    const own = load("browser:\n  user_agent: mine");
    expect(own.ok && own.flow.keys?.["browser"]).toEqual({ user_agent: "mine" });
  });
  test("an api flow gets no browser from the suite", () => {
    const r = load("", "api");
    expect(r.ok && r.flow.keys?.["browser"]).toBeUndefined();
  });
});
