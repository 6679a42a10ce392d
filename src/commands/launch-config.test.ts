import { describe, expect, test } from "bun:test";
import { desktopAppInfo, desktopConfig, launchConfig, shapingOf } from "./launch-config.ts";
import { loadFlowText, type Flow } from "../spec/flow.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";

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

function flow(): Flow {
  const r = loadFlowText("/p/a.flow.yaml", FLOW);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
  return r.flow;
}

describe("shapingOf", () => {
  test("copies the blocks as written, references raw", () => {
    expect(shapingOf(flow())).toEqual({
      mock: [{ url_contains: "/api", body: { ok: true } }],
      session: { cookies: [{ name: "sid", value: "${SID}" }], local_storage: { token: "Bearer ${TOKEN}" } },
      browser: { viewport: { width: 390, height: 844 }, downloads_dir: "out/downloads", endpoint: "${GRID}" },
    });
  });

  test("is empty for a flow without blocks", () => {
    const r = loadFlowText("a.flow.yaml", "name: x\napp: web\nurl: http://x/\nsteps:\n  - assert: page shows x\n");
    expect(r.ok && shapingOf(r.flow)).toEqual({});
  });
});

describe("launchConfig", () => {
  test("resolves session values and the endpoint now, remembering them as secrets, and makes downloads_dir absolute", () => {
    const secrets = new Map<string, string>();
    const config = launchConfig(shapingOf(flow()), "/p/a.flow.yaml", { SID: "abc123", TOKEN: "t0k", GRID: "ws://h:1/x" }, secrets);
    expect(config).toEqual({
      viewport: { width: 390, height: 844 },
      downloads_dir: "/p/out/downloads",
      endpoint: "ws://h:1/x",
      mock: [{ url_contains: "/api", body: { ok: true } }],
      session: { cookies: [{ name: "sid", value: "abc123" }], local_storage: { token: "Bearer t0k" } },
    });
    expect([...secrets.keys()].sort()).toEqual(["GRID", "SID", "TOKEN"]);
  });

  test("fails closed on an unset variable, naming it", () => {
    expect(() => launchConfig(shapingOf(flow()), "/p/a.flow.yaml", { TOKEN: "t", GRID: "ws://h/x" }, new Map())).toThrow(UnresolvedReferenceError);
    expect(() => launchConfig(shapingOf(flow()), "/p/a.flow.yaml", { TOKEN: "t", GRID: "ws://h/x" }, new Map())).toThrow("${SID} is not set");
  });
});

describe("a Windows app's launch config", () => {
  test("command and window title as written go into the header; ${VAR}s resolve only into the config", () => {
    const loaded = loadFlowText("w.flow.yaml", "name: W\napp: {command: \"app.exe --user ${APP_USER}\", window_title: \"App ${APP_USER}\"}\nwindow: {width: 640, height: 480}\nsteps:\n  - rules: Type x\n", { plainStepsAreRules: true, platform: "win32" });
    if (!loaded.ok) throw new Error(loaded.diagnostics[0]?.message);
    const info = desktopAppInfo(loaded.flow);
    expect(info).toEqual({ command: "app.exe --user ${APP_USER}", window_title: "App ${APP_USER}", geometry: { width: 640, height: 480 } });
    const secrets = new Map<string, string>();
    expect(desktopConfig({ ...info, backend: "win32" }, { APP_USER: "ada" }, secrets)).toEqual({ command: "app.exe --user ada", window_title: "App ada", window: { width: 640, height: 480 }, backend: "win32" });
    expect([...secrets.values()]).toContain("ada");
  });

  test("a web flow has no desktop facts", () => {
    expect(desktopAppInfo({})).toEqual({});
    expect(desktopConfig({}, {}, new Map())).toEqual({});
  });
});
