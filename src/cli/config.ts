// `flowproof config sap [--user <name> [--client <nnn>] [--language <xx>] | --show | --delete]`:
// parse flags → commands/config-sap → render. The password comes from standard input only (never a
// flag, so it is not in the process list or shell history) and is never printed.
import { checkConfigSapPlatform, configSap, type ConfigSapOptions } from "../commands/config-sap.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { UsageError, type CommandArgs } from "./flags.ts";
import type { Io } from "./io.ts";

const USAGE = "usage: flowproof config sap --user <name> [--client <nnn>] [--language <xx>] (password on standard input) | --show | --delete";

/** Reads the password: the first line of standard input. */
async function readPassword(): Promise<string> {
  const text = await Bun.stdin.text();
  return text.split(/\r?\n/)[0] ?? "";
}

export async function configCommand(args: CommandArgs<"config">, io: Io, password: () => Promise<string> = readPassword): Promise<ExitCode> {
  const [system, ...extra] = args.positional;
  if (system !== "sap" || extra.length > 0) throw new UsageError(system === undefined ? "config needs the system to configure: `sap`" : `flowproof config knows only \`sap\`, not ${JSON.stringify(system)}`, USAGE);
  const { user, show = false, delete: remove = false, client, language, json } = args.flags;
  if ([user !== undefined, show, remove].filter(Boolean).length !== 1) throw new UsageError("config sap takes exactly one of --user, --show and --delete", USAGE);
  if ((client !== undefined || language !== undefined) && user === undefined) throw new UsageError("--client and --language go with --user", USAGE);
  // Refused before standard input is read: nothing is waited for on a platform that cannot store it.
  checkConfigSapPlatform();
  const options: ConfigSapOptions = user !== undefined
    ? { action: "set", user, password: await password(), ...(client ? { client } : {}), ...(language ? { language } : {}) }
    : { action: show ? "show" : "delete" };
  const r = await configSap(options);
  if (json) {
    io.out(JSON.stringify(r, null, 2));
    return EXIT.pass;
  }
  if (r.action === "delete") io.out(`Removed the SAP fallback credentials from the ${r.store}.`);
  else if (!r.stored) io.out(`No SAP fallback credentials are stored (${r.store}).`);
  else io.out(`${r.action === "set" ? "Stored" : "Stored are"} SAP fallback credentials for user ${r.user}${r.client ? `, client ${r.client}` : ""}${r.language ? `, language ${r.language}` : ""} in the ${r.store}; flows and surfaces without their own \`login:\` log on with them.`);
  return EXIT.pass;
}
