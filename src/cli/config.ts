// `flowproof config <kind> [--user <name> [--<field> <value>…] | --show | --delete]`: parse flags →
// commands/config-credentials → render. Any adapter that declares `credentials` (built-in or the
// project's) is configured here, its fields as flags. The password comes from standard input only
// (never a flag, so it is not in the process list or shell history) and is never printed.
import {
  checkConfigPlatform,
  configCredentials,
  configFields,
  configUsage,
  configurableKinds,
  credentialAdapters,
  credentialsOf,
  type ConfigCredentialsResult,
} from "../commands/config-credentials.ts";
import { loadPluginsIn } from "../commands/project-plugins.ts";
import { BUILTIN_ADAPTERS } from "../plugins/builtin.ts";
import type { AdapterCredentials, AdapterPlugin } from "../plugins/api.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { UsageError, type CommandArgs, type DeclaredFlag } from "./flags.ts";
import type { Io } from "./io.ts";

/** Reads the password: prompted for without echo on a terminal, else the first line of standard input. */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const stty = (arg: string) => Bun.spawnSync(["stty", arg], { stdin: "inherit", stdout: "ignore", stderr: "ignore" });
    // Echo goes off before the prompt shows, so nothing typed after it is echoed.
    stty("-echo");
    process.stderr.write("Password: ");
    try {
      for await (const line of console) return line;
      return "";
    } finally {
      stty("echo");
      process.stderr.write("\n");
    }
  }
  const text = await Bun.stdin.text();
  return text.split(/\r?\n/)[0] ?? "";
}

/** Every adapter `flowproof config` reaches from the current directory: the built-ins, then the project's. */
export async function configAdapters(
  dir: string = process.cwd(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<readonly AdapterPlugin[]> {
  return [...BUILTIN_ADAPTERS, ...(await loadPluginsIn(dir, env)).adapters];
}

/** The flags the adapters' credential fields add to `flowproof config`: one per field name, saying which kinds take it. */
export function credentialFlags(adapters: readonly AdapterPlugin[]): DeclaredFlag[] {
  const byName = new Map<string, { placeholder: string; descriptions: string[] }>();
  for (const a of credentialAdapters(adapters)) {
    for (const f of a.credentials.fields ?? []) {
      const flag = byName.get(f.name) ?? { placeholder: f.placeholder, descriptions: [] };
      flag.descriptions.push(`\`${a.kind}\`: ${f.description.replace(/\.$/, "")}.`);
      byName.set(f.name, flag);
    }
  }
  return [...byName].map(([name, f]) => ({ name, placeholder: f.placeholder, description: `${f.descriptions.join(" ")} With --user.` }));
}

const usageOf = (kind: string, credentials: AdapterCredentials) => `usage: ${configUsage(kind, credentials)}`;

export async function configCommand(
  args: CommandArgs<"config">,
  io: Io,
  adapters?: readonly AdapterPlugin[],
  password: () => Promise<string> = readPassword,
): Promise<ExitCode> {
  const all = adapters ?? (await configAdapters());
  const [kind, ...extra] = args.positional;
  if (kind === undefined)
    throw new UsageError(
      `config needs the system to configure: ${configurableKinds(all)}`,
      `usage: ${credentialAdapters(all)
        .map((a) => configUsage(a.kind, a.credentials))
        .join("; or ")}`,
    );
  const credentials = credentialsOf(kind, all);
  const usage = usageOf(kind, credentials);
  if (extra.length > 0) throw new UsageError(`config takes one system to configure, not ${extra.length + 1}: ${args.positional.join(" ")}`, usage);
  const { user, show = false, delete: del = false, forget = false, json } = args.flags;
  const remove = del || forget;
  const given = args.declared ?? {};
  if ([user !== undefined, show, remove].filter(Boolean).length !== 1)
    throw new UsageError(`config ${kind} takes exactly one of --user, --show and --forget (or --delete)`, usage);
  const fields = configFields(kind, credentials, given);
  if (Object.keys(fields).length > 0 && user === undefined) {
    const names = (credentials.fields ?? []).map((f) => `--${f.name}`);
    throw new UsageError(`${names.length === 1 ? `${names[0]!} goes` : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!} go`} with --user`, usage);
  }
  // Refused before standard input is read: nothing is waited for on a platform that cannot store it.
  checkConfigPlatform(kind, credentials);
  const r = await configCredentials(
    kind,
    user !== undefined ? { action: "set", user, password: await password(), fields } : { action: show ? "show" : "delete" },
    { adapters: all },
  );
  if (json) io.out(JSON.stringify(jsonOf(r), null, 2));
  else io.out(human(r, credentials));
  return EXIT.pass;
}

/** The `--json` document: the fields' values beside the user (`{action, stored, store, user, client, language}` for SAP). */
export function jsonOf(r: ConfigCredentialsResult): Readonly<Record<string, unknown>> {
  const { fields, ...rest } = r;
  return { ...rest, ...fields };
}

function human(r: ConfigCredentialsResult, c: AdapterCredentials): string {
  if (r.action === "delete") return `Removed the ${c.name} fallback credentials from the ${r.store}.`;
  if (!r.stored) return `No ${c.name} fallback credentials are stored (${r.store}).`;
  const fields = Object.entries(r.fields ?? {})
    .map(([name, value]) => `, ${name} ${value}`)
    .join("");
  return `${r.action === "set" ? "Stored" : "Stored are"} ${c.name} fallback credentials for user ${r.user ?? ""}${fields} in the ${r.store}; ${c.usedBy}.`;
}
