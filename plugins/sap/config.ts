// The sap adapter's launch config as the commands hand it over (every `${VAR}` resolved, the
// password included): checked at the boundary, turned into what connect.ts takes. Pure.
import { FlowproofError } from "../../src/plugins/api.ts";
import type { SapConnectConfig } from "./connect.ts";

/** FLOWPROOF_SAP_CONNECT_TIMEOUT_MS's default: how long a named connection may take to open. */
export const DEFAULT_SAP_CONNECT_TIMEOUT_MS = 60_000;

export interface SapLaunchConfig extends SapConnectConfig {
  /** SAP_LOGON_EXE: where SAP Logon is, when not at a default install path. */
  readonly logonExe?: string;
}

const bad = (message: string): FlowproofError => new FlowproofError({ code: "plugin-error", message: `sap launch config: ${message}` });

function optionalString(raw: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw bad(`\`${key}\` must be a string`);
  return v;
}

export function parseSapConfig(raw: Readonly<Record<string, unknown>>): SapLaunchConfig {
  const known = new Set(["connection", "connection_ref", "login", "user_ref", "connect_timeout_ms", "logon_exe", "headed"]);
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  if (unknown.length > 0) throw bad(`unknown key(s) ${unknown.join(", ")}`);
  const connection = optionalString(raw, "connection");
  const timeout = raw["connect_timeout_ms"];
  if (timeout !== undefined && (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout <= 0))
    throw bad("`connect_timeout_ms` must be a positive integer");
  const loginRaw = raw["login"];
  let login: SapConnectConfig["login"];
  if (loginRaw !== undefined) {
    if (typeof loginRaw !== "object" || loginRaw === null) throw bad("`login` must be a mapping");
    const l = loginRaw as Record<string, unknown>;
    const user = optionalString(l, "user");
    const password = optionalString(l, "password");
    if (!user || !password) throw bad("`login` needs a non-empty user and password");
    const client = optionalString(l, "client");
    const language = optionalString(l, "language");
    login = { user, password, ...(client ? { client } : {}), ...(language ? { language } : {}) };
  }
  const userRef = optionalString(raw, "user_ref");
  const connectionRef = optionalString(raw, "connection_ref");
  const logonExe = optionalString(raw, "logon_exe");
  return {
    ...(connection !== undefined && connection.trim() !== "" ? { connection: connection.trim() } : {}),
    ...(login ? { login } : {}),
    ...(userRef !== undefined ? { userRef } : {}),
    ...(connectionRef !== undefined && connectionRef.trim() !== "" ? { connectionRef: connectionRef.trim() } : {}),
    ...(logonExe ? { logonExe } : {}),
    connectTimeoutMs: typeof timeout === "number" ? timeout : DEFAULT_SAP_CONNECT_TIMEOUT_MS,
  };
}
