// SAP GUI's flow keys: `connection:` (the SAP Logon entry to open) and `login:` (the user to log
// on with), as TypeBox schemas with their roles: the connection and the user are recorded as
// written, the password is a secret read from the flow at every record and replay, never stored.
// Plus the launch config's fallbacks from the environment. Pure (docs/sap.md).
import {
  FlowproofError,
  keyRole,
  msFromEnv,
  Type,
  type AdapterKeys,
  type AdapterPlatforms,
  type ArgumentProblem,
  type LaunchContext,
} from "../../src/plugins/api.ts";

const Text = (description: string, role: Parameters<typeof keyRole>[0], example: string) =>
  Type.Union([Type.String({ minLength: 1 }), Type.Number()], { description, examples: [example], ...keyRole(role) });

export const SAP_KEYS_SCHEMA = Type.Object(
  {
    connection: Type.Optional(
      Text(
        "The SAP Logon entry (its description) to open a connection of its own to; omit it to attach to a session already logged on.",
        { references: "env", recorded: true },
        '"TS3 - Test System"',
      ),
    ),
    login: Type.Optional(
      Type.Object(
        {
          user: Text(
            "The user, as written (recorded; replay stops when it changed).",
            { references: "env", recorded: { as: "login_user" }, pinned: true },
            "${SAP_USER}",
          ),
          password: Text("A ${VAR} reference (a literal is hidden all the same); never stored.", { references: "env", secret: true }, "${SAP_PASSWORD}"),
          client: Type.Optional(Text("The client, e.g. 100.", { references: "env" }, '"100"')),
          language: Type.Optional(Text("The logon language, e.g. EN.", { references: "env" }, "EN")),
        },
        {
          additionalProperties: false,
          description: "The login for `connection:`; without it, `flowproof config sap` or SAP_USER/SAP_PASSWORD log on.",
          examples: ['{user: ${SAP_USER}, password: ${SAP_PASSWORD}, client: "100"}'],
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/** `login:` only with `connection:`: flowproof logs on only in a connection it opens itself. */
export function checkSapKeys(keys: Readonly<Record<string, unknown>>): ArgumentProblem[] {
  if (keys["login"] !== undefined && keys["connection"] === undefined) {
    return [
      {
        path: ["login"],
        at: "key",
        code: "missing-key",
        message: "`login:` needs `connection:`: flowproof logs on only in a connection it opens itself, never in someone else's session",
        hint: "add `connection: <SAP Logon entry>`, or remove `login:` to attach to a session that is already logged on",
      },
    ];
  }
  return [];
}

export const SAP_KEYS: AdapterKeys = {
  schema: SAP_KEYS_SCHEMA,
  check: checkSapKeys,
  refuse: {
    url: {
      message: "a SAP flow has no start page: `url:` belongs to web flows",
      hint: "remove `url:`; start with `Go to VA01`, and name the system with `connection:`",
    },
    browser: { message: "a SAP GUI surface has no browser to shape", hint: "remove `browser:` from the sap surface" },
  },
};

export const SAP_PLATFORMS: AdapterPlatforms = {
  os: ["win32"],
  name: "Windows",
  why: "SAP GUI Scripting runs only with SAP GUI for Windows",
  hint: "run this flow on a Windows machine with SAP GUI and scripting enabled (the flowproof executable for windows-x64; docs/sap.md)",
};

/** The error on a platform SAP GUI does not run on (`what`: "app `sap`", "`flowproof config sap`"). */
export function sapNeedsWindows(what: string, platform: string = process.platform): FlowproofError {
  return new FlowproofError({
    code: "unsupported-platform",
    message: `${what} requires Windows: ${SAP_PLATFORMS.why ?? ""} (this machine runs ${platform})`,
    hint: "run it on a Windows machine with SAP GUI installed and scripting enabled (docs/sap.md)",
  });
}

const nonEmpty = (v: string | undefined): v is string => v !== undefined && v !== "";

/**
 * The launch config with what the environment adds: without a `login:`, SAP_USER/SAP_PASSWORD
 * (and SAP_CLIENT, SAP_LANGUAGE) log on in the connection (the password hidden like any secret);
 * FLOWPROOF_SAP_CONNECT_TIMEOUT_MS and SAP_LOGON_EXE; and `user_ref`, the user as written.
 */
export function withEnvironment(config: Readonly<Record<string, unknown>>, ctx: Pick<LaunchContext, "env" | "written" | "secret">): Record<string, unknown> {
  const env = ctx.env ?? {};
  const out: Record<string, unknown> = { ...config };
  const written = ctx.written?.["login"];
  // Messages name the connection as written: a `${VAR}` stays a reference there.
  if (config["connection"] !== undefined && ctx.written?.["connection"] !== undefined) out["connection_ref"] = String(ctx.written["connection"]);
  if (config["login"] !== undefined) {
    const user = typeof written === "object" && written !== null ? (written as Record<string, unknown>)["user"] : undefined;
    if (user !== undefined) out["user_ref"] = String(user);
  } else if (config["connection"] !== undefined && nonEmpty(env["SAP_USER"]) && nonEmpty(env["SAP_PASSWORD"])) {
    ctx.secret?.("SAP_PASSWORD", env["SAP_PASSWORD"]);
    out["login"] = {
      user: env["SAP_USER"],
      password: env["SAP_PASSWORD"],
      ...(nonEmpty(env["SAP_CLIENT"]) ? { client: env["SAP_CLIENT"] } : {}),
      ...(nonEmpty(env["SAP_LANGUAGE"]) ? { language: env["SAP_LANGUAGE"] } : {}),
    };
    out["user_ref"] = "${SAP_USER}";
  } else if (config["connection"] !== undefined && nonEmpty(env["SAP_USER"])) {
    // A user without a password: the adapter names the missing password instead of logging on as someone else.
    out["user_ref"] = "${SAP_USER}";
  }
  // Only when set: the adapter keeps its own default (60 s), which is the hint's example too.
  if (nonEmpty(env["FLOWPROOF_SAP_CONNECT_TIMEOUT_MS"])) out["connect_timeout_ms"] = msFromEnv(env, "FLOWPROOF_SAP_CONNECT_TIMEOUT_MS", { fallback: 60_000 });
  if (nonEmpty(env["SAP_LOGON_EXE"])) out["logon_exe"] = env["SAP_LOGON_EXE"];
  return out;
}
