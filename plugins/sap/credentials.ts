// `flowproof config sap` credentials: kept in the OS credential store (Windows Credential Manager
// through advapi32, target "flowproof:sap"), never in a file of ours, and declared to the core
// through the adapter contract (`credentials`). The blob layout is pure; the store opens only on
// Windows, by a dynamic import.
import type { AdapterCredentials, StoredCredentials } from "../../src/plugins/api.ts";
import type { SapCredentials } from "./engine.ts";
import { sapNeedsWindows } from "./flow-keys.ts";

/** The Credential Manager target the fallback credentials live under. */
export const CREDENTIAL_TARGET = "flowproof:sap";

/** Pure: what the credential's blob holds (the password and the optional client and language). */
export function encodeSecret(c: SapCredentials): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({ password: c.password, ...(c.client ? { client: c.client } : {}), ...(c.language ? { language: c.language } : {}) }),
  );
}

/** Pure: the credentials back from the user name and the blob; undefined when the blob is not ours. */
export function decodeSecret(user: string, secret: Uint8Array): SapCredentials | undefined {
  try {
    const v = JSON.parse(new TextDecoder().decode(secret)) as Record<string, unknown>;
    if (typeof v["password"] !== "string" || user === "") return undefined;
    return {
      user,
      password: v["password"],
      ...(typeof v["client"] === "string" ? { client: v["client"] } : {}),
      ...(typeof v["language"] === "string" ? { language: v["language"] } : {}),
    };
  } catch {
    // Something else wrote this target: it holds no credentials of ours.
    return undefined;
  }
}

/** Reads the stored fallback credentials (Windows only; undefined elsewhere or when none are stored). */
export async function readStoredCredentials(): Promise<SapCredentials | undefined> {
  if (process.platform !== "win32") return undefined;
  const store = await import("../windows/ffi/advapi32.ts");
  const c = store.readCredential(CREDENTIAL_TARGET);
  return c ? decodeSecret(c.user, c.secret) : undefined;
}

/** Stores (replacing) the fallback credentials. Windows only: callers check the platform first. */
export async function storeCredentials(c: SapCredentials): Promise<void> {
  const store = await import("../windows/ffi/advapi32.ts");
  store.writeCredential(CREDENTIAL_TARGET, c.user, encodeSecret(c));
}

/** Removes the fallback credentials; true when some were stored. Windows only. */
export async function deleteCredentials(): Promise<boolean> {
  const store = await import("../windows/ffi/advapi32.ts");
  return store.deleteCredential(CREDENTIAL_TARGET);
}

/** The credentials as the contract carries them: client and language are its fields. */
export function toStored(c: SapCredentials): StoredCredentials {
  return { user: c.user, password: c.password, fields: { ...(c.client ? { client: c.client } : {}), ...(c.language ? { language: c.language } : {}) } };
}

/** The contract's credentials as SAP GUI logs on with them (fields other than client and language are not SAP's). */
export function fromStored(c: StoredCredentials): SapCredentials {
  const { client, language } = c.fields;
  return { user: c.user, password: c.password, ...(client ? { client } : {}), ...(language ? { language } : {}) };
}

/** `flowproof config sap`: the fallback credentials SAP flows without a `login:` log on with (docs/sap.md). */
export const SAP_CREDENTIALS: AdapterCredentials = {
  name: "SAP",
  where: `Windows Credential Manager, generic credential "${CREDENTIAL_TARGET}"`,
  usedBy: "flows and surfaces without their own `login:` log on with them",
  fields: [
    { name: "client", placeholder: "nnn", description: "The SAP client to log on to." },
    { name: "language", placeholder: "xx", description: "The logon language." },
  ],
  checkPlatform(what, platform) {
    if (platform !== "win32") throw sapNeedsWindows(what, platform);
  },
  read: async () => {
    const c = await readStoredCredentials();
    return c ? toStored(c) : undefined;
  },
  store: (c) => storeCredentials(fromStored(c)),
  delete: async () => {
    await deleteCredentials();
  },
};
