import { describe, expect, test } from "bun:test";
import { decodeSecret, encodeSecret, readStoredCredentials } from "./credentials.ts";

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
});
