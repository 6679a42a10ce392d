import { describe, expect, test } from "bun:test";
import { parseTemplate } from "../grammar/index.ts";
import type { Template } from "../grammar/ast.ts";
import type { SapKeys } from "../spec/sap-keys.ts";
import { sapHeader, sapHeaderOf, sapLaunchConfig } from "./sap-launch.ts";
import { parseTrace } from "../trace/read.ts";

const t = (raw: string): Template => {
  const p = parseTemplate(raw);
  if (!p.ok) throw new Error(raw);
  return p.value;
};
const KEYS: SapKeys = { connection: t("${SAP_CONNECTION}"), login: { user: t("clerk"), password: t("${CLERK_PW}"), client: t("100") } };

describe("sapHeader", () => {
  test("keeps the connection and the user as written, never the password", () => {
    expect(sapHeader(KEYS)).toEqual({ connection: "${SAP_CONNECTION}", login_user: "clerk" });
    expect(JSON.stringify(sapHeader(KEYS))).not.toContain("CLERK_PW");
    expect(sapHeader({})).toEqual({});
  });
});

describe("sapHeaderOf", () => {
  test("reads the sap fields of a header app entry, ignoring others", () => {
    expect(sapHeaderOf({ name: "sap", adapter: "sap", connection: "TS3", login_user: "${U}" })).toEqual({ connection: "TS3", login_user: "${U}" });
    expect(sapHeaderOf({ name: "web", adapter: "web", url: "x", connection: 3 })).toEqual({});
  });
});

describe("sapLaunchConfig", () => {
  const env = { SAP_CONNECTION: "TS3", CLERK_PW: "canary-pw-1" };

  test("resolves the connection and the login; the password joins the secrets", () => {
    const secrets = new Map<string, string>();
    expect(sapLaunchConfig(sapHeader(KEYS), KEYS, env, secrets)).toEqual({ connection: "TS3", connection_ref: "${SAP_CONNECTION}", login: { user: "clerk", password: "canary-pw-1", client: "100" }, user_ref: "clerk" });
    expect(secrets.get("CLERK_PW")).toBe("canary-pw-1");
  });

  test("a literal password is redacted like a ${VAR} one", () => {
    const keys: SapKeys = { connection: t("TS3"), login: { user: t("clerk"), password: t("literal-canary") } };
    const secrets = new Map<string, string>();
    sapLaunchConfig(sapHeader(keys), keys, {}, secrets);
    expect(secrets.get("login.password")).toBe("literal-canary");
  });

  test("without login: SAP_USER and SAP_PASSWORD, with SAP_CLIENT and SAP_LANGUAGE", () => {
    const keys: SapKeys = { connection: t("TS3") };
    const secrets = new Map<string, string>();
    expect(sapLaunchConfig(sapHeader(keys), keys, { SAP_USER: "u", SAP_PASSWORD: "canary-env", SAP_CLIENT: "200", SAP_LANGUAGE: "DE", SAP_LOGON_EXE: "C:\\s.exe", FLOWPROOF_SAP_CONNECT_TIMEOUT_MS: "5000" }, secrets)).toEqual({
      connection: "TS3", connection_ref: "TS3", login: { user: "u", password: "canary-env", client: "200", language: "DE" }, user_ref: "${SAP_USER}", logon_exe: "C:\\s.exe", connect_timeout_ms: 5000,
    });
    expect(secrets.get("SAP_PASSWORD")).toBe("canary-env");
  });

  test("SAP_USER without SAP_PASSWORD passes the user reference and no login, so the adapter names the missing password", () => {
    const keys: SapKeys = { connection: t("TS3") };
    expect(sapLaunchConfig(sapHeader(keys), keys, { SAP_USER: "u" }, new Map())).toEqual({ connection: "TS3", connection_ref: "TS3", user_ref: "${SAP_USER}" });
  });

  test("attach-only takes no credentials from the environment", () => {
    expect(sapLaunchConfig({}, {}, { SAP_USER: "u", SAP_PASSWORD: "p" }, new Map())).toEqual({});
  });

  test("a login user changed since recording needs a new recording", () => {
    expect(() => sapLaunchConfig({ connection: "TS3", login_user: "approver" }, KEYS, env, new Map())).toThrow("the flow's login user is `clerk` but the trace was recorded with `approver`");
    expect(() => sapLaunchConfig({ connection: "TS3" }, KEYS, env, new Map())).toThrow("recorded without one");
  });

  test("an unset password variable is an unresolved reference naming it", () => {
    expect(() => sapLaunchConfig(sapHeader(KEYS), KEYS, { SAP_CONNECTION: "TS3" }, new Map())).toThrow("${CLERK_PW} is not set");
  });

  test("a bad FLOWPROOF_SAP_CONNECT_TIMEOUT_MS is refused", () => {
    expect(() => sapLaunchConfig({}, {}, { FLOWPROOF_SAP_CONNECT_TIMEOUT_MS: "soon" }, new Map())).toThrow("FLOWPROOF_SAP_CONNECT_TIMEOUT_MS must be a positive whole number");
  });
});

describe("the sap fields of a trace header", () => {
  // A whole trace (a flow named, one step) whose header carries the app entry under test.
  const STEP = JSON.stringify({
    id: "s0001", intent: 'Click "Save"', action: { type: "click", params: {} }, selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Save" } }],
    sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: 5000 }], post: [] }, artifacts: {},
  });
  const header = (app: Record<string, unknown>): string => `${JSON.stringify({
    format: "flowproof-trace", version: 1, trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10", recorded_at: "2026-01-02T03:04:05.678Z",
    app: { name: "sap", adapter: "sap", ...app }, env: { os: "win32", resolution: [1280, 800] }, spec: { name: "Order", path: "order.flow.yaml" },
  })}\n${STEP}\n`;

  test("connection and login_user are declared strings of the header's app entry (and of an apps surface)", () => {
    const trace = parseTrace(header(sapHeader(KEYS) as Record<string, unknown>), "a.trace.jsonl");
    const typed: { connection?: string; login_user?: string } = trace.header.app;
    expect(sapHeaderOf(typed)).toEqual({ connection: "${SAP_CONNECTION}", login_user: "clerk" });
    for (const bad of [{ connection: 3 }, { login_user: { raw: "clerk" } }]) {
      expect(() => parseTrace(header(bad), "a.trace.jsonl")).toThrow(/connection|login_user/);
    }
    const multi = JSON.stringify({ ...JSON.parse(header({}).split("\n")[0]!), app: { name: "multi", adapter: "multi" }, apps: { clerk: { name: "clerk", adapter: "sap", login_user: 7 } } });
    expect(() => parseTrace(`${multi}\n${STEP}\n`, "a.trace.jsonl")).toThrow(/login_user/);
  });
});
