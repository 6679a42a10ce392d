// The typed flag table: every command declares its flags here; docs/cli.md is generated from this
// table. The flag shapes and the parser are in parse-args.ts.
import { MAX_REPEAT_EACH } from "../commands/repeat.ts";
import { UsageError, type CommandSpec, type FlagOptions, type FlagSpec, type ParsedArgs } from "./parse-args.ts";

export {
  UsageError,
  commandHelp,
  optionName,
  parseArgs,
  type CommandSpec,
  type DeclaredFlag,
  type FlagOptions,
  type FlagSpec,
  type FlagValue,
  type OptionName,
  type ParsedArgs,
} from "./parse-args.ts";

const JSON_FLAG = {
  name: "json",
  kind: "boolean",
  description: "Print one JSON document on stdout instead of human text (for tools and agents).",
} as const satisfies FlagSpec;
const AUTHOR_FLAG_BASE = { name: "author", kind: "string", values: ["auto", "rules", "llm"], placeholder: "auto|rules|llm" } as const;
const AUTHOR_FLAG = {
  ...AUTHOR_FLAG_BASE,
  description: "Authoring backend for plain steps (default auto: the model when configured, else the rules grammar with a warning).",
} as const satisfies FlagSpec;

/** The recording controls, identical on `record` and `run` (docs: run-recording). */
const RECORDING_FLAGS = [
  {
    name: "recording-detail",
    kind: "string",
    values: ["full", "low", "off"],
    placeholder: "full|low|off",
    description:
      "Screenshot density: full (default) frames before and after every step and on failure; low the initial state, every 5th completed step and the final state; off none (the verdict is unchanged).",
  },
  { name: "video", kind: "boolean", description: "Also assemble the captured frames into recording.gif (880 px wide), whatever the detail." },
  {
    name: "highlight-cursor",
    kind: "boolean",
    description: "Add a pre-action frame for clicks and hovers with a visible cursor and a bright halo (drawn after redaction).",
  },
] as const satisfies readonly FlagSpec[];

const ALLOW_UNSEALED_FLAG = {
  name: "allow-unsealed",
  kind: "boolean",
  description:
    "Replay a trace that has no whole-trace seal (recorded by an older flowproof) instead of refusing it (unsealed-trace); also FLOWPROOF_ALLOW_UNSEALED=1. Record the flow again, or seal a trace you trust with `flowproof trace <flow.yaml> --reseal`, to drop it.",
} as const satisfies FlagSpec;

const ROOT_FLAG = {
  name: "root",
  kind: "string",
  placeholder: "dir",
  description:
    "Confine the flow to <dir>: every file it reads or writes (the flow, its trace, uploads, spreadsheets, baselines, the suite's commands, plugins, file: URLs) must lie inside it, symlinks followed, or is refused naming the path and the root (as `flowproof mcp` does with its root). Default: anywhere.",
} as const satisfies FlagSpec;
const KEEP_OPEN_FLAG = {
  name: "keep-open",
  kind: "boolean",
  description: "Show the browser (headed) and keep it open after the flow until you close its window or press Ctrl-C; one flow only, not with --json.",
} as const satisfies FlagSpec;

const GRID_FLAG = {
  name: "grid",
  kind: "string",
  placeholder: "URL",
  description:
    "Run every web flow's browser on this Selenium Grid 4 (docs/grid.md), one W3C session per flow and worker, over the flow's `browser.grid` and FLOWPROOF_GRID_URL; `local` runs a local browser. Credentials in the URL (user:key@) are a secret.",
} as const satisfies FlagSpec;

const BROWSER_FLAG = {
  name: "browser",
  kind: "string",
  values: ["chromium", "firefox"],
  placeholder: "chromium|firefox",
  description:
    "Run every web flow in this browser engine (docs/browsers.md), over the flow's `browser.name`, a suite's `browsers:` list and FLOWPROOF_BROWSER: chromium (the default) or firefox (FLOWPROOF_FIREFOX names its executable).",
} as const satisfies FlagSpec;

/** Flags of `run` that apply to a directory (a suite run). */
const SUITE_RUN_FLAGS = [
  {
    name: "retries",
    kind: "string",
    placeholder: "N",
    integer: { min: 0, max: 255 },
    description: "Re-run a failed flow up to N more times, each in a fresh browser context (default 0); also for a single flow.",
  },
  {
    name: "repeat-each",
    kind: "string",
    placeholder: "N",
    integer: { min: 1, max: MAX_REPEAT_EACH },
    description:
      "Replay each flow N times (default 1); a flow that passes in some repeats and not in others is FLAKY (exit 1), naming the steps whose outcome differed. Not with --retries.",
  },
  { name: "strict", kind: "boolean", description: "Suite: a flow without a trace is an error instead of a visible skip (also when CI is set)." },
  { name: "record-missing", kind: "boolean", description: "Suite: record flows that have no trace in place (with --author), then replay them." },
  { ...AUTHOR_FLAG_BASE, description: "Authoring backend for --record-missing (default auto)." },
  {
    name: "workers",
    kind: "string",
    placeholder: "N",
    integer: { min: 1, max: 64 },
    description: "Suite: run up to N flows at once, each in its own browser context (default 1); `order:` flows run first, one at a time.",
  },
  {
    name: "shard",
    kind: "string",
    placeholder: "i/n",
    description: "Suite: run only shard i of n (a deterministic split for CI matrix jobs); join shards with `flowproof merge`.",
  },
] as const satisfies readonly FlagSpec[];

/** Every command, keyed by name (the order is the help's and the docs'). */
export const COMMAND_TABLE = {
  record: {
    name: "record",
    summary: "Perform a flow once in the live app and write its trace",
    usage:
      "flowproof record <flow.yaml> [--author auto|rules|llm] [-o <trace>] [--reuse] [--verify] [--recording-detail full|low|off] [--video] [--highlight-cursor] [--root <dir>] [--keep-open] [--grid URL] [--browser chromium|firefox] [--json]",
    positional: "flow.yaml",
    flags: [
      { name: "out", short: "o", kind: "string", placeholder: "path", description: "Where to write the trace (default: <stem>.trace.jsonl next to the flow)." },
      AUTHOR_FLAG,
      {
        name: "reuse",
        kind: "boolean",
        description:
          "Incremental re-record: reuse the existing trace's steps verbatim where the step's intent still matches and its target still resolves; only drifted or new plain steps go to the model. Needs an existing trace.",
      },
      {
        name: "verify",
        kind: "boolean",
        description: 'Replay the fresh trace once; if it cannot reproduce itself, exit 2 ("recording not reproducible") and keep the trace as heal evidence.',
      },
      ...RECORDING_FLAGS,
      ROOT_FLAG,
      KEEP_OPEN_FLAG,
      GRID_FLAG,
      BROWSER_FLAG,
      JSON_FLAG,
    ],
  },
  run: {
    name: "run",
    summary: "Replay a flow's trace with zero model calls and write a run report",
    usage:
      "flowproof run <flow.yaml> [-t <trace>] [--allow-unsealed] [--retries N | --repeat-each N] [--recording-detail full|low|off] [--video] [--highlight-cursor] [--root <dir>] [--keep-open] [--grid URL] [--browser chromium|firefox] [--json], or flowproof run <dir> [--retries N | --repeat-each N] [--strict | --record-missing] [--workers N] [--shard i/n] [--allow-unsealed] [--root <dir>] [--grid URL] [--browser chromium|firefox] [--json]",
    positional: "flow.yaml|dir",
    flags: [
      {
        name: "trace",
        short: "t",
        kind: "string",
        placeholder: "path",
        description: "Trace to replay (default: <stem>.trace.jsonl next to the flow). Not used for a directory.",
      },
      ALLOW_UNSEALED_FLAG,
      ...SUITE_RUN_FLAGS,
      ...RECORDING_FLAGS,
      ROOT_FLAG,
      KEEP_OPEN_FLAG,
      GRID_FLAG,
      BROWSER_FLAG,
      JSON_FLAG,
    ],
  },
  heal: {
    name: "heal",
    summary: "Re-record a flow against the live app and propose a reviewable diff of its trace",
    usage:
      "flowproof heal <flow.yaml> [-t <trace>] [--author auto|rules|llm] [--apply [--accept-effect-changes]] [--allow-unsealed] [--root <dir>] [--grid URL] [--browser chromium|firefox] [--json]",
    positional: "flow.yaml",
    flags: [
      { name: "trace", short: "t", kind: "string", placeholder: "path", description: "Trace to heal (default: <stem>.trace.jsonl next to the flow)." },
      AUTHOR_FLAG,
      { name: "apply", kind: "boolean", description: "Copy the proposal over the trace (and delete the proposal); without it the trace is never touched." },
      {
        name: "accept-effect-changes",
        kind: "boolean",
        description:
          "With --apply: apply a proposal in which steps' effects changed (a step that navigates, sends, opens or changes something else, or nothing); refused without it.",
      },
      ALLOW_UNSEALED_FLAG,
      ROOT_FLAG,
      GRID_FLAG,
      BROWSER_FLAG,
      JSON_FLAG,
    ],
  },
  audit: {
    name: "audit",
    summary: "Print the control map of a suite's latest run record; never re-runs",
    usage: "flowproof audit <dir> [--run <run-id> | --since <run-id>] [--json]",
    positional: "dir",
    flags: [
      { name: "run", kind: "string", placeholder: "run-id", description: "Audit this run record instead of the latest." },
      {
        name: "since",
        kind: "string",
        placeholder: "run-id",
        description: "Compare the latest run record with this one: added, removed and changed controls; exit 1 on a regression.",
      },
      JSON_FLAG,
    ],
  },
  merge: {
    name: "merge",
    summary: "Join the run records of shards into one run record, junit.xml and report",
    usage: "flowproof merge <run-dir>... [-o <suite dir>] [--json]",
    positional: "run-dir",
    flags: [
      {
        name: "out",
        short: "o",
        kind: "string",
        placeholder: "dir",
        description:
          "Suite directory to write the merged run under, as <dir>/.flowproof/runs/<run-id> (default: the suite the run directories are in, when they all are <suite>/.flowproof/runs/<run-id> of one suite; otherwise required).",
      },
      JSON_FLAG,
    ],
  },
  "author-from-doc": {
    name: "author-from-doc",
    summary: "Turn a manual test case exported from a test-management tool into a DRAFT flow to review, then record",
    usage: "flowproof author-from-doc <doc> --app <kind> --name <flow name> -o <draft.flow.yaml> [--json]",
    positional: "doc",
    flags: [
      {
        name: "app",
        kind: "string",
        placeholder: "kind",
        description:
          "The kind of app the test case drives: the draft's `app:` (required). Any app kind whose steps are UI steps: a built-in one or a project plugin's (docs/plugins.md).",
      },
      { name: "name", kind: "string", placeholder: "flow name", description: "The draft flow's `name:` (required)." },
      {
        name: "out",
        short: "o",
        kind: "string",
        placeholder: "path",
        description: "Where to write the draft flow (required); an existing file is never overwritten.",
      },
      JSON_FLAG,
    ],
  },
  codegen: {
    name: "codegen",
    summary: "Open the app in a browser window and write a readable flow from what you do in it",
    usage: "flowproof codegen <url> [-o <flow.yaml>] [--name <flow name>] [--app-url-var <name>] [--record] [--json]",
    positional: "url",
    flags: [
      {
        name: "out",
        short: "o",
        kind: "string",
        placeholder: "flow.yaml",
        description: "Where to write the flow (default recorded.flow.yaml); rewritten whole after every step, and never a file that already exists.",
      },
      { name: "name", kind: "string", placeholder: "flow name", description: "The flow's `name:` (default: Recorded at <the URL's path>)." },
      {
        name: "app-url-var",
        kind: "string",
        placeholder: "name",
        description: "The variable the URL's origin becomes in the flow (default APP_URL): `url: ${APP_URL}/login`.",
      },
      {
        name: "record",
        kind: "boolean",
        description:
          "When the session ends, record the flow with `flowproof record` (the origin's variable set from the URL); a step that does not replay gets a `# TODO` with the reason.",
      },
      JSON_FLAG,
    ],
  },
  capture: {
    name: "capture",
    summary: "Run an HTTP sink that answers 200 and saves every request byte for byte, until Ctrl-C",
    usage: "flowproof capture --port <N> [--host <addr>] [--out <dir>] [--json]",
    flags: [
      {
        name: "port",
        kind: "string",
        placeholder: "N",
        integer: { min: 0, max: 65535 },
        description: "The port to listen on (required); 0 takes a free one, printed at start.",
      },
      {
        name: "host",
        kind: "string",
        placeholder: "addr",
        description: "The address to listen on (default 127.0.0.1; 0.0.0.0 for every interface: the sink has no authentication).",
      },
      { name: "out", kind: "string", placeholder: "dir", description: "Where to save each request as req-NNN.txt (default ./captured)." },
      {
        name: "json",
        kind: "boolean",
        description: "Print one JSON line per request (method, path, ordered headers, body length, namespace fields, saved file) instead of the request text.",
      },
    ],
  },
  validate: {
    name: "validate",
    summary: "Parse and check a flow without a browser",
    usage: "flowproof validate <flow.yaml> [--root <dir>] [--json]",
    positional: "flow.yaml",
    flags: [ROOT_FLAG, JSON_FLAG],
  },
  doctor: {
    name: "doctor",
    summary: "Check, without a key, whether an agent's model client reaches flowproof's proxy, and what to wire when it does not",
    usage: 'flowproof doctor --agent "<command>" [--timeout <seconds>] [--json]',
    flags: [
      {
        name: "agent",
        kind: "string",
        placeholder: "command",
        description: "The agent's command line (run through `sh -c` in the current directory, with the variables an agent flow injects).",
      },
      {
        name: "timeout",
        kind: "string",
        placeholder: "seconds",
        integer: { min: 1, max: 3600 },
        description: "How long to wait for the agent's first model request (default 60).",
      },
      JSON_FLAG,
    ],
  },
  config: {
    name: "config",
    summary: "Store an app kind's machine-wide fallback credentials in the OS credential store",
    usage: "flowproof config <kind> --user <name> [--<field> <value>…] | --show | --forget [--json]",
    positional: "kind",
    flags: [
      {
        name: "user",
        kind: "string",
        placeholder: "name",
        description:
          "Store credentials for this user; the password is read from standard input, or prompted for without echo on a terminal (never a flag). Flows of the kind that give no login of their own log on with them.",
      },
      { name: "show", kind: "boolean", description: "Print the stored user and fields (never the password)." },
      { name: "delete", kind: "boolean", description: "Remove the stored credentials." },
      { name: "forget", kind: "boolean", description: "The same as --delete: remove the stored credentials." },
      JSON_FLAG,
    ],
    declares:
      "Each adapter that declares `credentials` (a built-in, or a plugin of the project in the current directory) adds its fields as flags, listed with the kinds that take them. An adapter that keeps none itself has them kept by flowproof: on Linux in the kernel keyring through `keyctl` (keyutils; `apt-get install keyutils`), keys `flowproof:<kind>:<name>` in the user keyring (FLOWPROOF_KEYRING names another).",
  },
  init: {
    name: "init",
    summary: "Scaffold a project: an example flow and page, and a .gitignore entry for .flowproof/",
    usage: "flowproof init [dir] [--json]",
    positional: "dir",
    flags: [JSON_FLAG],
  },
  trace: {
    name: "trace",
    summary: "Print a flow's recorded trace, or seal a trusted one in place with --reseal",
    usage: "flowproof trace <flow.yaml> [-t <trace>] [--reseal] [--json]",
    positional: "flow.yaml",
    flags: [
      { name: "trace", short: "t", kind: "string", placeholder: "path", description: "Trace to read (default: <stem>.trace.jsonl next to the flow)." },
      {
        name: "reseal",
        kind: "boolean",
        description:
          "Seal a trace you trust in place (one recorded by an older flowproof, unsealed or sealed over its steps only), signed when FLOWPROOF_TRACE_KEY is set; refused when its header disagrees with the flow or its seal does not match. Re-recording is the safer way.",
      },
      JSON_FLAG,
    ],
  },
  mcp: {
    name: "mcp",
    summary: "Serve the flowproof tools to an MCP client over stdio",
    usage: "flowproof mcp [--no-hooks]",
    flags: [
      {
        name: "no-hooks",
        kind: "boolean",
        description:
          "Run no shell command of a suite.yaml (env_from, before_each, after_each, server.command) through this server: a tool call on a flow whose suite.yaml has one is refused (hooks-off) before anything runs. Without it, a client's run, record, heal or codegen call runs them with this server's rights (docs/mcp.md).",
      },
    ],
  },
} as const satisfies Readonly<Record<string, CommandSpec>>;

export type CommandName = keyof typeof COMMAND_TABLE;

/** Every command, in the order of the help and the docs. */
export const COMMANDS: readonly CommandSpec[] = Object.values(COMMAND_TABLE);

/** The parsed flags of one command, typed from its row of the table. */
export type CommandFlags<N extends CommandName> = FlagOptions<(typeof COMMAND_TABLE)[N]["flags"]>;

/** The parsed command line of one command. */
export type CommandArgs<N extends CommandName> = ParsedArgs<(typeof COMMAND_TABLE)[N]["flags"]>;

/**
 * Compile-time proof that a command's flags are its options (the CLI and the command cannot
 * drift apart): every flag but the `Cli` ones sets the option of its name with a value that
 * option takes, and every option is a flag or one of `Hidden`, each listed with why no flag
 * sets it. Resolves to `true`, or to an object naming what does not match.
 */
export type FlagsMatchOptions<Flags, Options, Cli extends keyof Flags, Hidden extends keyof Options> = [
  Exclude<Exclude<keyof Flags, Cli>, keyof Options>,
] extends [never]
  ? [Omit<Flags, Cli>] extends [Partial<Options>]
    ? [Exclude<keyof Options, keyof Flags | Hidden>] extends [never]
      ? true
      : { readonly optionsWithoutFlag: Exclude<keyof Options, keyof Flags | Hidden> }
    : { readonly flagsOfAnotherType: Omit<Flags, Cli> }
  : { readonly flagsWithoutOption: Exclude<Exclude<keyof Flags, Cli>, keyof Options> };

export function mainHelp(version: string): string {
  return [
    `flowproof ${version} — readable end-to-end tests, recorded once and replayed deterministically.`,
    "",
    "Usage: flowproof <command> [options]",
    "",
    "Commands:",
    // The summaries start two spaces after the longest command name.
    ...COMMANDS.map((c) => `  ${c.name.padEnd(Math.max(...COMMANDS.map((x) => x.name.length)) + 2)}${c.summary}`),
    "",
    "Options:",
    "  --version  Print the version.",
    "  -h, --help Show help (also `flowproof <command> --help`).",
    "",
    "Exit codes: 0 pass, 1 a step failed, 2 could not run (bad usage, bad flow, missing trace, no browser).",
  ].join("\n");
}

/** `--repeat-each N` (its range checked by the parser) is refused beside `--retries`, which would hide the flakiness it looks for. */
export function checkRepeatEach(flags: { readonly repeatEach?: number; readonly retries?: number }): void {
  if (flags.repeatEach !== undefined && flags.retries !== undefined && flags.retries !== 0)
    throw new UsageError(
      "--repeat-each and --retries contradict each other: a retry would hide the flakiness the repeats look for",
      "use --repeat-each N alone to find flaky flows",
    );
}
