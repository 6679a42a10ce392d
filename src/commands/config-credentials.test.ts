import { describe, expect, test } from "bun:test";
import { checkConfigPlatform, configCredentials, configFields, configUsage, credentialStore, credentialsOf } from "./config-credentials.ts";
import { defineAdapter, FlowproofError, type AdapterCredentials, type StoredCredentials } from "../plugins/api.ts";

/** An adapter keeping its credentials in memory; `os` is the one platform it can keep them on. */
function fake(kind: string, os?: string) {
  let kept: StoredCredentials | undefined;
  const credentials: AdapterCredentials = {
    name: "Fake",
    where: "memory",
    usedBy: "fake flows use them",
    fields: [
      { name: "client", placeholder: "nnn", description: "The client." },
      { name: "language", placeholder: "xx", description: "The language." },
    ],
    ...(os
      ? {
          checkPlatform: (what: string, platform: string) => {
            if (platform !== os) throw new FlowproofError({ code: "unsupported-platform", message: `${what} requires ${os}`, hint: "elsewhere" });
          },
        }
      : {}),
    read: async () => kept,
    store: async (c) => void (kept = c),
    delete: async () => void (kept = undefined),
  };
  return { adapter: defineAdapter({ kind, capabilities: [], open: () => Promise.reject(new Error("unused")), credentials }), kept: () => kept };
}

describe("configCredentials", () => {
  test.each(["linux", "darwin"])(
    "the built-in sap on %s: every action is an unsupported-platform error naming Windows, the password nowhere",
    async (platform) => {
      expect(() => checkConfigPlatform("sap", credentialsOf("sap"), platform)).toThrow("`flowproof config sap` requires Windows");
      const error = await configCredentials("sap", { action: "set", user: "clerk", password: "canary-pw" }, { platform }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "unsupported-platform" });
      expect(JSON.stringify(error)).not.toContain("canary-pw");
      await expect(configCredentials("sap", { action: "show" }, { platform })).rejects.toMatchObject({ code: "unsupported-platform" });
    },
  );

  test("an adapter's own platform check stops every action with its coded error", async () => {
    const f = fake("vault", "win32");
    await expect(configCredentials("vault", { action: "delete" }, { adapters: [f.adapter], platform: "linux" })).rejects.toMatchObject({
      code: "unsupported-platform",
      message: "`flowproof config vault` requires win32",
    });
  });

  test("stores through the adapter (user trimmed, given fields only), then reads back without the password", async () => {
    const f = fake("vault");
    const r = await configCredentials("vault", { action: "set", user: " ada ", password: "pw", fields: { language: "EN" } }, { adapters: [f.adapter] });
    expect(f.kept()).toEqual({ user: "ada", password: "pw", fields: { language: "EN" } });
    expect(r).toEqual({ action: "set", stored: true, store: "memory", user: "ada", fields: { language: "EN" } });
    expect(JSON.stringify(r)).not.toContain('"pw"');
    expect(await configCredentials("vault", { action: "delete" }, { adapters: [f.adapter] })).toEqual({ action: "delete", stored: false, store: "memory" });
    expect(await configCredentials("vault", { action: "show" }, { adapters: [f.adapter] })).toEqual({ action: "show", stored: false, store: "memory" });
  });

  test("a missing user or password is a usage error saying what to write (the words `config sap` has always used)", async () => {
    const f = fake("sap", "win32");
    const ctx = { adapters: [f.adapter], platform: "win32" };
    await expect(configCredentials("sap", { action: "set", user: " ", password: "pw" }, ctx)).rejects.toMatchObject({
      code: "usage",
      message: "`flowproof config sap` needs a user",
      diagnostics: [{ hint: "flowproof config sap --user <name> [--client <nnn>] [--language <xx>], with the password on standard input" }],
    });
    await expect(configCredentials("sap", { action: "set", user: "clerk", password: "" }, ctx)).rejects.toMatchObject({
      code: "usage",
      message: "`flowproof config sap` read no password from standard input",
      diagnostics: [{ hint: "pipe the password in: `Get-Content pw.txt | flowproof config sap --user clerk` (it is never taken from a flag)" }],
    });
    expect(f.kept()).toBeUndefined();
  });

  test("a kind is refused naming the kinds that keep credentials", () => {
    const adapters = [fake("vault").adapter, defineAdapter({ kind: "plain", capabilities: [], open: () => Promise.reject(new Error("unused")) })];
    expect(() => credentialsOf("plain", adapters)).toThrow("app kind `plain` keeps no fallback credentials: flowproof config knows only `vault`");
    expect(() => credentialsOf("nothing", adapters)).toThrow('flowproof config knows only `vault`, not "nothing"');
    expect(() => credentialsOf("nothing", adapters.slice(1))).toThrow('no adapter here declares credentials for `flowproof config`, not "nothing"');
  });

  test("fields: only the adapter's, in its order; its usage line writes them out", () => {
    const c = fake("vault").adapter.credentials!;
    expect(configFields("vault", c, { language: "EN", client: "100" })).toEqual({ client: "100", language: "EN" });
    expect(() => configFields("vault", c, { tenant: "t" })).toThrow("`flowproof config vault` takes no --tenant: its fields are --client and --language");
    expect(configUsage("vault", c)).toBe(
      "flowproof config vault --user <name> [--client <nnn>] [--language <xx>] (password on standard input) | --show | --delete",
    );
  });

  test("credentials the adapter keeps none of itself are the core's: the kernel keyring on Linux, refused elsewhere", () => {
    const core: AdapterCredentials = { name: "Vault", usedBy: "vault flows use them", key: "sign_on" };
    expect(credentialStore("vault", core, "linux", { FLOWPROOF_KEYRING: "@s" }).where).toBe('Linux kernel keyring (keyring @s), keys "flowproof:vault:*"');
    expect(() => credentialStore("vault", core, "darwin")).toThrow(
      expect.objectContaining({
        code: "unsupported-platform",
        message: "`flowproof config vault` keeps credentials in the Linux kernel keyring, and this is darwin",
      }),
    );
    expect(credentialStore("vault", fake("vault").adapter.credentials!, "darwin").where).toBe("memory");
  });
});
