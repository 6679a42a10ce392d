// Where SAP Logon is and which connection entries it has: SAP_LOGON_EXE or the default install
// paths, and the entries of SAPUILandscape.xml (SAP GUI 7.40+) or saplogon.ini (older). Pure
// parsing plus an injected file check, so it tests on any platform.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Where SAP GUI for Windows installs SAP Logon by default (64-bit 8.x, then 32-bit 7.x/8.x). */
export const DEFAULT_LOGON_PATHS = [
  "C:\\Program Files\\SAP\\FrontEnd\\SAPGUI\\saplogon.exe",
  "C:\\Program Files (x86)\\SAP\\FrontEnd\\SAPgui\\saplogon.exe",
] as const;

/** SAP Logon's executable: `configured` (SAP_LOGON_EXE) when given, else the first default path that exists. */
export function findLogonExe(configured: string | undefined, exists: (path: string) => boolean = existsSync): { path?: string; tried: readonly string[] } {
  if (configured) return exists(configured) ? { path: configured, tried: [configured] } : { tried: [configured] };
  const found = DEFAULT_LOGON_PATHS.find((p) => exists(p));
  return found ? { path: found, tried: DEFAULT_LOGON_PATHS } : { tried: DEFAULT_LOGON_PATHS };
}

/** The connection descriptions of a SAPUILandscape.xml (`<Service … name="…">`). */
export function landscapeEntries(xml: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(/<Service\b[^>]*\bname="([^"]*)"/g)) out.push(decodeXml(m[1]!));
  return out;
}

/** The connection descriptions of a saplogon.ini (`[Description]` section, `ItemN=`). */
export function iniEntries(ini: string): string[] {
  const section = /\[Description\]([\s\S]*?)(?:\n\[|$)/i.exec(ini);
  if (!section) return [];
  return [...section[1]!.matchAll(/^Item\d+=(.*)$/gm)].map((m) => m[1]!.trim()).filter((s) => s !== "");
}

function decodeXml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** SAP Logon's entries for the user whose APPDATA is `appData`; empty when none can be read. */
export function logonEntries(appData: string | undefined, read: (path: string) => string | undefined = readIfThere): string[] {
  if (!appData) return [];
  const xml = read(join(appData, "SAP", "Common", "SAPUILandscape.xml"));
  if (xml !== undefined) return landscapeEntries(xml);
  const ini = read(join(appData, "SAP", "Common", "saplogon.ini"));
  return ini !== undefined ? iniEntries(ini) : [];
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    // No such file: this SAP GUI keeps its entries elsewhere (or has none).
    return undefined;
  }
}
