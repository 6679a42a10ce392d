// The SAP GUI Scripting object model as the sap adapter sees it: late-bound objects with named
// properties and methods (COM IDispatch on Windows, an in-memory fake in unit tests), and the
// small typed readers the driver uses on them. No I/O here.
import { FlowproofError } from "../../src/plugins/api.ts";

/** A value a scripting call returns: a scalar, nothing, or another scripting object. */
export type SapValue = string | number | boolean | null | SapObject;
/** An argument of a scripting call. */
export type SapArg = string | number | boolean;

/** One scripting object (GuiApplication, GuiConnection, GuiSession, a control…). Calls are synchronous, as COM's are. */
export interface SapObject {
  /** Property get (`DISPATCH_PROPERTYGET`), with arguments for indexed properties. */
  get(name: string, ...args: SapArg[]): SapValue;
  /** Property put (`DISPATCH_PROPERTYPUT`). */
  set(name: string, value: SapArg): void;
  /** Method call (`DISPATCH_METHOD`). */
  call(name: string, ...args: SapArg[]): SapValue;
}

/** What the running SAP GUI offers: its scripting application, SAP Logon's entries, the stored fallback credentials. */
export interface ScriptingEngine {
  /**
   * The GuiApplication of the running SAP GUI (`GetObject("SAPGUI").GetScriptingEngine`). With
   * `start`, SAP Logon is started when it is not running and waited for up to `timeoutMs`.
   * Throws a FlowproofError naming what to change when it is not reachable.
   */
  application(options: { readonly start: boolean; readonly timeoutMs: number }): SapObject;
  /** The connection entries SAP Logon offers (for "unknown connection" messages); empty when unknown. */
  logonEntries(): readonly string[];
  /** `flowproof config sap` credentials from the OS credential store, when some are stored. */
  storedCredentials(): SapCredentials | undefined;
  /** The window of a session as a PNG (`hwnd` from GuiFrameWindow.Handle); undefined when it cannot be captured. */
  readonly capture?: ((hwnd: number) => Uint8Array | undefined) | undefined;
  /** Releases every object the engine handed out. */
  close(): void;
}

/** A login for the SAP login screen (RSYST-MANDT/BNAME/BCODE/LANGU). */
export interface SapCredentials {
  readonly user: string;
  readonly password: string;
  readonly client?: string;
  readonly language?: string;
}

/** A scripting call failed (code `sap-call`): SAP's own text (a COM exception's description) or the unknown member. */
export class SapCallError extends FlowproofError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(
      {
        code: "sap-call",
        message,
        hint: "check the step's target on the SAP screen shown (a control of another type has other members); SAP's own message is above",
      },
      options,
    );
  }
}

export function isSapObject(v: SapValue): v is SapObject {
  return typeof v === "object" && v !== null;
}

/** A property as text ("" for nothing); never throws for a missing member. */
export function textOf(o: SapObject, name: string): string {
  try {
    const v = o.get(name);
    return v === null || isSapObject(v) ? "" : String(v);
  } catch {
    // A member this control type does not have reads as empty: SAP types differ in what they offer.
    return "";
  }
}

export function numberOf(o: SapObject, name: string): number {
  const n = Number(textOf(o, name));
  return Number.isFinite(n) ? n : 0;
}

export function boolOf(o: SapObject, name: string): boolean {
  const t = textOf(o, name).toLowerCase();
  return t === "true" || t === "1" || t === "-1";
}

export function objectOf(o: SapObject, name: string, ...args: SapArg[]): SapObject | undefined {
  try {
    const v = o.get(name, ...args);
    return isSapObject(v) ? v : undefined;
  } catch {
    // An absent child (no LeftLabel, no Children) is not an error for the reader.
    return undefined;
  }
}

/** The members of a GuiComponentCollection (`Count` + `ElementAt(i)`). */
export function itemsOf(collection: SapObject | undefined): SapObject[] {
  if (!collection) return [];
  const n = numberOf(collection, "Count");
  const out: SapObject[] = [];
  for (let i = 0; i < n; i++) {
    const v = collection.call("ElementAt", i);
    if (isSapObject(v)) out.push(v);
  }
  return out;
}

/** A component's id relative to its session (`wnd[0]/usr/txtX`), from its full `Id` (`/app/con[0]/ses[0]/wnd[0]/usr/txtX`). */
export function sessionRelativeId(fullId: string): string {
  const m = /\/ses\[\d+\]\/(.*)$/.exec(fullId);
  return m ? m[1]! : fullId.replace(/^\//, "");
}
