// `flowproof mcp`: serve the MCP tools over stdio until the client disconnects.
import { serveStdio } from "../mcp/server.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { ParsedArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";

export async function mcpCommand(args: ParsedArgs): Promise<ExitCode> {
  if (args.positional.length > 0) throw new UsageError("mcp takes no arguments", "usage: flowproof mcp (an MCP client starts it and talks over stdin/stdout)");
  await serveStdio();
  return EXIT.pass;
}
