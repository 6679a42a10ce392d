import { describe, expect, test } from "bun:test";
import { decodeSecret, encodeSecret, fromStored, readStoredCredentials, SAP_CREDENTIALS, toStored } from "./credentials.ts";

describe("stored SAP credentials", () => {
  test("the blob round-trips password, client and language; the user is the credential's user name", () => {
    const c = { user: "clerk", password: "p\u00e4ss", client: "100", language: "DE" };
    expect(decodeSecret("clerk", encodeSecret(c))).toEqual(c);
    expect(decodeSecret("clerk", encodeSecret({ user: "clerk", password: "x" }))).toEqual({ user: "clerk", password: "x" });
  });

  test("a blob that is not ours reads as nothing", () => {
    expect(decodeSecret("clerk", new TextEncoder().encode("hunter2"))).toBeUndefined();
    expect(decodeSecret("", encodeSecret({ user: "", password: "x" }))).toBeUndefined();
  });

  test("off Windows nothing is stored to read", async () => {
    if (process.platform === "win32") throw new Error("this test describes the non-Windows behaviour");
    expect(await readStoredCredentials()).toBeUndefined();
  });

  test("through the contract, client and language are the credentials' fields", () => {
    const c = { user: "clerk", password: "pw", client: "100", language: "EN" };
    expect(toStored(c)).toEqual({ user: "clerk", password: "pw", fields: { client: "100", language: "EN" } });
    expect(fromStored(toStored(c))).toEqual(c);
    expect(fromStored({ user: "clerk", password: "pw", fields: { tenant: "x" } })).toEqual({ user: "clerk", password: "pw" });
    expect(SAP_CREDENTIALS.fields?.map((f) => f.name)).toEqual(["client", "language"]);
    expect(SAP_CREDENTIALS.where).toBe('Windows Credential Manager, generic credential "flowproof:sap"');
  });

  test("only Windows keeps them: elsewhere the platform check is SAP's unsupported-platform error", () => {
    expect(() => SAP_CREDENTIALS.checkPlatform?.("`flowproof config sap`", "win32")).not.toThrow();
    expect(() => SAP_CREDENTIALS.checkPlatform?.("`flowproof config sap`", "linux")).toThrow(
      "`flowproof config sap` requires Windows: SAP GUI Scripting runs only with SAP GUI for Windows (this machine runs linux)",
    );
  });
});
