// The MCP tools' arguments as the CLI's flags: the flags no tool takes and why, each tool's input
// schema generated from its command's flag table, its arguments read back as that command's options,
// and the drift check that keeps MCP offering exactly what the CLI does.
import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import { COMMAND_TABLE, optionName, type CommandFlags, type CommandName, type CommandSpec, type FlagSpec, type OptionName } from "../cli/flags.ts";

/** Arguments as the client sent them, already checked against the tool's input schema. */
export type ToolArgs = Readonly<Record<string, unknown>>;

/** What the drift check reads of a tool: its name, its command and its input schema. */
export interface ToolArguments {
  readonly name: string;
  readonly command: string;
  readonly inputSchema: TObject;
}

/** CLI flags no tool takes, and why. Every other flag of a command with a tool is one of its arguments. */
export const CLI_ONLY_FLAGS = {
  json: "an MCP result is always JSON: structuredContent and the same document as text",
  "keep-open": "keeps a headed browser open until a person closes its window; an MCP server has no one at the screen",
  "allow-unsealed":
    "lowers what a replay trusts, which is a person's decision: the flag, or FLOWPROOF_ALLOW_UNSEALED=1 in the server's own environment; a client of this server cannot opt in",
  reseal: "rewrites a trace's seal in place, an act of trust a person takes; the tool only reads traces",
  root: "the server confines every tool call to its own root (its working directory, or the client's declared roots); a call cannot widen it",
} as const satisfies Readonly<Record<string, string>>;

/** CLI commands without a tool, and why. */
export const CLI_ONLY_COMMANDS: Readonly<Record<string, string>> = {
  init: "scaffolds a new project on disk for a person to start from",
  mcp: "starts this server",
  config:
    "stores machine-wide credentials in the OS credential store, the password read from a person's standard input; a client of this server is not handed credentials to store",
  doctor: "runs an arbitrary command line through `sh -c` to diagnose a person's agent setup; a client of this server is not given a shell",
  "author-from-doc": "writes a draft flow for a person to review before anything records it; an agent authors flows directly, with `validate` and `record`",
  capture: "a network listener that runs until a person presses Ctrl-C; a tool call has to return",
};

/** The argument name of a CLI flag: `recording-detail` → `recording_detail`. */
export const argName = (flag: string): string => flag.replace(/-/g, "_");

/** The JSON schema of one flag's value: a boolean, one of its values, a whole number in its range, or a string. */
export function flagSchema(flag: FlagSpec): TSchema {
  const description = flag.description;
  if (flag.kind === "boolean") return Type.Boolean({ description });
  if (flag.values)
    return Type.Union(
      flag.values.map((v) => Type.Literal(v)),
      { description },
    );
  if (flag.integer) return Type.Integer({ description, minimum: flag.integer.min, maximum: flag.integer.max });
  return Type.String({ description });
}

/** The input schema of a command's tool: its positional argument(s), then every flag but the CLI-only ones, in the CLI's order. */
export function inputSchemaFor(command: CommandName, positional: Readonly<Record<string, TSchema>>): TObject {
  const properties: Record<string, TSchema> = { ...positional };
  for (const flag of COMMAND_TABLE[command].flags) {
    if (flag.name in CLI_ONLY_FLAGS) continue;
    properties[argName(flag.name)] = Type.Optional(flagSchema(flag));
  }
  return Type.Object(properties, { additionalProperties: false });
}

/** The options a command's flags set, as a tool's arguments give them: CLI-only flags never, `false` as absent. */
export type ToolOptions<N extends CommandName> = Omit<CommandFlags<N>, OptionName<keyof typeof CLI_ONLY_FLAGS>>;

/**
 * A tool's arguments as the options its command's flags set (`recording_detail` →
 * `recordingDetail`), exactly as `flowproof <command>` passes them: the same flag table made
 * both. A `false` boolean is an absent flag.
 */
export function toolOptions<N extends CommandName>(command: N, args: ToolArgs): ToolOptions<N> {
  const out: Record<string, unknown> = {};
  for (const flag of COMMAND_TABLE[command].flags) {
    if (flag.name in CLI_ONLY_FLAGS) continue;
    const value = args[argName(flag.name)];
    if (value !== undefined && value !== false) out[optionName(flag.name)] = value;
  }
  // The arguments were checked against the input schema that these same flags generated.
  return out as ToolOptions<N>;
}

/**
 * Where the tools and the CLI disagree: a command with neither a tool nor a CLI-only reason, a
 * flag that is not an argument of the same type, or an argument that is neither a flag nor the
 * command's positional. Empty when MCP offers exactly what the CLI does.
 */
export function mcpDrift(commands: readonly CommandSpec[], tools: readonly ToolArguments[]): string[] {
  const problems: string[] = [];
  for (const c of commands) {
    const tool = tools.find((t) => t.command === c.name);
    if (!tool) {
      if (!(c.name in CLI_ONLY_COMMANDS)) problems.push(`\`flowproof ${c.name}\` has no MCP tool (and no reason in CLI_ONLY_COMMANDS)`);
      continue;
    }
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, TSchema>;
    const fromFlags = new Set<string>();
    for (const flag of c.flags) {
      if (flag.name in CLI_ONLY_FLAGS) continue;
      const arg = argName(flag.name);
      fromFlags.add(arg);
      const schema = properties[arg];
      if (!schema) problems.push(`--${flag.name} of \`flowproof ${c.name}\` has no argument \`${arg}\` in ${tool.name}`);
      else if (JSON.stringify(schema) !== JSON.stringify(flagSchema(flag)))
        problems.push(`\`${arg}\` of ${tool.name} does not match --${flag.name} of \`flowproof ${c.name}\``);
    }
    const extra = Object.keys(properties).filter((k) => !fromFlags.has(k));
    if (extra.length !== 1)
      problems.push(
        `${tool.name} takes ${extra.map((k) => `\`${k}\``).join(", ") || "nothing"} besides the flags of \`flowproof ${c.name}\`; only its positional argument may be`,
      );
  }
  for (const t of tools) if (!commands.some((c) => c.name === t.command)) problems.push(`${t.name} names \`flowproof ${t.command}\`, which does not exist`);
  return problems;
}
