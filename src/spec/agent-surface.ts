// Agent surfaces of a multi-surface flow (`apps: {assistant: {app: agent, agent: …}}`): the
// surface entry carries the agent contract of an `app: agent` flow (`agent:`, `tools:`, `mcp:`,
// `strict:`), and each `in:` block on it loads as ONE `agent_run` step: its prompts are that
// execution's task, its assertions are checked over that execution. A UI step in the block is
// refused naming both grammars. Pure: YAML nodes in, surfaces, steps and problems out.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { keyName, spanOf, type Node, type YAMLMap, type YamlSource } from "./yaml.ts";
import type { BlockLoader, FlowNode, FlowStep } from "./block.ts";
import { DEFAULT_AGENT_TIMEOUT_SECONDS, loadAgentSpec, loadAgentStep, loadAgentTools, loadFlowMcp, loadStrict, type AgentMcpSpec, type AgentSpec, type AgentStepSpec, type AgentTool } from "./agent.ts";
import { nearest } from "./suggest.ts";

/** An agent surface: the agent under test, with the keys an `app: agent` flow takes. */
export interface AgentSurfaceSpec {
  readonly app: "agent";
  readonly agent: AgentSpec;
  readonly tools?: readonly AgentTool[];
  readonly mcp?: readonly AgentMcpSpec[];
  readonly strict?: boolean;
}

const KEYS = ["app", "agent", "tools", "mcp", "strict"];
const EXAMPLE = "assistant: {app: agent, agent: {command: node agent.js}}";

/** Whether a surface entry declares `app: agent`. */
export function isAgentEntry(node: YAMLMap): boolean {
  return node.items.some((p) => keyName(p) === "app" && (p.value as { value?: unknown } | null)?.value === "agent");
}

/** Loads an `app: agent` surface entry; undefined (with problems) when it does not load. */
export function loadAgentSurface(source: YamlSource, name: string, node: YAMLMap, problems: Diagnostic[]): AgentSurfaceSpec | undefined {
  const before = problems.length;
  const values = new Map<string, Node | null>();
  for (const pair of node.items) {
    const key = keyName(pair);
    if (KEYS.includes(key)) values.set(key, pair.value as Node | null);
    else {
      const guess = nearest(key, KEYS);
      problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in agent surface \`${name}\``, { span: spanOf(source, pair.key as Node), hint: `${guess ? `did you mean \`${guess}\`? ` : ""}an agent surface takes app, agent, tools, mcp and strict` }));
    }
  }
  if (!values.has("agent")) {
    problems.push(diagnostic("missing-key", `agent surface \`${name}\` needs \`agent:\`: the program to start or the service to call`, { span: spanOf(source, node), hint: EXAMPLE }));
    return undefined;
  }
  const agent = loadAgentSpec(source, values.get("agent") ?? null, problems);
  const tools = values.has("tools") ? loadAgentTools(source, values.get("tools") ?? null, problems) : [];
  const strict = values.has("strict") ? loadStrict(source, values.get("strict") ?? null, problems) : false;
  const mcp = loadFlowMcp(source, values.get("mcp"), agent, tools, problems);
  if (problems.length > before || !agent) return undefined;
  return { app: "agent", agent, ...(tools.length > 0 ? { tools } : {}), ...mcp, ...(strict ? { strict } : {}) };
}

/**
 * One `in:` block on an agent surface: its items are agent steps, loaded as one `agent_run` step
 * (an execution of the agent) carrying the surface's agent contract; `steps` receives it.
 */
export function loadAgentBlock(loader: BlockLoader, steps: FlowStep[], items: readonly Node[], surface: string, spec: AgentSurfaceSpec): FlowNode[] {
  const { source, problems } = loader;
  const specs: AgentStepSpec[] = [];
  let first: Node | undefined;
  for (const item of items) {
    const loaded = loadAgentStep(source, item, problems);
    if (!loaded) continue;
    first ??= loaded.keyNode;
    specs.push(loaded.spec);
  }
  if (specs.length > 0 && !specs.some((s) => s.kind === "prompt")) {
    problems.push(diagnostic("missing-key", `a block on agent surface \`${surface}\` needs at least one \`prompt:\` step: the task the agent is given`, { span: spanOf(source, first), hint: "- prompt: Summarise ticket ${captured.ticket}" }));
    return [];
  }
  if (!first || specs.length === 0) return [];
  const text = specs.map((s) => (s.kind === "prompt" ? `prompt: ${s.text}` : s.kind === "reply" ? `assert: ${s.text}` : s.text)).join("\n");
  const args = {
    agent: spec.agent, steps: specs, ...(spec.tools ? { tools: spec.tools } : {}), ...(spec.mcp ? { mcp: spec.mcp } : {}), ...(spec.strict ? { strict: true } : {}),
    timeout_ms: (spec.agent.timeout_seconds ?? DEFAULT_AGENT_TIMEOUT_SECONDS) * 1000,
  };
  const step: FlowStep = { index: steps.length, form: "structured", text, span: spanOf(source, first), ast: { kind: "agent_run", args: JSON.parse(JSON.stringify(args)) as Record<string, unknown> }, surface };
  steps.push(step);
  return [{ kind: "step", step }];
}
