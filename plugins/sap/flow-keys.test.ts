import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { withEnvironment } from "./flow-keys.ts";

/** A flow of `app` with `yaml` as its keys (lines 3 on), loaded on Windows: its keys as written, and its problems. */
function load(yaml: string, app = "sap") {
  const text = `name: n\napp: ${app}\n${app === "web" ? "url: http://127.0.0.1/\n" : ""}${yaml}steps:\n  - Go to VA01\n`;
  const r = loadFlowText("f.flow.yaml", text, { platform: "win32" });
  return r.ok
    ? { keys: r.flow.keys ?? {}, problems: [] }
    : { keys: undefined, problems: r.diagnostics.map((d) => [d.code, d.message, (d.span?.line ?? 0) - (app === "web" ? 3 : 2), d.span?.column]) };
}

describe("SAP GUI's keys", () => {
  test("connection and a login of literals and ${VAR}s, kept as written", () => {
    const { keys, problems } = load('connection: "TS3 - Test System"\nlogin: {user: clerk, password: "${CLERK_PW}", client: 100, language: EN}\n');
    expect(problems).toEqual([]);
    expect(keys).toEqual({ connection: "TS3 - Test System", login: { user: "clerk", password: "${CLERK_PW}", client: 100, language: "EN" } });
  });

  test("attach-only: neither key", () => {
    expect(load("")).toEqual({ keys: {}, problems: [] });
  });

  test.each<[string, string, (string | number | undefined)[]]>([
    [
      "login without connection",
      "login: {user: a, password: b}\n",
      ["missing-key", "`login:` needs `connection:`: flowproof logs on only in a connection it opens itself, never in someone else's session", 1, 1],
    ],
    ["an empty password", 'connection: TS3\nlogin: {user: a, password: ""}\n', ["bad-value", "`password` must be a non-empty string", 2, 28]],
    ["no user", "connection: TS3\nlogin: {password: b}\n", ["missing-key", "`login` needs `user`", 2, 8]],
    ["an unknown login key", "connection: TS3\nlogin: {user: a, password: b, pin: 1}\n", ["unknown-key", "unknown key `pin` in `login`", 2, 31]],
    [
      "a capture in the login",
      'connection: TS3\nlogin: {user: "${captured.u}", password: b}\n',
      ["bad-reference", "`login.user` cannot use ${captured.…}: it is used when the flow starts, before any step has run", 2, 15],
    ],
    ["login as a string", "connection: TS3\nlogin: clerk\n", ["bad-value", "`login` must be a mapping", 2, 8]],
    ["an empty connection", 'connection: ""\n', ["bad-value", "`connection` must be a non-empty string", 1, 13]],
  ])("refuses %s", (_name, yaml, problem) => {
    expect(load(yaml).problems).toEqual([problem]);
  });

  test("on another app kind both keys are refused by name", () => {
    expect(load("connection: TS3\nlogin: {user: a, password: b}\n", "web").problems).toEqual([
      ["unsupported-feature", "`connection:` belongs to SAP GUI (`app: sap`); the flow is `app: web`", 1, 1],
      ["unsupported-feature", "`login:` belongs to SAP GUI (`app: sap`); the flow is `app: web`", 2, 1],
    ]);
  });
});

describe("withEnvironment", () => {
  test("names the user reference of the flow's login", () => {
    expect(
      withEnvironment(
        { connection: "TS3", login: { user: "clerk", password: "pw" } },
        { env: {}, written: { connection: "${SAP_CONNECTION}", login: { user: "${CLERK}" } } },
      ),
    ).toEqual({
      connection: "TS3",
      connection_ref: "${SAP_CONNECTION}",
      login: { user: "clerk", password: "pw" },
      user_ref: "${CLERK}",
    });
  });

  test("without login: SAP_USER and SAP_PASSWORD, with SAP_CLIENT and SAP_LANGUAGE; the password hidden", () => {
    const secrets = new Map<string, string>();
    const env = {
      SAP_USER: "u",
      SAP_PASSWORD: "canary-env",
      SAP_CLIENT: "200",
      SAP_LANGUAGE: "DE",
      SAP_LOGON_EXE: "C:\\s.exe",
      FLOWPROOF_SAP_CONNECT_TIMEOUT_MS: "5000",
    };
    expect(withEnvironment({ connection: "TS3" }, { env, written: { connection: "TS3" }, secret: (n, v) => void secrets.set(n, v) })).toEqual({
      connection: "TS3",
      connection_ref: "TS3",
      login: { user: "u", password: "canary-env", client: "200", language: "DE" },
      user_ref: "${SAP_USER}",
      logon_exe: "C:\\s.exe",
      connect_timeout_ms: 5000,
    });
    expect(secrets.get("SAP_PASSWORD")).toBe("canary-env");
  });

  test("SAP_USER without SAP_PASSWORD passes the user reference and no login, so the adapter names the missing password", () => {
    expect(withEnvironment({ connection: "TS3" }, { env: { SAP_USER: "u" }, written: { connection: "TS3" } })).toEqual({
      connection: "TS3",
      connection_ref: "TS3",
      user_ref: "${SAP_USER}",
    });
  });

  test("attach-only takes no credentials from the environment", () => {
    expect(withEnvironment({}, { env: { SAP_USER: "u", SAP_PASSWORD: "p" } })).toEqual({});
  });

  test("a bad FLOWPROOF_SAP_CONNECT_TIMEOUT_MS is refused", () => {
    expect(() => withEnvironment({}, { env: { FLOWPROOF_SAP_CONNECT_TIMEOUT_MS: "soon" } })).toThrow(
      "FLOWPROOF_SAP_CONNECT_TIMEOUT_MS must be a positive whole number",
    );
  });
});

describe("SAP GUI needs Windows at load", () => {
  const problems = (yaml: string, platform: string): string[] => {
    const r = loadFlowText("f.flow.yaml", yaml, { platform });
    return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
  };
  const single = "name: n\napp: sap\nconnection: TS3\nsteps:\n  - Go to VA01\n";
  const surfaces =
    "name: n\napps:\n  shop: { app: web, url: http://127.0.0.1/ }\n  clerk: { app: sap, connection: TS3 }\nsteps:\n  - in: clerk\n    steps:\n      - Go to VA01\n";

  test("`app: sap` on Linux is unsupported-platform at the app line", () => {
    expect(problems(single, "linux")).toEqual([
      "2:6 unsupported-platform `app: sap` requires Windows: SAP GUI Scripting runs only with SAP GUI for Windows; this machine runs linux",
    ]);
  });

  test("each sap surface on another OS is refused at its app value", () => {
    expect(problems(surfaces, "darwin")).toEqual([
      "4:17 unsupported-platform `apps.clerk.app: sap` requires Windows: SAP GUI Scripting runs only with SAP GUI for Windows; this machine runs darwin",
    ]);
  });

  test("on Windows, and when no platform is given, both load", () => {
    expect(problems(single, "win32")).toEqual([]);
    expect(problems(surfaces, "win32")).toEqual([]);
    expect(loadFlowText("f.flow.yaml", single).ok).toBe(true);
  });
});
