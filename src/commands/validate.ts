// `flowproof validate <flow.yaml>`: parses and checks a flow without a browser — YAML, keys,
// every step's grammar, and whether this version can run each form.
import { planFlow } from "../engine/plan.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import type { LoadedPlugins } from "../plugins/loader.ts";
import { loadFlowFile, stepTimeoutFromEnv, type CommonOptions } from "./common.ts";

export interface ValidateOptions extends CommonOptions {
  readonly spec: string;
  /** The project's plugins (`loadPluginsFor`), so `app:` may name a plugin's kind; default none. */
  readonly plugins?: LoadedPlugins;
}

export interface ValidateResult {
  readonly name: string;
  readonly app: string;
  readonly steps: number;
}

/** Throws SpecError carrying every problem of the file. */
export function validate(options: ValidateOptions): ValidateResult {
  const flow = loadFlowFile(options.spec, options.plugins?.adapters.map((a) => a.kind) ?? [], options.plugins?.assertions ?? []);
  const plan = planFlow(flow, stepTimeoutFromEnv(options.env ?? process.env));
  if (!plan.ok) throw new SpecError(plan.diagnostics);
  return { name: flow.name, app: flow.app, steps: plan.steps.length };
}
