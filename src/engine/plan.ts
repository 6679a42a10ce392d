// Compiles every step of a loaded flow into trace steps before anything is launched, so a form
// this version cannot run is reported with its span at load time, never mid-run. repeat/when
// blocks are planned with their conditions compiled; the recorder expands them (blocks.ts).
import type { Flow, FlowCondition, FlowNode, FlowStep } from "../spec/flow.ts";
import type { Selector, TraceStep } from "../trace/schema.ts";
import type { SourceSpan } from "../diagnostics/diagnostic.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Target } from "../grammar/ast.ts";
import { compileStep, selectorsFor } from "./compile.ts";

/** A condition as the recorder reads it: ladders for its elements, texts still raw templates. */
export type ConditionCheck =
  | { readonly kind: "page_shows"; readonly text: string; readonly negate: boolean }
  | { readonly kind: "shows"; readonly ladder: readonly Selector[]; readonly text: string }
  | { readonly kind: "visible"; readonly ladder: readonly Selector[]; readonly negate: boolean }
  | { readonly kind: "compare"; readonly left: readonly Selector[]; readonly op: "gt" | "lt"; readonly right: readonly Selector[] };

export interface PlannedCondition {
  /** The condition as authored, e.g. `the "id:button" shows Enough`. */
  readonly text: string;
  readonly span: SourceSpan;
  readonly check: ConditionCheck;
}

export type PlanNode =
  | { readonly kind: "step"; readonly source: FlowStep; readonly steps: readonly Omit<TraceStep, "id">[] }
  | {
      readonly kind: "repeat";
      readonly span: SourceSpan;
      readonly until: PlannedCondition;
      readonly max: number;
      readonly body: readonly PlanNode[];
      readonly surface?: string;
    }
  | { readonly kind: "when"; readonly span: SourceSpan; readonly condition: PlannedCondition; readonly body: readonly PlanNode[]; readonly surface?: string };

export type Plan =
  | {
      readonly ok: true;
      /** Every authored step compiled once, in file order; for a flow without blocks, exactly the trace. */
      readonly steps: readonly TraceStep[];
      /** Index of the flow step each trace step came from. */
      readonly sources: readonly number[];
      /** The flow as it runs: compiled steps and blocks. */
      readonly nodes: readonly PlanNode[];
      /** True when the flow holds repeat/when blocks, so its trace is only known once recorded. */
      readonly hasBlocks: boolean;
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export const stepId = (n: number) => `s${String(n).padStart(4, "0")}`;

export function planFlow(flow: Flow, stepTimeoutMs: number): Plan {
  return planBody(flow.steps, flow.body, stepTimeoutMs);
}

/** Plans a list of steps with no blocks (e.g. the steps of a flow that did not fully load). */
export function planSteps(flowSteps: readonly FlowStep[], stepTimeoutMs: number): Plan {
  return planBody(
    flowSteps,
    flowSteps.map((step) => ({ kind: "step", step })),
    stepTimeoutMs,
  );
}

function planBody(flowSteps: readonly FlowStep[], body: readonly FlowNode[], stepTimeoutMs: number): Plan {
  const steps: TraceStep[] = [];
  const sources: number[] = [];
  const problems: Diagnostic[] = [];
  const compiled = new Map<FlowStep, readonly Omit<TraceStep, "id">[]>();
  for (const fs of flowSteps) {
    const c = compileStep(fs.text, fs.ast, { stepTimeoutMs });
    if (!c.ok) {
      problems.push(diagnostic("unsupported-step", c.reason, { span: fs.span, hint: c.hint }));
      continue;
    }
    // A multi-surface flow's steps carry the surface that runs them (the trace's `surface`).
    const surface = fs.surface;
    const placed = surface !== undefined ? c.steps.map((s) => ({ ...s, surface })) : c.steps;
    // `effects: off` beside the step: recorded as such, so replay checks nothing for it either.
    const surfaced = fs.effects === "off" ? placed.map((s) => ({ ...s, effect: { observes: [], off: true as const } })) : placed;
    compiled.set(fs, surfaced);
    for (const s of surfaced) {
      steps.push({ id: stepId(steps.length + 1), ...s });
      sources.push(fs.index);
    }
  }
  let hasBlocks = false;
  const toNodes = (list: readonly FlowNode[]): PlanNode[] =>
    list.flatMap((node): PlanNode[] => {
      switch (node.kind) {
        case "step": {
          const c = compiled.get(node.step);
          return c ? [{ kind: "step", source: node.step, steps: c }] : [];
        }
        case "repeat": {
          hasBlocks = true;
          const until = planCondition(node.until, problems);
          const inner = toNodes(node.body);
          return until
            ? [{ kind: "repeat", span: node.span, until, max: node.max, body: inner, ...(node.surface !== undefined ? { surface: node.surface } : {}) }]
            : [];
        }
        case "when": {
          hasBlocks = true;
          const condition = planCondition(node.condition, problems);
          const inner = toNodes(node.body);
          return condition ? [{ kind: "when", span: node.span, condition, body: inner, ...(node.surface !== undefined ? { surface: node.surface } : {}) }] : [];
        }
      }
    });
  const nodes = toNodes(body);
  return problems.length > 0 ? { ok: false, diagnostics: problems } : { ok: true, steps, sources, nodes, hasBlocks };
}

function planCondition(c: FlowCondition, problems: Diagnostic[]): PlannedCondition | undefined {
  const ladder = (target: Target): readonly Selector[] | undefined => {
    const l = selectorsFor(target);
    if (!l) {
      problems.push(
        diagnostic("unsupported-step", "this kind of target cannot be read by a condition in this version of flowproof", {
          span: c.span,
          hint: 'name the element with `"id:…"` or `"css:…"` in the condition',
        }),
      );
    }
    return l;
  };
  const cond = c.condition;
  let check: ConditionCheck | undefined;
  switch (cond.kind) {
    case "page_shows":
      check = { kind: "page_shows", text: cond.text.raw, negate: cond.negate };
      break;
    case "shows": {
      const l = ladder(cond.target);
      check = l && { kind: "shows", ladder: l, text: cond.text.raw };
      break;
    }
    case "visible": {
      const l = ladder(cond.target);
      check = l && { kind: "visible", ladder: l, negate: cond.negate };
      break;
    }
    case "compare": {
      const left = ladder(cond.left);
      const right = ladder(cond.right);
      check = left && right && { kind: "compare", left, op: cond.op, right };
      break;
    }
  }
  return check && { text: c.text, span: c.span, check };
}
