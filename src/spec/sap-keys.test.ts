import { describe, expect, test } from "bun:test";
import { parseYaml, isMap, keyName, type Node } from "./yaml.ts";
import { loadSapKeys, type KeyPair } from "./sap-keys.ts";
import { loadFlowText } from "./flow.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";

function load(yaml: string, app = "sap") {
  const { source } = parseYaml("f.flow.yaml", yaml);
  const root = source.doc.contents;
  if (!isMap(root)) throw new Error("not a map");
  const pair = (k: string): KeyPair | undefined => {
    const p = root.items.find((i) => keyName(i) === k);
    return p ? { key: p.key as Node, value: p.value as Node | null } : undefined;
  };
  const problems: Diagnostic[] = [];
  const keys = loadSapKeys(source, pair("connection"), pair("login"), app, "the flow", problems);
  return { keys, problems: problems.map((d) => [d.code, d.message, d.span?.line, d.span?.column]) };
}

describe("loadSapKeys", () => {
  test("connection and a login of literals and ${VAR}s, kept as written", () => {
    const { keys, problems } = load('connection: "TS3 - Test System"\nlogin: {user: clerk, password: "${CLERK_PW}", client: 100, language: EN}\n');
    expect(problems).toEqual([]);
    expect(keys.connection?.raw).toBe("TS3 - Test System");
    expect(keys.login?.user.raw).toBe("clerk");
    expect(keys.login?.password.parts).toEqual([{ kind: "env", name: "CLERK_PW" }]);
    expect(keys.login?.client?.raw).toBe("100");
  });

  test("attach-only: neither key", () => {
    expect(load("name: x\n")).toEqual({ keys: {}, problems: [] });
  });

  test.each<[string, string, (string | number | undefined)[]]>([
    ["login without connection", "login: {user: a, password: b}\n", ["missing-key", "`login:` needs `connection:`: flowproof logs on only in a connection it opens itself, never in someone else's session", 1, 1]],
    ["an empty password", "connection: TS3\nlogin: {user: a, password: \"\"}\n", ["bad-value", "`login.password` must be a non-empty string", 2, 28]],
    ["no user", "connection: TS3\nlogin: {password: b}\n", ["missing-key", "`login` needs a non-empty `user`", 2, 1]],
    ["an unknown login key", "connection: TS3\nlogin: {user: a, password: b, pin: 1}\n", ["unknown-key", "unknown key `pin` in `login`", 2, 31]],
    ["a capture in the login", "connection: TS3\nlogin: {user: \"${captured.u}\", password: b}\n", ["bad-reference", "`login.user` is needed before any step runs, so it cannot use ${captured.…} or ${each}", 2, 15]],
    ["login as a string", "connection: TS3\nlogin: clerk\n", ["bad-value", "`login` must be a mapping with `user` and `password`", 2, 8]],
    ["an empty connection", "connection: \"\"\n", ["bad-value", "`connection` must be a non-empty string", 1, 13]],
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

describe("SAP GUI needs Windows at load", () => {
  const problems = (yaml: string, platform: string): string[] => {
    const r = loadFlowText("f.flow.yaml", yaml, { plainStepsAreRules: true, platform });
    return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
  };
  const single = "name: n\napp: sap\nconnection: TS3\nsteps:\n  - Go to VA01\n";
  const surfaces = "name: n\napps:\n  shop: { app: web, url: http://127.0.0.1/ }\n  clerk: { app: sap, connection: TS3 }\nsteps:\n  - in: clerk\n    steps:\n      - Go to VA01\n";

  test("`app: sap` on Linux is unsupported-platform at the app line", () => {
    expect(problems(single, "linux")).toEqual(["2:6 unsupported-platform `app: sap` requires Windows: SAP GUI Scripting runs only with SAP GUI for Windows; this machine runs linux"]);
  });

  test("each sap surface on another OS is refused at its app value", () => {
    expect(problems(surfaces, "darwin")).toEqual(["4:17 unsupported-platform `apps.clerk.app: sap` requires Windows: SAP GUI Scripting runs only with SAP GUI for Windows; this machine runs darwin"]);
  });

  test("on Windows, and when no platform is given, both load", () => {
    expect(problems(single, "win32")).toEqual([]);
    expect(problems(surfaces, "win32")).toEqual([]);
    expect(loadFlowText("f.flow.yaml", single, { plainStepsAreRules: true }).ok).toBe(true);
  });
});
