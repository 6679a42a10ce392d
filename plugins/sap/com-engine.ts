// The ScriptingEngine on Windows: SAP GUI Scripting over late-bound COM. GetObject("SAPGUI") is
// the Running Object Table's item moniker; every object handed out is an IDispatch released when
// the engine closes. Loaded only on Windows (a dynamic import), so no other platform opens ole32.
import { FlowproofError } from "../../src/plugins/api.ts";
import { ComError, coInitialize, release, type Variant } from "../windows/ffi/com.ts";
import { getRunningObject, invoke, type InvokeResult } from "../windows/ffi/dispatch.ts";
import { readCredential } from "../windows/ffi/advapi32.ts";
import { captureWindow } from "../windows/ffi/gdi32.ts";
import { SapCallError, type SapArg, type SapCredentials, type SapObject, type SapValue, type ScriptingEngine } from "./engine.ts";
import { CREDENTIAL_TARGET, decodeSecret } from "./credentials.ts";
import { findLogonExe, logonEntries } from "./logon.ts";

export interface ComEngineOptions {
  /** SAP_LOGON_EXE. */
  readonly logonExe?: string;
  /** %APPDATA%, where SAP Logon keeps its entries. */
  readonly appData?: string;
}

/** A scripting argument as the VARIANT Invoke takes (whole numbers as VT_I4). */
export const toVariant = (a: SapArg): Variant =>
  typeof a === "string"
    ? { kind: "bstr", value: a }
    : typeof a === "boolean"
      ? { kind: "bool", value: a }
      : Number.isInteger(a)
        ? { kind: "i4", value: a }
        : { kind: "r8", value: a };

export function createComEngine(options: ComEngineOptions): ScriptingEngine {
  const held: number[] = [];
  coInitialize("sta");

  const wrap = (p: number): SapObject => {
    held.push(p);
    const run = (name: string, kind: "get" | "put" | "method", args: readonly SapArg[]): SapValue => {
      try {
        return fromResult(invoke(p, name, kind, args.map(toVariant)));
      } catch (error) {
        if (error instanceof ComError) throw new SapCallError(error.message, { cause: error });
        throw error;
      }
    };
    return {
      get: (name, ...args) => run(name, "get", args),
      set: (name, value) => void run(name, "put", [value]),
      call: (name, ...args) => run(name, "method", args),
    };
  };

  const fromResult = (r: InvokeResult): SapValue => {
    switch (r.kind) {
      case "dispatch":
      case "unknown":
        return r.value === 0 ? null : wrap(r.value);
      case "bstr":
      case "i4":
      case "r8":
      case "bool":
      case "int":
        return r.value;
      case "array": {
        const items = r.items.map(fromResult);
        const at = (i: SapArg): SapValue => items[Number(i)] ?? null;
        return { get: (n, ...a) => (n === "Count" || n === "Length" ? items.length : at(a[0] ?? 0)), set: () => undefined, call: (_n, ...a) => at(a[0] ?? 0) };
      }
      default:
        return null;
    }
  };

  return {
    application({ start, timeoutMs }) {
      let root = getRunningObject("SAPGUI");
      if (!root && start) {
        const exe = findLogonExe(options.logonExe);
        if (!exe.path) {
          throw new FlowproofError({
            code: "sap-error",
            message: `SAP Logon is not running and was not found (looked at ${exe.tried.join("; ")})`,
            hint: "install SAP GUI for Windows, or set SAP_LOGON_EXE to saplogon.exe",
          });
        }
        Bun.spawn([exe.path], { stdio: ["ignore", "ignore", "ignore"] }).unref();
        const deadline = Date.now() + timeoutMs;
        while (!root && Date.now() < deadline) {
          Bun.sleepSync(250);
          root = getRunningObject("SAPGUI");
        }
        if (!root)
          throw new FlowproofError({
            code: "sap-error",
            message: `SAP Logon (${exe.path}) did not register SAPGUI within ${timeoutMs} ms`,
            hint: "raise FLOWPROOF_SAP_CONNECT_TIMEOUT_MS, or start SAP Logon yourself first",
          });
      }
      if (!root)
        throw new FlowproofError({
          code: "sap-error",
          message: "SAP GUI is not running (nothing is registered as SAPGUI in the Running Object Table)",
          hint: "log on in SAP GUI first, or give the flow `connection:` so flowproof starts SAP Logon and opens its own session",
        });
      const app = wrap(root).call("GetScriptingEngine");
      if (app === null || typeof app !== "object") throw new SapCallError("GetScriptingEngine returned no application");
      return app;
    },
    logonEntries: () => logonEntries(options.appData),
    storedCredentials(): SapCredentials | undefined {
      const c = readCredential(CREDENTIAL_TARGET);
      return c ? decodeSecret(c.user, c.secret) : undefined;
    },
    capture(hwnd) {
      try {
        return hwnd === 0 ? undefined : captureWindow(hwnd).png;
      } catch {
        // A window that is gone or has no area: the driver reports the frame as not captured.
        return undefined;
      }
    },
    close() {
      for (const p of held.splice(0)) release(p);
    },
  };
}
