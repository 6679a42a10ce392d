import { describe, expect, test } from "bun:test";
import { checkConfigSapPlatform, configSap } from "./config-sap.ts";

describe("configSap", () => {
  test.each(["linux", "darwin"])("on %s every action is an unsupported-platform error naming Windows", async (platform) => {
    expect(() => checkConfigSapPlatform(platform)).toThrow("`flowproof config sap` requires Windows");
    const error = await configSap({ action: "set", user: "clerk", password: "canary-pw" }, platform).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unsupported-platform" });
    expect(JSON.stringify(error)).not.toContain("canary-pw");
    await expect(configSap({ action: "show" }, platform)).rejects.toMatchObject({ code: "unsupported-platform" });
  });
});
