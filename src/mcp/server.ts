// `flowproof mcp`: an MCP server over stdio (the official SDK's low-level Server) offering the
// tools of tools.ts. stdout carries only the protocol; nothing here prints.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Value } from "@sinclair/typebox/value";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { diagnosticToJson } from "../diagnostics/render.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { TOOLS, type McpTool } from "./tools.ts";

const json = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }], ...(isError ? { isError: true } : {}) });

/** Runs one tool call: argument check, then the handler; a command that could not run becomes an error result with diagnostics. */
export async function callTool(tools: readonly McpTool[], name: string, args: unknown): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return json({ error: { code: "usage", message: `unknown tool ${JSON.stringify(name)}`, hint: `tools: ${tools.map((t) => t.name).join(", ")}` } }, true);
  const input = args ?? {};
  if (!Value.Check(tool.inputSchema, input)) {
    const problems = [...Value.Errors(tool.inputSchema, input)].map((e) => `${e.path || "/"}: ${e.message}`);
    return json({ error: { code: "usage", message: `bad arguments for ${name}: ${problems.join("; ")}` } }, true);
  }
  try {
    return json(await tool.handle(input));
  } catch (error) {
    if (error instanceof FlowproofError) {
      return json({ error: { code: error.code, message: error.message, diagnostics: error.diagnostics.map(diagnosticToJson) } }, true);
    }
    return json({ error: { code: "io-error", message: error instanceof Error ? error.message : String(error) } }, true);
  }
}

export function createMcpServer(tools: readonly McpTool[] = TOOLS): Server {
  const server = new Server({ name: "flowproof", version: FLOWPROOF_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: { ...t.inputSchema, type: "object" as const } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(tools, request.params.name, request.params.arguments));
  return server;
}

/** Serves MCP on stdin/stdout until the client closes the connection. */
export async function serveStdio(): Promise<void> {
  const server = createMcpServer();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
