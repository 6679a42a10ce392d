// The built-in sap adapter: SAP GUI for Windows through SAP GUI Scripting (late-bound COM). On
// any other platform opening it is an `unsupported-platform` error; the Windows bindings load
// only on Windows, by a dynamic import. See docs/sap.md.
import { defineAdapter, type AdapterSession } from "../../src/plugins/api.ts";
import { parseSapConfig } from "./config.ts";
import { SAP_KEYS, SAP_PLATFORMS, sapNeedsWindows, withEnvironment } from "./flow-keys.ts";
import { SAP_CREDENTIALS } from "./credentials.ts";
import { SAP_GRAMMAR } from "./grammar.ts";

export { DEFAULT_SAP_CONNECT_TIMEOUT_MS } from "./config.ts";

export const plugin = defineAdapter({
  kind: "sap",
  title: "SAP GUI",
  capabilities: ["pointer", "keyboard", "navigation", "select", "screenshot"],
  keys: SAP_KEYS,
  grammar: SAP_GRAMMAR,
  platforms: SAP_PLATFORMS,
  credentials: SAP_CREDENTIALS,
  async open(): Promise<AdapterSession> {
    if (process.platform !== "win32") throw sapNeedsWindows("app `sap`");
    const [{ createComEngine }, { launchSapDriver }] = await Promise.all([import("./com-engine.ts"), import("./launch.ts")]);
    return {
      launch: async (given, ctx) => {
        const config = withEnvironment(given, ctx);
        const { logonExe } = parseSapConfig(config);
        const engine = createComEngine({ ...(logonExe ? { logonExe } : {}), ...(process.env["APPDATA"] ? { appData: process.env["APPDATA"] } : {}) });
        return launchSapDriver(engine, config, ctx);
      },
      close: async () => undefined,
    };
  },
});
