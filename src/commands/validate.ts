// `flowproof validate <flow.yaml>`: parses and checks a flow without a browser — YAML, keys,
// every step's grammar, and whether this version can run each form.
import { planFlow } from "../engine/plan.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import type { LoadedPlugins } from "../plugins/loader.ts";
import { loadFlowFile, stepTimeoutFromEnv, type CommonOptions } from "./common.ts";
import { resolveProvider } from "../authoring/provider.ts";

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
  const env = options.env ?? process.env;
  // With an authoring model configured, plain steps are intent the model grounds at record time,
  // so only rules:, assert:, structured steps and blocks are checked against the grammar here.
  const flow = loadFlowFile(options.spec, options.plugins?.adapters.map((a) => a.kind) ?? [], options.plugins?.assertions ?? [], !resolveProvider(env).configured);
  const plan = planFlow(flow, stepTimeoutFromEnv(env));
  if (!plan.ok) throw new SpecError(plan.diagnostics);
  const intents = flow.steps.filter((s) => s.ast.kind === "intent").length;
  return { name: flow.name, app: flow.app, steps: plan.steps.length + intents };
}
