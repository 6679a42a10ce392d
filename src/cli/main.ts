#!/usr/bin/env bun
// The flowproof command line: finds the command, parses its flags, calls it, maps the exit code.
import { FLOWPROOF_VERSION } from "../version.ts";
import { COMMANDS, COMMAND_TABLE, UsageError, commandHelp, mainHelp, parseArgs, type CommandArgs, type CommandName, type DeclaredFlag } from "./flags.ts";
import { divertStrayStdout, processIo, reportError, type Io } from "./io.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { nearest } from "../spec/suggest.ts";
import { Lifecycle, handleStopSignals } from "../plugins/lifecycle.ts";

/** How long an interrupted run may take to close its browsers and write its results before it is forced down. */
const STOP_GRACE_MS = 10_000;
/** How long a forced exit waits for its output to reach a reader. */
const FORCED_FLUSH_MS = 1_000;

/** A command's handler: its parsed flags, where its output goes, and the process lifecycle main created (what stops it, and owns what it starts). */
type Handler<N extends CommandName> = (args: CommandArgs<N>, io: Io, lifecycle: Lifecycle) => Promise<ExitCode>;

/**
 * Each command's handler, taking the flags its row of the table produces. Loaded when its command
 * runs: a process loads only its own command's modules (a web run never loads the MCP server,
 * the document readers or the model clients of other commands).
 */
const HANDLERS: { readonly [N in CommandName]: () => Promise<Handler<N>> } = {
  record: async () => (await import("./record.ts")).recordCommand,
  run: async () => (await import("./run.ts")).runCommand,
  heal: async () => (await import("./heal.ts")).healCommand,
  validate: async () => (await import("./validate.ts")).validateCommand,
  init: async () => (await import("./init.ts")).initCommand,
  trace: async () => (await import("./trace.ts")).traceCommand,
  mcp: async () => (await import("./mcp.ts")).mcpCommand,
  audit: async () => (await import("./audit.ts")).auditCommand,
  merge: async () => (await import("./merge.ts")).mergeCommand,
  doctor: async () => (await import("./doctor.ts")).doctorCommand,
  config: async () => {
    const { configCommand } = await import("./config.ts");
    return (args, io) => configCommand(args, io);
  },
  "author-from-doc": async () => (await import("./author-from-doc.ts")).authorFromDocCommand,
  capture: async () => {
    const { captureCommand } = await import("./capture.ts");
    return (args, io, lifecycle) => captureCommand(args, io, lifecycle);
  },
  codegen: async () => {
    const { codegenCommand } = await import("./codegen.ts");
    return (args, io, lifecycle) => codegenCommand(args, io, lifecycle);
  },
};

/**
 * For a command whose row says it `declares` flags: loads the plugins once, and gives the flags they
 * declare and the handler that runs with the same plugins.
 */
const DECLARING: { readonly [N in CommandName]?: () => Promise<{ readonly declared: readonly DeclaredFlag[]; readonly run: Handler<N> }> } = {
  config: async () => {
    const { configAdapters, configCommand, credentialFlags } = await import("./config.ts");
    const adapters = await configAdapters();
    return { declared: credentialFlags(adapters), run: (args, io) => configCommand(args, io, adapters) };
  },
};

const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMAND_TABLE, name);

/** The commands that open a flow's app, whose browser may start before anything else loads (prelaunch.ts). */
const OPENS_APP: ReadonlySet<string> = new Set<CommandName>(["run", "record", "heal"]);

/** Parses the command's flags against its own row (and what the plugins declare for it), then runs it (or prints its help). */
async function dispatch<N extends CommandName>(name: N, argv: readonly string[], io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  const command = COMMAND_TABLE[name];
  const declaring = await DECLARING[name]?.();
  const declared = declaring?.declared ?? [];
  const args: CommandArgs<N> = parseArgs(command, argv, declared);
  if (args.help) {
    io.out(commandHelp(command, declared));
    return EXIT.pass;
  }
  return (declaring?.run ?? (await HANDLERS[name]()))(args, io, lifecycle);
}

/**
 * Runs one command line. `lifecycle`: the process's, created by the entry below with the stop
 * signals wired to it (a caller in a test passes one of its own, or gets a fresh one).
 */
export async function main(argv: readonly string[], io: Io = processIo, lifecycle: Lifecycle = new Lifecycle()): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(mainHelp(FLOWPROOF_VERSION));
    return name === undefined ? EXIT.error : EXIT.pass;
  }
  if (name === "--version" || name === "-V") {
    io.out(FLOWPROOF_VERSION);
    return EXIT.pass;
  }
  // Hidden: the stdio MCP server an agent flow's agent spawns (FLOWPROOF_MCP_SERVER_<NAME>).
  if (name === "mcp-lane" && rest.length === 1) {
    const { relayMcpStdio } = await import("../plugins/builtin.ts");
    await relayMcpStdio(rest[0]!);
    return EXIT.pass;
  }
  const json = rest.includes("--json");
  if (!isCommand(name)) {
    const guess = nearest(
      name,
      COMMANDS.map((c) => c.name),
    );
    return reportError(
      io,
      new UsageError(
        `unknown command ${JSON.stringify(name)}`,
        guess ? `did you mean \`flowproof ${guess}\`? Run \`flowproof --help\` for the list` : "run `flowproof --help` for the list of commands",
      ),
      json,
    );
  }
  // A web flow's browser starts first, and launches while the command's modules and the flow load.
  const early = OPENS_APP.has(name) ? (await import("./prelaunch.ts")).prelaunch(name, rest, process.env, lifecycle) : undefined;
  // `--json` stdout is one JSON document: whatever else prints (a project plugin) goes to stderr.
  const restore = json && io === processIo ? divertStrayStdout() : undefined;
  try {
    return await dispatch(name, rest, io, lifecycle);
  } catch (error) {
    return reportError(io, error, json);
  } finally {
    restore?.();
    // An early browser the run did not take (it failed first, or needed another) stops before the process ends.
    await early?.();
  }
}

/**
 * Ends stdout and stderr and resolves once everything written to them reached the pipe, file or
 * terminal: exiting earlier cuts a piped output off at the pipe's buffer (64 KiB).
 */
export function flushOutput(): Promise<void> {
  const end = (stream: NodeJS.WriteStream) =>
    new Promise<void>((done) => {
      // A reader that went away (EPIPE) ends the wait too: there is no one left to write to. The
      // listener stays: a late write from a run being forced down must not crash the exit.
      stream.on("error", () => done());
      stream.end(() => done());
    });
  return Promise.all([end(process.stdout), end(process.stderr)]).then(() => undefined);
}

if (import.meta.main) {
  const exit = async (code: number, flushBoundMs?: number) => {
    const flushed = flushOutput();
    // A forced exit does not wait on a reader that stopped reading.
    if (flushBoundMs === undefined) await flushed;
    else await Promise.race([flushed, new Promise((r) => setTimeout(r, flushBoundMs))]);
    process.exit(code);
  };
  // The one lifecycle of this process: signals are per process, and so is what must stop with it.
  const lifecycle = new Lifecycle();
  handleStopSignals(lifecycle, { notify: (line) => processIo.err(line), graceMs: STOP_GRACE_MS, exit: (code) => exit(code, FORCED_FLUSH_MS) });
  const code = await main(process.argv.slice(2), processIo, lifecycle);
  await exit(lifecycle.exitCode(code));
}
