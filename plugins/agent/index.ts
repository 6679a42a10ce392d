// The `agent` app kind: a surface that is an AI agent, not a UI. One execution per flow (see
// execution.ts), loaded when an agent flow first runs; every UI action answers `unsupported`. This
// face holds only what every run needs to know of the kind (its keys and execution arguments),
// so that a run of another kind never loads the proxy, the dialects, the runner or the MCP lanes.
import { defineAdapter, noUiDriver, type AgentRunOutcome, type AgentRunRequest, type AppDriver } from "../../src/plugins/api.ts";
import { AGENT_KEYS, executionArgs } from "./flow-keys.ts";
import type { DoctorReport } from "./doctor.ts";

export type { DoctorReport };

const NO_UI = "an `app: agent` flow has no UI to drive";

/** The execution module, once an agent flow (or `doctor --agent`) needed it. */
let execution: Promise<typeof import("./execution.ts")> | undefined;
const loadExecution = () => (execution ??= import("./execution.ts"));

/** One execution of the agent through the proxy, its network contained where the machine allows (execution.ts). */
export async function runAgent(request: AgentRunRequest): Promise<AgentRunOutcome> {
  return (await loadExecution()).runAgent(request);
}

/** `flowproof doctor --agent`: the keyless reachability probe (doctor.ts). */
export async function probeAgent(command: string, cwd: string, env: Readonly<Record<string, string | undefined>>, timeoutMs: number): Promise<DoctorReport> {
  return (await import("./doctor.ts")).probeAgent(command, cwd, env, timeoutMs);
}

/** `flowproof mcp-lane <url>` (hidden): the stdio server an agent flow's agent spawns for an `mcp:` server (mcp.ts). */
export async function relayMcpStdio(url: string): Promise<void> {
  return (await import("./mcp.ts")).relayMcpStdio(url);
}

/** The driver of an agent flow: `runAgent` is the execution; every UI action is unsupported. */
export function createAgentDriver(): AppDriver {
  return noUiDriver(NO_UI, { runAgent });
}

export const plugin = defineAdapter({
  kind: "agent",
  title: "agent flows",
  capabilities: [],
  steps: "agent_steps",
  keys: AGENT_KEYS,
  executionArgs,
  open: async () => ({
    launch: async () => createAgentDriver(),
    // Agents are spawned only by a loaded execution: none to stop when it never loaded.
    close: async () => {
      if (execution !== undefined) (await execution).killAllAgents();
    },
  }),
});
