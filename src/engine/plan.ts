// Compiles every step of a loaded flow into trace steps before anything is launched, so a form
// this version cannot run is reported with its span at load time, never mid-run.
import type { Flow, FlowStep } from "../spec/flow.ts";
import type { TraceStep } from "../trace/schema.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { compileStep } from "./compile.ts";

export type Plan = { readonly ok: true; readonly steps: readonly TraceStep[]; /** Index of the flow step each trace step came from. */ readonly sources: readonly number[] } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export const stepId = (n: number) => `s${String(n).padStart(4, "0")}`;

export function planFlow(flow: Flow, stepTimeoutMs: number): Plan {
  return planSteps(flow.steps, stepTimeoutMs);
}

export function planSteps(flowSteps: readonly FlowStep[], stepTimeoutMs: number): Plan {
  const steps: TraceStep[] = [];
  const sources: number[] = [];
  const problems: Diagnostic[] = [];
  for (const fs of flowSteps) {
    const compiled = compileStep(fs.text, fs.ast, { stepTimeoutMs });
    if (!compiled.ok) {
      problems.push(diagnostic("unsupported-step", compiled.reason, { span: fs.span, hint: compiled.hint }));
      continue;
    }
    for (const s of compiled.steps) {
      steps.push({ id: stepId(steps.length + 1), ...s });
      sources.push(fs.index);
    }
  }
  return problems.length > 0 ? { ok: false, diagnostics: problems } : { ok: true, steps, sources };
}
