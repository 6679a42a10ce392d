// `flowproof config <kind>`: the machine-wide fallback credentials an adapter declares through the
// contract (`credentials`, docs/plugins.md), for flows without a login of their own. The adapter
// keeps them in the OS credential store; this command stores, shows and deletes them through its
// declaration and knows no kind by name. Never prints; never returns the password.
import { FlowproofError, SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { joinAnd, joinOr } from "../diagnostics/word-list.ts";
import { BUILTIN_ADAPTERS } from "../plugins/builtin.ts";
import type { AdapterCredentials, AdapterPlugin, StoredCredentials } from "../plugins/api.ts";
import { forgetKeyring, keyringWhere, readKeyring, storeKeyring } from "../plugins/keyring.ts";

export type ConfigCredentialsAction =
  | { readonly action: "set"; readonly user: string; readonly password: string; readonly fields?: Readonly<Record<string, string>> }
  | { readonly action: "show" }
  | { readonly action: "delete" };

export interface ConfigCredentialsResult {
  readonly action: "set" | "show" | "delete";
  /** Whether credentials are stored after the command. */
  readonly stored: boolean;
  /** Where they are kept (the adapter's words). */
  readonly store: string;
  /** The stored user (never the password). */
  readonly user?: string;
  /** The stored values of the adapter's fields, in its order. */
  readonly fields?: Readonly<Record<string, string>>;
}

export interface ConfigCredentialsContext {
  /** Every adapter to look the kind up in (default: the built-ins); the project's own come after them. */
  readonly adapters?: readonly AdapterPlugin[];
  /** The OS to act for (default process.platform). */
  readonly platform?: string;
  /** The environment keyctl runs in (PATH, FLOWPROOF_KEYRING; default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Where credentials are kept and how: the adapter's own store, or the core's (the kernel keyring on Linux). */
export interface CredentialStore {
  readonly where: string;
  read(): Promise<StoredCredentials | undefined>;
  store(credentials: StoredCredentials): Promise<void>;
  delete(): Promise<void>;
}

/** The store `kind`'s credentials live in: the adapter's own when it keeps them, else the core's on Linux (an `unsupported-platform` error elsewhere). */
export function credentialStore(
  kind: string,
  c: AdapterCredentials,
  platform: string = process.platform,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CredentialStore {
  if (c.read && c.store && c.delete) return { where: c.where ?? "the adapter's own store", read: c.read, store: c.store, delete: c.delete };
  if (platform !== "linux")
    throw new FlowproofError({
      code: "unsupported-platform",
      message: `\`flowproof config ${kind}\` keeps credentials in the Linux kernel keyring, and this is ${platform}`,
      hint: "run it on Linux, or give the flow its login in its own keys (a `${VAR}` reference)",
    });
  const fields = (c.fields ?? []).map((f) => f.name);
  return {
    where: keyringWhere(kind, env),
    read: async () => readKeyring(kind, fields, env),
    store: async (stored) => storeKeyring(kind, fields, stored, env),
    delete: async () => forgetKeyring(kind, fields, env),
  };
}

const usage = (message: string, hint: string) => new SpecError(diagnostic("usage", message, { hint }));
const quoted = (kinds: readonly string[]) => kinds.map((k) => `\`${k}\``);

/** The adapters that declare credentials, in order. */
export const credentialAdapters = (adapters: readonly AdapterPlugin[] = BUILTIN_ADAPTERS): (AdapterPlugin & { readonly credentials: AdapterCredentials })[] =>
  adapters.filter((a): a is AdapterPlugin & { readonly credentials: AdapterCredentials } => a.credentials !== undefined);

/** One kind's usage line, its fields written out. */
export function configUsage(kind: string, credentials: AdapterCredentials): string {
  const fields = (credentials.fields ?? []).map((f) => ` [--${f.name} <${f.placeholder}>]`).join("");
  return `flowproof config ${kind} --user <name>${fields} (password on standard input) | --show | --delete`;
}

/** The kinds `flowproof config` can configure, as messages list them: "`sap`" or "`sap` or `notes`". */
export const configurableKinds = (adapters?: readonly AdapterPlugin[]): string => joinOr(quoted(credentialAdapters(adapters).map((a) => a.kind)));

/** The credentials `kind` declares; a usage error naming the kinds that declare some when it declares none. */
export function credentialsOf(kind: string, adapters?: readonly AdapterPlugin[]): AdapterCredentials {
  const all = adapters ?? BUILTIN_ADAPTERS;
  const found = credentialAdapters(all).find((a) => a.kind === kind);
  if (found) return found.credentials;
  const declaring = credentialAdapters(all);
  const kinds = declaring.map((a) => a.kind);
  const hint =
    kinds.length > 0
      ? `usage: ${declaring.map((a) => configUsage(a.kind, a.credentials)).join("; or ")}`
      : 'an adapter declares them with `credentials` (docs/plugins.md, "Credentials")';
  const only = kinds.length > 0 ? `flowproof config knows only ${joinAnd(quoted(kinds))}` : "no adapter here declares credentials for `flowproof config`";
  if (all.some((a) => a.kind === kind)) throw usage(`app kind \`${kind}\` keeps no fallback credentials: ${only}`, hint);
  throw usage(`${only}, not ${JSON.stringify(kind)}`, hint);
}

/** Throws the adapter's own error when `platform` cannot keep its credentials; called before any input is read. */
export function checkConfigPlatform(kind: string, credentials: AdapterCredentials, platform: string = process.platform): void {
  credentials.checkPlatform?.(`\`flowproof config ${kind}\``, platform);
}

/** The given fields checked against the adapter's, in its order: a usage error for one it does not declare. */
export function configFields(kind: string, credentials: AdapterCredentials, given: Readonly<Record<string, string>>): Record<string, string> {
  const declared = (credentials.fields ?? []).map((f) => f.name);
  const unknown = Object.keys(given).filter((name) => !declared.includes(name));
  if (unknown.length > 0) {
    const takes = declared.length > 0 ? `its fields are ${joinAnd(declared.map((n) => `--${n}`))}` : "it stores only a user and a password";
    throw usage(`\`flowproof config ${kind}\` takes no ${joinAnd(unknown.map((n) => `--${n}`))}: ${takes}`, `usage: ${configUsage(kind, credentials)}`);
  }
  return Object.fromEntries(declared.flatMap((n) => (given[n] ? [[n, given[n]] as const] : [])));
}

export async function configCredentials(
  kind: string,
  options: ConfigCredentialsAction,
  context: ConfigCredentialsContext = {},
): Promise<ConfigCredentialsResult> {
  const credentials = credentialsOf(kind, context.adapters);
  const platform = context.platform ?? process.platform;
  checkConfigPlatform(kind, credentials, platform);
  const kept = credentialStore(kind, credentials, platform, context.env);
  const store = kept.where;
  if (options.action === "delete") {
    await kept.delete();
    return { action: "delete", stored: false, store };
  }
  if (options.action === "set") {
    const fields = configFields(kind, credentials, options.fields ?? {});
    if (options.user.trim() === "")
      throw usage(
        `\`flowproof config ${kind}\` needs a user`,
        `${configUsage(kind, credentials).split(" (password")[0]!}, with the password on standard input`,
      );
    if (options.password === "") {
      const pipe = platform === "win32" ? "Get-Content pw.txt" : "cat pw.txt";
      throw usage(
        `\`flowproof config ${kind}\` read no password from standard input`,
        `pipe the password in: \`${pipe} | flowproof config ${kind} --user clerk\` (it is never taken from a flag)`,
      );
    }
    await kept.store({ user: options.user.trim(), password: options.password, fields });
  }
  const c = await kept.read();
  if (!c) return { action: options.action, stored: false, store };
  const fields = Object.fromEntries((credentials.fields ?? []).flatMap((f) => (c.fields[f.name] ? [[f.name, c.fields[f.name]!] as const] : [])));
  return { action: options.action, stored: true, store, user: c.user, ...(Object.keys(fields).length > 0 ? { fields } : {}) };
}
