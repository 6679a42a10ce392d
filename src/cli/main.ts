#!/usr/bin/env bun
// The flowproof command line: finds the command, parses its flags, calls it, maps the exit code.
import { FLOWPROOF_VERSION } from "../version.ts";
import { COMMANDS, UsageError, commandHelp, mainHelp, parseArgs, type ParsedArgs } from "./flags.ts";
import { processIo, reportError, type Io } from "./io.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { recordCommand } from "./record.ts";
import { runCommand } from "./run.ts";
import { validateCommand } from "./validate.ts";
import { mcpCommand } from "./mcp.ts";
import { traceCommand } from "./trace.ts";
import { initCommand } from "./init.ts";
import { healCommand } from "./heal.ts";
import { auditCommand } from "./audit.ts";
import { mergeCommand } from "./merge.ts";
import { nearest } from "../spec/suggest.ts";

const HANDLERS: Record<string, (args: ParsedArgs, io: Io) => Promise<ExitCode>> = {
  record: recordCommand,
  run: runCommand,
  heal: healCommand,
  validate: validateCommand,
  init: initCommand,
  trace: traceCommand,
  mcp: mcpCommand,
  audit: auditCommand,
  merge: mergeCommand,
};

export async function main(argv: readonly string[], io: Io = processIo): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(mainHelp(FLOWPROOF_VERSION));
    return name === undefined ? EXIT.error : EXIT.pass;
  }
  if (name === "--version" || name === "-V") {
    io.out(FLOWPROOF_VERSION);
    return EXIT.pass;
  }
  const command = COMMANDS.find((c) => c.name === name);
  const json = rest.includes("--json");
  if (!command) {
    const guess = nearest(name, COMMANDS.map((c) => c.name));
    return reportError(io, new UsageError(`unknown command ${JSON.stringify(name)}`, guess ? `did you mean \`flowproof ${guess}\`? Run \`flowproof --help\` for the list` : "run `flowproof --help` for the list of commands"), json);
  }
  try {
    const args = parseArgs(command, rest);
    if (args.flags["help"] === true) {
      io.out(commandHelp(command));
      return EXIT.pass;
    }
    return await HANDLERS[command.name]!(args, io);
  } catch (error) {
    return reportError(io, error, json);
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  process.exit(code);
}
