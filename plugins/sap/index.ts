// The built-in sap adapter: SAP GUI for Windows through SAP GUI Scripting (late-bound COM). On
// any other platform opening it is an `unsupported-platform` error; the Windows bindings load
// only on Windows, by a dynamic import. See docs/sap.md.
import { defineAdapter, FlowproofError, type AdapterSession } from "../../src/plugins/api.ts";
import { launchSapDriver } from "./launch.ts";
import { parseSapConfig } from "./config.ts";
import { SAP_KEYS, SAP_PLATFORMS, withEnvironment } from "./flow-keys.ts";
import { SAP_GRAMMAR } from "./grammar.ts";

export { DEFAULT_SAP_CONNECT_TIMEOUT_MS } from "./config.ts";
export { deleteCredentials as deleteSapCredentials, readStoredCredentials as readSapCredentials, storeCredentials as storeSapCredentials } from "./credentials.ts";

/** The error on a platform SAP GUI does not run on (the same shape the CLI gives `flowproof config sap`). */
export function sapNeedsWindows(what: string): FlowproofError {
  return new FlowproofError({
    code: "unsupported-platform",
    message: `${what} requires Windows: SAP GUI Scripting runs only with SAP GUI for Windows (this machine runs ${process.platform})`,
    hint: "run it on a Windows machine with SAP GUI installed and scripting enabled (docs/sap.md)",
  });
}

export const plugin = defineAdapter({
  kind: "sap",
  title: "SAP GUI",
  capabilities: ["keyboard", "navigation", "select", "screenshot"],
  keys: SAP_KEYS,
  grammar: SAP_GRAMMAR,
  platforms: SAP_PLATFORMS,
  async open(): Promise<AdapterSession> {
    if (process.platform !== "win32") throw sapNeedsWindows("app `sap`");
    const { createComEngine } = await import("./com-engine.ts");
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
