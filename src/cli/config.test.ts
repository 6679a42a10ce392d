import { describe, expect, test } from "bun:test";
import { configCommand, credentialFlags, jsonOf } from "./config.ts";
import { commandHelp, COMMAND_TABLE, parseArgs, type CommandArgs } from "./flags.ts";
import { BUILTIN_ADAPTERS } from "../plugins/builtin.ts";
import { defineAdapter, type AdapterPlugin, type StoredCredentials } from "../plugins/api.ts";

const args = (positional: string[], flags: CommandArgs<"config">["flags"] = {}, declared: Record<string, string> = {}): CommandArgs<"config"> => ({
  positional,
  flags,
  declared,
});
const never = (): Promise<string> => Promise.reject(new Error("standard input must not be read"));

/** A project adapter that keeps its credentials in memory, with one field. */
function vault(): { plugin: AdapterPlugin; kept: () => StoredCredentials | undefined } {
  let kept: StoredCredentials | undefined;
  const plugin = defineAdapter({
    kind: "vault",
    capabilities: [],
    open: () => Promise.reject(new Error("not opened here")),
    credentials: {
      name: "Vault",
      where: "test memory",
      usedBy: "vault flows without a login use them",
      fields: [{ name: "tenant", placeholder: "id", description: "The tenant." }],
      read: async () => kept,
      store: async (c) => void (kept = c),
      delete: async () => void (kept = undefined),
    },
  });
  return { plugin, kept: () => kept };
}

const capture = () => {
  const out: string[] = [];
  return { io: { out: (l: string) => void out.push(l), err: () => undefined }, out };
};

describe("configCommand", () => {
  test.each<[string, CommandArgs<"config">, string]>([
    ["no system", args([]), "config needs the system to configure: `sap`"],
    ["another system", args(["erp"]), 'flowproof config knows only `sap`, not "erp"'],
    ["a kind that keeps no credentials", args(["web"]), "app kind `web` keeps no fallback credentials: flowproof config knows only `sap`"],
    ["no action", args(["sap"]), "config sap takes exactly one of --user, --show and --forget (or --delete)"],
    ["two actions", args(["sap"], { show: true, delete: true }), "config sap takes exactly one of --user, --show and --forget (or --delete)"],
    ["a client without a user", args(["sap"], { show: true }, { client: "100" }), "--client and --language go with --user"],
  ])("refuses %s as a usage error", async (_name, a, message) => {
    await expect(configCommand(a, capture().io, BUILTIN_ADAPTERS, never)).rejects.toMatchObject({ code: "usage", message });
  });

  test("off Windows refuses sap before reading the password", async () => {
    if (process.platform === "win32") throw new Error("this test describes the non-Windows behaviour");
    await expect(configCommand(args(["sap"], { user: "clerk" }), capture().io, BUILTIN_ADAPTERS, never)).rejects.toMatchObject({
      code: "unsupported-platform",
      message: expect.stringContaining("`flowproof config sap` requires Windows"),
    });
  });

  test("a project adapter's credentials: stored from standard input with its field, shown without the password, deleted", async () => {
    const v = vault();
    const all = [...BUILTIN_ADAPTERS, v.plugin];
    const set = capture();
    await configCommand(args(["vault"], { user: " ada " }, { tenant: "t1" }), set.io, all, () => Promise.resolve("canary-pw"));
    expect(v.kept()).toEqual({ user: "ada", password: "canary-pw", fields: { tenant: "t1" } });
    expect(set.out).toEqual(["Stored Vault fallback credentials for user ada, tenant t1 in the test memory; vault flows without a login use them."]);
    const show = capture();
    await configCommand(args(["vault"], { show: true, json: true }), show.io, all, never);
    expect(JSON.parse(show.out.join("\n"))).toEqual({ action: "show", stored: true, store: "test memory", user: "ada", tenant: "t1" });
    expect(show.out.join("\n")).not.toContain("canary-pw");
    const del = capture();
    await configCommand(args(["vault"], { delete: true }), del.io, all, never);
    expect(del.out).toEqual(["Removed the Vault fallback credentials from the test memory."]);
    expect(v.kept()).toBeUndefined();
    const none = capture();
    await configCommand(args(["vault"], { show: true }), none.io, all, never);
    expect(none.out).toEqual(["No Vault fallback credentials are stored (test memory)."]);
  });

  test("with a project adapter the messages name every kind that keeps credentials, and refuse another kind's field before reading", async () => {
    const all = [...BUILTIN_ADAPTERS, vault().plugin];
    await expect(configCommand(args([]), capture().io, all, never)).rejects.toMatchObject({
      message: "config needs the system to configure: `sap` or `vault`",
    });
    await expect(configCommand(args(["vault"], { user: "ada" }, { client: "100" }), capture().io, all, never)).rejects.toMatchObject({
      code: "usage",
      message: "`flowproof config vault` takes no --client: its fields are --tenant",
    });
  });
});

describe("credentialFlags", () => {
  test("one flag per field name, naming the kinds that take it; parsed into `declared` and listed by the help", () => {
    const flags = credentialFlags([...BUILTIN_ADAPTERS, vault().plugin]);
    expect(flags.map((f) => f.name)).toEqual(["client", "language", "tenant"]);
    expect(flags[0]).toEqual({ name: "client", placeholder: "nnn", description: "`sap`: The SAP client to log on to. With --user." });
    const parsed = parseArgs(COMMAND_TABLE.config, ["vault", "--user", "ada", "--tenant=t1"], flags);
    expect(parsed).toEqual({ positional: ["vault"], flags: { user: "ada" }, declared: { tenant: "t1" } });
    expect(() => parseArgs(COMMAND_TABLE.config, ["vault", "--tenant", "t1"])).toThrow("unknown flag --tenant");
    expect(commandHelp(COMMAND_TABLE.config, flags)).toContain("--tenant <id>");
  });

  test("the --json document puts the fields beside the user", () => {
    expect(jsonOf({ action: "set", stored: true, store: "s", user: "u", fields: { client: "100", language: "EN" } })).toEqual({
      action: "set",
      stored: true,
      store: "s",
      user: "u",
      client: "100",
      language: "EN",
    });
    expect(Object.keys(jsonOf({ action: "delete", stored: false, store: "s" }))).toEqual(["action", "stored", "store"]);
  });
});
