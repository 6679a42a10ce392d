import { describe, expect, test } from "bun:test";
import { launchOf, recordedKeys, topFieldNames } from "./launch-config.ts";
import type { Flow } from "../spec/flow.ts";
import { builtinCatalog, loadFlowText } from "../../test/support/surfaces.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";
import { TraceError } from "../diagnostics/diagnostic.ts";
import { confinedTo } from "../plugins/file-paths.ts";

const catalog = builtinCatalog();
const kind = (name: string) => catalog.kinds.get(name)!;

const FLOW = `name: Shaped
app: web
url: http://127.0.0.1:3000/
mock:
  - { url_contains: /api, body: { ok: true } }
session:
  cookies:
    - { name: sid, value: "\${SID}" }
  local_storage: { token: "Bearer \${TOKEN}" }
browser:
  viewport: { width: 390, height: 844 }
  downloads_dir: out/downloads
  endpoint: \${GRID}
steps:
  - assert: page shows x
`;

function flow(text = FLOW, platform?: string): Flow {
  const r = loadFlowText("/p/a.flow.yaml", text, platform ? { platform } : {});
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
  return r.flow;
}

describe("recordedKeys", () => {
  test("copies a web flow's blocks as written beside `app`, references raw", () => {
    expect(recordedKeys(kind("web"), flow().keys, true)).toEqual({
      entry: {},
      top: {
        mock: [{ url_contains: "/api", body: { ok: true } }],
        session: { cookies: [{ name: "sid", value: "${SID}" }], local_storage: { token: "Bearer ${TOKEN}" } },
        browser: { viewport: { width: 390, height: 844 }, downloads_dir: "out/downloads", endpoint: "${GRID}" },
      },
    });
  });

  test("on a surface the recorded keys sit in its entry", () => {
    expect(recordedKeys(kind("web"), { browser: { user_agent: "x" } }, false)).toEqual({ entry: { browser: { user_agent: "x" } }, top: {} });
  });

  test("records a Windows program's command and title, and `window:` as its geometry", () => {
    const keys = flow(
      'name: W\napp: {command: "app.exe --user ${APP_USER}", window_title: "App ${APP_USER}"}\nwindow: {width: 640, height: 480}\nsteps:\n  - rules: Type x\n',
      "win32",
    ).keys;
    expect(recordedKeys(kind("windows"), keys, true)).toEqual({
      entry: { command: "app.exe --user ${APP_USER}", window_title: "App ${APP_USER}", geometry: { width: 640, height: 480 } },
      top: {},
    });
  });

  test("records a login's user under its own name and never its password", () => {
    const keys = { connection: "${SAP_CONNECTION}", login: { user: "clerk", password: "${CLERK_PW}", client: "100" } };
    const recorded = recordedKeys(kind("sap"), keys, true);
    expect(recorded).toEqual({ entry: { connection: "${SAP_CONNECTION}", login_user: "clerk" }, top: {} });
    expect(JSON.stringify(recorded)).not.toContain("CLERK_PW");
  });

  test("the header fields beside `app` adapters record into", () => {
    expect(topFieldNames(catalog).sort()).toEqual(["browser", "mock", "session"]);
  });
});

describe("launchOf", () => {
  test("a key of several forms takes the roles of the form its value has: vision's window as an object keeps its numbers, as a string is a title", () => {
    const vision = flow(
      'name: V\napp: vision\nwindow: {title: "Pay ${WHO}", width: 700, height: 480, x: 0, y: 0}\nsteps:\n  - rules: Click "Save"\n',
      "linux",
    ).keys;
    const ctx = { flowPath: "/p/a.flow.yaml", env: { WHO: "Ada" }, secrets: new Map<string, string>() };
    const open = (keys: typeof vision) => {
      const recorded = recordedKeys(kind("vision"), keys, true);
      return launchOf(
        kind("vision"),
        { entry: { name: "vision", adapter: "vision", ...recorded.entry }, top: recorded.top, spec: keys, where: "the flow" },
        ctx,
      ).config["window"];
    };
    expect(open(vision)).toEqual({ title: "Pay Ada", width: 700, height: 480, x: 0, y: 0 });
    expect(open(flow('name: V\napp: vision\nwindow: "Pay ${WHO}"\nsteps:\n  - rules: Click "Save"\n', "linux").keys)).toBe("Pay Ada");
  });

  test("resolves session values and the endpoint now, remembering them as secrets, and makes downloads_dir absolute", () => {
    const secrets = new Map<string, string>();
    const top = recordedKeys(kind("web"), flow().keys, true).top;
    const launch = launchOf(
      kind("web"),
      { entry: { name: "web", adapter: "web" }, top, spec: {}, where: "the flow" },
      { flowPath: "/p/a.flow.yaml", env: { SID: "abc123", TOKEN: "t0k", GRID: "ws://h:1/x" }, secrets },
    );
    expect(launch.config).toEqual({
      browser: { viewport: { width: 390, height: 844 }, downloads_dir: "/p/out/downloads", endpoint: "ws://h:1/x" },
      mock: [{ url_contains: "/api", body: { ok: true } }],
      session: { cookies: [{ name: "sid", value: "abc123" }], local_storage: { token: "Bearer t0k" } },
    });
    expect([...secrets.keys()].sort()).toEqual(["GRID", "SID", "TOKEN"]);
  });

  test("a confined run refuses a path key (downloads_dir) outside its root, naming the key, the path and the root", async () => {
    const top = recordedKeys(kind("web"), flow(FLOW.replace("downloads_dir: out/downloads", "downloads_dir: ../../etc/cron.d")).keys, true).top;
    const resolving = { flowPath: "/p/a.flow.yaml", env: { SID: "a", TOKEN: "b", GRID: "ws://h:1/x" }, secrets: new Map<string, string>() };
    await confinedTo("/p", async () => {
      expect(() => launchOf(kind("web"), { entry: { name: "web", adapter: "web" }, top, spec: {}, where: "the flow" }, resolving)).toThrow(
        '`browser.downloads_dir` "/etc/cron.d" is outside the root (/p)',
      );
    });
    expect(launchOf(kind("web"), { entry: { name: "web", adapter: "web" }, top, spec: {}, where: "the flow" }, resolving).config["browser"]).toMatchObject({
      downloads_dir: "/etc/cron.d",
    });
  });

  test("fails closed on an unset variable, naming it", () => {
    const top = recordedKeys(kind("web"), flow().keys, true).top;
    const open = () =>
      launchOf(
        kind("web"),
        { entry: { name: "web", adapter: "web" }, top, spec: {}, where: "the flow" },
        { flowPath: "/p/a.flow.yaml", env: { TOKEN: "t", GRID: "ws://h/x" }, secrets: new Map() },
      );
    expect(open).toThrow(UnresolvedReferenceError);
    expect(open).toThrow("${SID} is not set");
  });

  test("a Windows program opens from the header; the recorded backend reaches its context, not its keys", () => {
    const secrets = new Map<string, string>();
    const entry = {
      name: "windows",
      adapter: "windows",
      command: "app.exe --user ${APP_USER}",
      window_title: "App ${APP_USER}",
      geometry: { width: 640, height: 480 },
      backend: "win32",
    };
    const launch = launchOf(
      kind("windows"),
      { entry, top: {}, spec: { command: "edited.exe" }, where: "the flow" },
      { flowPath: "/p/w.flow.yaml", env: { APP_USER: "ada" }, secrets },
    );
    expect(launch.config).toEqual({ command: "app.exe --user ada", window_title: "App ada", window: { width: 640, height: 480 } });
    expect(launch.context.recorded).toEqual({ backend: "win32" });
    expect([...secrets.values()]).toContain("ada");
  });

  test("a login's password comes from the spec at every launch, a literal one hidden like a ${VAR}", () => {
    const secrets = new Map<string, string>();
    const spec = { connection: "${SAP_CONNECTION}", login: { user: "clerk", password: "literal-canary", client: 100 } };
    const launch = launchOf(
      kind("sap"),
      { entry: { name: "sap", adapter: "sap", connection: "${SAP_CONNECTION}", login_user: "clerk" }, top: {}, spec, where: "the flow" },
      { flowPath: "/p/s.flow.yaml", env: { SAP_CONNECTION: "TS3" }, secrets },
    );
    expect(launch.config).toEqual({ connection: "TS3", login: { user: "clerk", password: "literal-canary", client: "100" } });
    expect(launch.context.written).toEqual(spec);
    expect(secrets.get("login.password")).toBe("literal-canary");
  });

  test("a login user changed since recording needs a new recording", () => {
    const open = (login_user?: string) => () =>
      launchOf(
        kind("sap"),
        {
          entry: { name: "sap", adapter: "sap", connection: "TS3", ...(login_user ? { login_user } : {}) },
          top: {},
          spec: { connection: "TS3", login: { user: "clerk", password: "p" } },
          where: "the flow",
        },
        { flowPath: "/p/s.flow.yaml", env: {}, secrets: new Map() },
      );
    expect(open("approver")).toThrow(TraceError);
    expect(open("approver")).toThrow("the flow's `login.user` is `clerk` but the trace was recorded with `approver`");
    expect(open()).toThrow("recorded without one");
  });

  test("a secret inside a union is resolved and hidden; a reference left unresolved stops the launch naming its key", () => {
    const secret = { type: "string", flowproof: { secret: true, references: "env" } };
    const inventory = {
      kind: "inventory",
      capabilities: [],
      keys: {
        schema: {
          type: "object",
          properties: {
            sign_on: { anyOf: [{ type: "object", properties: { user: { type: "string" }, password: secret } }, { type: "string" }] },
            note: { type: "string" },
          },
        },
      },
    } as never;
    const secrets = new Map<string, string>();
    const open = (spec: Record<string, unknown>) =>
      launchOf(
        inventory,
        { entry: { name: "inventory", adapter: "inventory" }, top: {}, spec, where: "the flow" },
        { flowPath: "/p/i.flow.yaml", env: { INV_PASSWORD: "pw-canary" }, secrets },
      );
    expect(open({ sign_on: { user: "clerk", password: "${INV_PASSWORD}" } }).config).toEqual({ sign_on: { user: "clerk", password: "pw-canary" } });
    expect([...secrets.values()]).toContain("pw-canary");
    expect(() => open({ note: "${INV_NOTE}" })).toThrow(UnresolvedReferenceError);
    expect(() => open({ note: "${INV_NOTE}" })).toThrow("the flow's `note` still holds `${INV_NOTE}` when the app starts");
  });

  test("an agent's keys stay as written at launch: they are its execution's arguments, resolved when it runs", () => {
    const spec = { agent: { command: "bun agent.ts", env: { TOKEN: "${AGENT_TOKEN}" } } };
    const launch = launchOf(
      kind("agent"),
      { entry: { name: "agent", adapter: "agent" }, top: {}, spec, where: "the flow" },
      { flowPath: "/p/a.flow.yaml", env: {}, secrets: new Map() },
    );
    expect(launch.config).toEqual(spec);
  });
});
