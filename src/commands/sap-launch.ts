// A SAP flow's (or sap surface's) connection and login on their way to the sap adapter: what the
// trace header keeps (the connection and the user reference as written, never a password), and
// the launch config resolved at each record and replay from the flow spec, then SAP_USER/
// SAP_PASSWORD/SAP_CLIENT/SAP_LANGUAGE (the adapter falls back to `flowproof config sap`). Every
// resolved value joins `secrets`, so no message, trace or report shows it. Never prints.
import type { SapKeys } from "../spec/sap-keys.ts";
import { resolveText } from "../engine/templates.ts";
import { TraceError, diagnostic } from "../diagnostics/diagnostic.ts";
import { msFromEnv } from "../diagnostics/env-number.ts";

/** The header fields of a sap app: the connection and the login user as written. */
export interface SapHeader {
  readonly connection?: string;
  readonly login_user?: string;
}

/** The sap fields of a trace header's app entry (`app` or an `apps` surface). */
export function sapHeaderOf(info: { readonly [key: string]: unknown }): SapHeader {
  const connection = info["connection"];
  const user = info["login_user"];
  return { ...(typeof connection === "string" ? { connection } : {}), ...(typeof user === "string" ? { login_user: user } : {}) };
}

/** What record writes into the header's app entry. */
export function sapHeader(keys: SapKeys): SapHeader {
  return {
    ...(keys.connection ? { connection: keys.connection.raw } : {}),
    ...(keys.login ? { login_user: keys.login.user.raw } : {}),
  };
}

/**
 * The sap adapter's launch config: the connection from the header (what was recorded), the login
 * re-resolved from the flow spec. A spec whose login user no longer matches the recorded one
 * needs a new recording. `where` names the flow or surface in messages.
 */
export function sapLaunchConfig(header: SapHeader, keys: SapKeys, env: Readonly<Record<string, string | undefined>>, secrets: Map<string, string>, where = "the flow"): Record<string, unknown> {
  const recordedUser = header.login_user;
  const specUser = keys.login?.user.raw;
  if (recordedUser !== specUser) {
    throw new TraceError(diagnostic("bad-trace", `${where}'s login user is ${specUser === undefined ? "gone" : `\`${specUser}\``} but the trace was recorded ${recordedUser === undefined ? "without one" : `with \`${recordedUser}\``}`, {
      hint: "record the flow again after changing or removing its `login:`",
    }));
  }
  const ctx = { env, captures: new Map<string, string>(), secrets };
  const config: Record<string, unknown> = {};
  if (header.connection !== undefined) {
    config["connection"] = resolveText(header.connection, ctx).value;
    // Messages name the connection as written: a `${VAR}` stays a reference there.
    config["connection_ref"] = header.connection;
  }
  const resolve = (raw: string, name: string): string => {
    const value = resolveText(raw, ctx).value;
    // A literal password (or user) is as secret as a `${VAR}` one: redact it everywhere too.
    if (!secrets.has(name) && [...secrets.values()].every((v) => v !== value)) secrets.set(name, value);
    return value;
  };
  if (keys.login) {
    const l = keys.login;
    config["login"] = {
      user: resolveText(l.user.raw, ctx).value,
      password: resolve(l.password.raw, "login.password"),
      ...(l.client ? { client: resolveText(l.client.raw, ctx).value } : {}),
      ...(l.language ? { language: resolveText(l.language.raw, ctx).value } : {}),
    };
    config["user_ref"] = l.user.raw;
  } else if (header.connection !== undefined && nonEmpty(env["SAP_USER"]) && nonEmpty(env["SAP_PASSWORD"])) {
    secrets.set("SAP_PASSWORD", env["SAP_PASSWORD"]!);
    config["login"] = {
      user: env["SAP_USER"], password: env["SAP_PASSWORD"],
      ...(nonEmpty(env["SAP_CLIENT"]) ? { client: env["SAP_CLIENT"] } : {}),
      ...(nonEmpty(env["SAP_LANGUAGE"]) ? { language: env["SAP_LANGUAGE"] } : {}),
    };
    config["user_ref"] = "${SAP_USER}";
  } else if (header.connection !== undefined && nonEmpty(env["SAP_USER"])) {
    // A user without a password: the adapter names the missing password instead of logging on as someone else.
    config["user_ref"] = "${SAP_USER}";
  }
  // Only when set: the SAP adapter keeps its own default (60 s), which is the hint's example too.
  if (nonEmpty(env["FLOWPROOF_SAP_CONNECT_TIMEOUT_MS"])) config["connect_timeout_ms"] = msFromEnv(env, "FLOWPROOF_SAP_CONNECT_TIMEOUT_MS", { fallback: 60_000 });
  if (nonEmpty(env["SAP_LOGON_EXE"])) config["logon_exe"] = env["SAP_LOGON_EXE"];
  return config;
}

function nonEmpty(v: string | undefined): v is string {
  return v !== undefined && v !== "";
}
