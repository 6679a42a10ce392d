// The flag and command shapes the flag table (flags.ts) is written in, and the only command-line
// parser: argv against one command's row, and that command's --help.
import { nearest } from "../spec/suggest.ts";
import { FlowproofError } from "../diagnostics/diagnostic.ts";

export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  readonly kind: "boolean" | "string";
  /** Allowed values of a string flag. */
  readonly values?: readonly string[];
  readonly placeholder?: string;
  /** A string flag that holds a whole number in this range (inclusive). */
  readonly integer?: { readonly min: number; readonly max: number };
  readonly description: string;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Name of the positional argument, when the command takes one. */
  readonly positional?: string;
  readonly flags: readonly FlagSpec[];
  /** The command also takes flags the loaded plugins declare (DeclaredFlag): which, in one sentence for the help and docs. */
  readonly declares?: string;
}

/**
 * A flag a loaded plugin declares for a command beside its row of the table (`flowproof config`:
 * an adapter's credential fields). It takes a value, parsed as text into `ParsedArgs.declared`.
 */
export interface DeclaredFlag {
  readonly name: string;
  readonly placeholder: string;
  readonly description: string;
}

/** A flag's name as the option it sets: `recording-detail` → `recordingDetail`. */
export type OptionName<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<OptionName<Tail>>}` : S;

export function optionName<S extends string>(flag: S): OptionName<S> {
  // The runtime twin of OptionName, which the flag table's types are checked against.
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as OptionName<S>;
}

/** What a flag gives its option: `true` when a boolean flag is present, one of a flag's values, a whole number, or the text. */
export type FlagValue<F extends FlagSpec> = F["kind"] extends "boolean"
  ? true
  : F extends { readonly values: readonly (infer V)[] }
    ? V
    : F extends { readonly integer: object }
      ? number
      : string;

/** The options a flag table produces: each flag under its option name, present only when given. */
export type FlagOptions<F extends readonly FlagSpec[]> = { readonly [S in F[number] as OptionName<S["name"]>]?: FlagValue<S> };

export interface ParsedArgs<F extends readonly FlagSpec[] = readonly FlagSpec[]> {
  readonly positional: readonly string[];
  readonly flags: FlagOptions<F>;
  /** The values of declared flags that were given, by flag name (see DeclaredFlag). */
  readonly declared?: Readonly<Record<string, string>>;
  /** `--help` or `-h` was given. */
  readonly help?: true;
}

/** The command line is malformed (`usage`); `hint` shows the usage or the fix. */
export class UsageError extends FlowproofError {
  readonly hint: string;
  constructor(message: string, hint: string) {
    super({ code: "usage", message, hint });
    this.hint = hint;
  }
}

const HELP_FLAG: FlagSpec = { name: "help", short: "h", kind: "boolean", description: "" };

/** A declared flag as the parser reads it: a string flag (the table's own flag of the same name wins). */
const asFlagSpec = (d: DeclaredFlag): FlagSpec => ({ name: d.name, kind: "string", placeholder: d.placeholder, description: d.description });

/** The declared flags a command's table does not already have. */
const ownDeclared = (command: CommandSpec, declared: readonly DeclaredFlag[]): FlagSpec[] =>
  declared.filter((d) => d.name !== HELP_FLAG.name && !command.flags.some((f) => f.name === d.name)).map(asFlagSpec);

/**
 * Parses `argv` against a command's flag table and the flags its loaded plugins declare;
 * `--help`/`-h` is always accepted. Values are checked here, once: a flag's `values`, and an
 * integer flag's whole number and range.
 */
export function parseArgs<C extends CommandSpec>(command: C, argv: readonly string[], declared: readonly DeclaredFlag[] = []): ParsedArgs<C["flags"]> {
  const positional: string[] = [];
  const flags: Record<string, string | number | true> = {};
  const declaredValues: Record<string, string> = {};
  const extra = ownDeclared(command, declared);
  let help = false;
  const all: readonly FlagSpec[] = [...command.flags, ...extra, HELP_FLAG];
  const usage = `usage: ${command.usage}`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const [rawName, inline] = arg.startsWith("--") ? splitOnce(arg.slice(2), "=") : [arg.slice(1), undefined];
    const spec = arg.startsWith("--") ? all.find((f) => f.name === rawName) : all.find((f) => f.short === rawName);
    if (!spec) {
      const guess = nearest(
        rawName,
        all.map((f) => f.name),
      );
      throw new UsageError(`unknown flag ${arg} for \`flowproof ${command.name}\``, guess ? `did you mean --${guess}? Usage: ${command.usage}` : usage);
    }
    if (spec.kind === "boolean") {
      if (inline !== undefined) throw new UsageError(`--${spec.name} takes no value`, usage);
      if (spec === HELP_FLAG) help = true;
      else flags[optionName(spec.name)] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value === "" || (inline === undefined && value.startsWith("-") && value !== "-")) {
      throw new UsageError(`--${spec.name} needs a value`, usage);
    }
    if (spec.values && !spec.values.includes(value)) {
      throw new UsageError(`--${spec.name} must be one of ${spec.values.join(", ")}, not ${JSON.stringify(value)}`, usage);
    }
    if (spec.integer) {
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!(n >= spec.integer.min && n <= spec.integer.max)) {
        throw new UsageError(`--${spec.name} must be a whole number from ${spec.integer.min} to ${spec.integer.max}, not ${JSON.stringify(value)}`, usage);
      }
      flags[optionName(spec.name)] = n;
      continue;
    }
    if (extra.includes(spec)) declaredValues[spec.name] = value;
    else flags[optionName(spec.name)] = value;
  }
  // Checked against the table above: each value has the type FlagOptions gives its flag.
  return { positional, flags: flags as FlagOptions<C["flags"]>, ...(extra.length > 0 ? { declared: declaredValues } : {}), ...(help ? { help: true } : {}) };
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i === -1 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

/** `flowproof <command> --help`: the table's flags, then those the loaded plugins declare. */
export function commandHelp(command: CommandSpec, declared: readonly DeclaredFlag[] = []): string {
  const lines = [`${command.summary}.`, "", `Usage: ${command.usage}`, "", "Options:"];
  const rows = [...command.flags, ...ownDeclared(command, declared)].map(
    (f) => [`${f.short ? `-${f.short}, ` : "    "}--${f.name}${f.kind === "string" ? ` <${f.placeholder ?? "value"}>` : ""}`, f.description] as const,
  );
  rows.push(["-h, --help", "Show this help."]);
  // The description column starts two spaces after the longest flag.
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  for (const [left, description] of rows) lines.push(`  ${left.padEnd(width)}${description}`);
  if (command.declares) lines.push("", command.declares);
  return lines.join("\n");
}
