// `flowproof config sap`: the machine-wide fallback SAP credentials for SAP flows and surfaces
// without their own `login:`, kept in the OS credential store (Windows Credential Manager), never
// in a file. Other platforms get an `unsupported-platform` error. Never prints; never returns the password.
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { deleteSapCredentials, readSapCredentials, sapNeedsWindows, storeSapCredentials } from "../plugins/builtin.ts";

export type ConfigSapOptions =
  | { readonly action: "set"; readonly user: string; readonly password: string; readonly client?: string; readonly language?: string }
  | { readonly action: "show" }
  | { readonly action: "delete" };

export interface ConfigSapResult {
  readonly action: "set" | "show" | "delete";
  /** Whether credentials are stored after the command. */
  readonly stored: boolean;
  /** The stored user, client and language (never the password). */
  readonly user?: string;
  readonly client?: string;
  readonly language?: string;
  /** Where they are kept. */
  readonly store: string;
}

export const SAP_CREDENTIAL_STORE = "Windows Credential Manager, generic credential \"flowproof:sap\"";

/** `platform`: the OS to act for (process.platform); anything but win32 is refused before any input is read. */
export function checkConfigSapPlatform(platform: string = process.platform): void {
  if (platform !== "win32") throw sapNeedsWindows("`flowproof config sap`");
}

export async function configSap(options: ConfigSapOptions, platform: string = process.platform): Promise<ConfigSapResult> {
  checkConfigSapPlatform(platform);
  if (options.action === "delete") {
    await deleteSapCredentials();
    return { action: "delete", stored: false, store: SAP_CREDENTIAL_STORE };
  }
  if (options.action === "set") {
    const bad = (what: string, hint: string) => new SpecError(diagnostic("usage", what, { hint }));
    if (options.user.trim() === "") throw bad("`flowproof config sap` needs a user", "flowproof config sap --user <name> [--client <nnn>] [--language <xx>], with the password on standard input");
    if (options.password === "") throw bad("`flowproof config sap` read no password from standard input", "pipe the password in: `Get-Content pw.txt | flowproof config sap --user clerk` (it is never taken from a flag)");
    await storeSapCredentials({ user: options.user.trim(), password: options.password, ...(options.client ? { client: options.client } : {}), ...(options.language ? { language: options.language } : {}) });
  }
  const c = await readSapCredentials();
  return {
    action: options.action, stored: c !== undefined, store: SAP_CREDENTIAL_STORE,
    ...(c ? { user: c.user, ...(c.client ? { client: c.client } : {}), ...(c.language ? { language: c.language } : {}) } : {}),
  };
}
