import { describe, expect, test } from "bun:test";
import { DEFAULT_SAP_CONNECT_TIMEOUT_MS, parseSapConfig } from "./config.ts";

describe("parseSapConfig", () => {
  test("takes connection, login, user reference, timeout and SAP Logon's path", () => {
    expect(
      parseSapConfig({
        connection: " TS3 ",
        login: { user: "clerk", password: "pw", client: "100" },
        user_ref: "${U}",
        connect_timeout_ms: 5000,
        logon_exe: "C:\\saplogon.exe",
      }),
    ).toEqual({
      connection: "TS3",
      login: { user: "clerk", password: "pw", client: "100" },
      userRef: "${U}",
      connectTimeoutMs: 5000,
      logonExe: "C:\\saplogon.exe",
    });
  });

  test("attach-only: no connection, the default timeout", () => {
    expect(parseSapConfig({ headed: true })).toEqual({ connectTimeoutMs: DEFAULT_SAP_CONNECT_TIMEOUT_MS });
  });

  test.each<[Record<string, unknown>, string]>([
    [{ browser: {} }, "unknown key(s) browser"],
    [{ login: { user: "a", password: "" } }, "non-empty user and password"],
    [{ connect_timeout_ms: -1 }, "positive integer"],
    [{ connection: 3 }, "`connection` must be a string"],
  ])("refuses %j", (raw, message) => {
    expect(() => parseSapConfig(raw)).toThrow(message);
  });
});
