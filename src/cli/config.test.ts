import { describe, expect, test } from "bun:test";
import { configCommand } from "./config.ts";
import type { CommandArgs } from "./flags.ts";

const args = (positional: string[], flags: CommandArgs<"config">["flags"] = {}): CommandArgs<"config"> => ({ positional, flags });
const io = { out: () => undefined, err: () => undefined };
const never = (): Promise<string> => Promise.reject(new Error("standard input must not be read"));

describe("configCommand", () => {
  test.each<[string, CommandArgs<"config">, string]>([
    ["no system", args([]), "config needs the system to configure: `sap`"],
    ["another system", args(["erp"]), "flowproof config knows only `sap`, not \"erp\""],
    ["no action", args(["sap"]), "config sap takes exactly one of --user, --show and --delete"],
    ["two actions", args(["sap"], { show: true, delete: true }), "config sap takes exactly one of --user, --show and --delete"],
    ["a client without a user", args(["sap"], { show: true, client: "100" }), "--client and --language go with --user"],
  ])("refuses %s as a usage error", async (_name, a, message) => {
    await expect(configCommand(a, io, never)).rejects.toMatchObject({ code: "usage", message });
  });

  test("off Windows refuses before reading the password", async () => {
    if (process.platform === "win32") throw new Error("this test describes the non-Windows behaviour");
    await expect(configCommand(args(["sap"], { user: "clerk" }), io, never)).rejects.toMatchObject({ code: "unsupported-platform" });
  });
});
