import { beforeAll, describe, expect, test } from "bun:test";
import { dlopen, FFIType } from "bun:ffi";
import { forgetKeyring, keyName, keyringOf, keyringWhere, readKeyring, storeKeyring } from "./keyring.ts";

// A fresh anonymous session keyring for this process: `@s` below is it, never the user keyring.
beforeAll(() => {
  const keyutils = dlopen("libkeyutils.so.1", { keyctl_join_session_keyring: { args: [FFIType.ptr], returns: FFIType.i32 } });
  expect(keyutils.symbols.keyctl_join_session_keyring(null)).toBeGreaterThan(0);
  keyutils.close();
});

const env = { PATH: process.env["PATH"], FLOWPROOF_KEYRING: "@s" };

describe("the kernel keyring store", () => {
  test("names: keys `flowproof:<kind>:<name>` in the user keyring unless FLOWPROOF_KEYRING names another", () => {
    expect(keyName("vault", "password")).toBe("flowproof:vault:password");
    expect(keyringOf({})).toBe("@u");
    expect(keyringOf({ FLOWPROOF_KEYRING: " @s " })).toBe("@s");
    expect(keyringWhere("vault", {})).toBe('Linux kernel keyring (user keyring), keys "flowproof:vault:*"');
  });

  test("stores, reads back, replaces (a field not given is dropped) and forgets through the real keyctl", () => {
    expect(readKeyring("unit", ["tenant"], env)).toBeUndefined();
    storeKeyring("unit", ["tenant"], { user: "ada", password: "p w\nx", fields: { tenant: "t1", stray: "no" } }, env);
    expect(readKeyring("unit", ["tenant"], env)).toEqual({ user: "ada", password: "p w\nx", fields: { tenant: "t1" } });
    const stray = Bun.spawnSync(["keyctl", "search", "@s", "user", "flowproof:unit:stray"]);
    expect(stray.exitCode).not.toBe(0);
    storeKeyring("unit", ["tenant"], { user: "bob", password: "q", fields: {} }, env);
    expect(readKeyring("unit", ["tenant"], env)).toEqual({ user: "bob", password: "q", fields: {} });
    forgetKeyring("unit", ["tenant"], env);
    expect(readKeyring("unit", ["tenant"], env)).toBeUndefined();
    expect(() => forgetKeyring("unit", ["tenant"], env)).not.toThrow();
  });

  test("without keyctl on PATH: a credential-store error naming `apt-get install keyutils`", () => {
    expect(() => readKeyring("unit", [], { PATH: "/nonexistent" })).toThrow(
      expect.objectContaining({
        code: "credential-store",
        diagnostics: [expect.objectContaining({ hint: expect.stringContaining("apt-get install keyutils") })],
      }),
    );
  });
});
