// `flowproof mcp`: serve the MCP tools over stdio until the client disconnects.
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";
import { divertStrayStdout, machineStdout, type Io } from "./io.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";

export async function mcpCommand(args: CommandArgs<"mcp">, _io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  if (args.positional.length > 0)
    throw new UsageError("mcp takes no arguments", "usage: flowproof mcp [--no-hooks] (an MCP client starts it and talks over stdin/stdout)");
  // The MCP server and its SDK load only for this command, not at every command's start-up.
  // stdout carries JSON-RPC only: a project plugin's console.log goes to stderr.
  const restore = divertStrayStdout();
  try {
    const { serveStdio } = await import("../mcp/server.ts");
    await serveStdio({ output: machineStdout(), lifecycle, ...(args.flags.noHooks ? { noHooks: true } : {}) });
  } finally {
    restore();
  }
  return EXIT.pass;
}
