// Surfaces whose steps are the agent step grammar (an adapter with `steps: "agent_steps"`) in a
// multi-surface flow: each `in:` block on one loads as ONE `agent_run` step, its prompts that
// execution's task and its assertions checked over that execution, with the arguments the adapter
// composes from the surface's keys. A UI step in the block is refused naming both grammars. Pure.
import { diagnostic } from "../diagnostics/diagnostic.ts";
import { spanOf, type Node } from "./yaml.ts";
import type { BlockLoader, FlowNode, FlowStep } from "./block.ts";
import { agentRunStep, loadAgentStep, type AgentStepSpec } from "./agent.ts";
import type { SurfaceKind } from "./surface-kinds.ts";

/**
 * One `in:` block on an agent surface: its items are agent steps, loaded as one `agent_run` step
 * (an execution of the agent) carrying the surface's keys; `steps` receives it.
 */
export function loadAgentBlock(
  loader: BlockLoader,
  steps: FlowStep[],
  items: readonly Node[],
  surface: string,
  kind: SurfaceKind,
  keys: Readonly<Record<string, unknown>>,
): FlowNode[] {
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
    problems.push(
      diagnostic("missing-key", `a block on agent surface \`${surface}\` needs at least one \`prompt:\` step: the task the agent is given`, {
        span: spanOf(source, first),
        hint: "- prompt: Summarise ticket ${captured.ticket}",
      }),
    );
    return [];
  }
  if (!first || specs.length === 0) return [];
  const step: FlowStep = { index: steps.length, form: "structured", ...agentRunStep(kind, keys, specs), span: spanOf(source, first), surface };
  steps.push(step);
  return [{ kind: "step", step }];
}
