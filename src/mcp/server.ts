// `flowproof mcp`: an MCP server over stdio (the official SDK's low-level Server) offering the
// tools of tools.ts. stdout carries only the protocol; nothing here prints.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { RESOURCE_SCHEME, RunResources, mimeOf } from "./resources.ts";
import { Value } from "@sinclair/typebox/value";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { errorToJson } from "../diagnostics/render.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { TOOLS, type McpTool, type ToolCall } from "./tools.ts";
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { LineTransport } from "./stdio.ts";
import { McpRoots } from "./roots.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";
import { withoutSuiteCommands } from "../plugins/file-paths.ts";
import type { Readable, Writable } from "node:stream";

const json = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

/** A successful result: the document as structuredContent, and as text for clients that only read text. */
const structured = (value: Record<string, unknown>): CallToolResult => ({ ...json(value), structuredContent: value });

const noProgress: ToolCall = { progress: () => undefined };

/** Runs one tool call: argument check, path confinement to `roots` (when given), then the handler; a command that could not run becomes an error result with diagnostics. */
export async function callTool(tools: readonly McpTool[], name: string, args: unknown, roots?: McpRoots, call: ToolCall = noProgress): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    return json({ error: { code: "usage", message: `unknown tool ${JSON.stringify(name)}`, hint: `tools: ${tools.map((t) => t.name).join(", ")}` } }, true);
  const input = (args ?? {}) as Record<string, unknown>;
  if (!Value.Check(tool.inputSchema, input)) {
    const problems = [...Value.Errors(tool.inputSchema, input)].map((e) => `${e.path || "/"}: ${e.message}`);
    return json({ error: { code: "usage", message: `bad arguments for ${name}: ${problems.join("; ")}` } }, true);
  }
  try {
    let confined = call;
    if (roots) {
      // The flow's own reads and writes (uploads, spreadsheets, baselines, suite commands, plugins, file: URLs) stay inside the roots too.
      confined = { ...call, roots: await roots.list() };
      for (const [arg, role] of Object.entries(tool.paths)) {
        const value = input[arg];
        for (const one of Array.isArray(value) ? value : [value]) {
          if (typeof one !== "string") continue;
          await roots.check(arg, one, role === "flow-or-dir" ? (isDirectory(one) ? "dir" : "flow") : role);
        }
      }
    }
    return structured(await tool.handle(input, confined));
  } catch (error) {
    return json({ error: errorToJson(error) }, true);
  }
}

/** A result that wrote a run directory links its report.html and result.json as resources. */
function withEvidenceLinks(result: CallToolResult, runs: RunResources): CallToolResult {
  const doc = result.structuredContent;
  if (!doc || typeof doc["run_dir"] !== "string") return result;
  const runDir = doc["run_dir"];
  const links = [doc["html_path"], doc["report_path"] ?? doc["record_path"]]
    .filter((p): p is string => typeof p === "string" && existsSync(p))
    .map((p) => ({ type: "resource_link" as const, uri: runs.uriOf(runDir, p), name: basename(p), mimeType: mimeOf(p) }));
  return { ...result, content: [...result.content, ...links] };
}

const isDirectory = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** A tool's schema as plain JSON (TypeBox's symbol-keyed metadata dropped), an object at its root. */
const plain = (schema: unknown): { type: "object"; [key: string]: unknown } => ({
  ...(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>),
  type: "object",
});

/**
 * The MCP server over `tools`. Path arguments are confined to its roots: the client's (MCP roots
 * capability) or else the working directory. `inFlight` collects the tool calls still running.
 */
export function createMcpServer(
  tools: readonly McpTool[] = TOOLS,
  inFlight: Set<Promise<unknown>> = new Set(),
  cwd: string = process.cwd(),
  lifecycle: Lifecycle = new Lifecycle(),
  policy: { readonly noHooks?: boolean } = {},
): Server {
  const server = new Server({ name: "flowproof", version: FLOWPROOF_VERSION }, { capabilities: { tools: {}, resources: {} } });
  const roots = new McpRoots(cwd, async () => (server.getClientCapabilities()?.roots ? (await server.listRoots()).roots.map((r) => r.uri) : undefined));
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => roots.invalidate());
  const runs = new RunResources(() => roots.list());
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await runs.list() }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: `${RESOURCE_SCHEME}{run_id}/{file}`,
        name: "run evidence",
        description: "A file of a run directory (.flowproof/runs/<run-id>/): result.json, report.html, junit.xml, recording/…",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return { contents: [await runs.read(request.params.uri)] };
    } catch (error) {
      if (error instanceof FlowproofError) throw new McpError(ErrorCode.InvalidParams, `${error.message} (${error.diagnostics[0]?.hint ?? ""})`);
      throw error;
    }
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: plain(t.inputSchema), outputSchema: plain(t.outputSchema) })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // Progress notifications, in order, when the client passed a progress token.
    const token = request.params._meta?.progressToken;
    let sent = 0;
    let queue: Promise<unknown> = Promise.resolve();
    const progress = (message: string): void => {
      if (token === undefined) return;
      const params = { progressToken: token, progress: ++sent, message };
      queue = queue.then(() => extra.sendNotification({ method: "notifications/progress", params }).catch(() => undefined));
    };
    // A cancelled call (notifications/cancelled) stops like a flow on a signal, leaving other calls running.
    const call = lifecycle
      .scoped(extra.signal, "the MCP client cancelled the call", () => {
        const invoke = () => callTool(tools, request.params.name, request.params.arguments, roots, { progress, lifecycle });
        return policy.noHooks ? withoutSuiteCommands(NO_HOOKS, invoke) : invoke();
      })
      .then(async (r) => {
        await queue;
        return withEvidenceLinks(r, runs);
      });
    inFlight.add(call);
    try {
      return await call;
    } finally {
      inFlight.delete(call);
    }
  });
  return server;
}

/** How long tool calls still running at shutdown get to stop (close their browsers, write results). */
const SHUTDOWN_GRACE_MS = 15_000;

export interface ServeOptions {
  readonly input?: Readable;
  readonly output?: Writable;
  readonly lifecycle?: Lifecycle;
  readonly tools?: readonly McpTool[];
  /** `--no-hooks`: no suite.yaml shell command (env_from, hooks, server.command) runs through this server. */
  readonly noHooks?: boolean;
}

/** Why a suite command is refused under `--no-hooks`, and what to do instead. */
const NO_HOOKS = {
  why: "this MCP server was started with --no-hooks, so no suite.yaml shell command runs through it",
  hint: "run the flow with the CLI (flowproof run, record or heal), or have the server's operator start it without --no-hooks",
};

/**
 * Serves MCP on stdin/stdout until the client closes its end (EOF, broken pipe) or the process is
 * asked to stop (SIGINT/SIGTERM). Tool calls still running are stopped (their flows interrupted,
 * their browsers closed) before it returns. Resolves with why it ended.
 */
export async function serveStdio(options: ServeOptions = {}): Promise<string> {
  const lifecycle = options.lifecycle ?? new Lifecycle();
  const inFlight = new Set<Promise<unknown>>();
  const server = createMcpServer(options.tools ?? TOOLS, inFlight, process.cwd(), lifecycle, options.noHooks ? { noHooks: true } : {});
  const transport = new LineTransport(options.input ?? process.stdin, options.output ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  let onStop: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => {
    onStop = resolve;
    if (lifecycle.signal.aborted) resolve();
    else lifecycle.signal.addEventListener("abort", onStop, { once: true });
  });
  await server.connect(transport);
  await Promise.race([closed, stopped]);
  if (onStop) lifecycle.signal.removeEventListener("abort", onStop);
  const why = lifecycle.stopRequest?.reason ?? `the MCP client closed the connection (${transport.closedBy ?? "closed"})`;
  // The client is gone: a flow it started has no one to report to, so it stops like on a signal.
  if (!lifecycle.stopRequest) lifecycle.requestStop({ reason: why });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
  });
  await Promise.race([Promise.allSettled([...inFlight]), grace]);
  clearTimeout(timer);
  // Whatever did not stop in time is stopped now (browser sessions are owned by the lifecycle).
  await lifecycle.stopAll(2_000);
  await server.close();
  return why;
}
