// `flowproof validate <flow.yaml>`: parses and checks a flow without a browser — YAML, keys,
// every step's grammar, and whether this version can run each form — and lists the `${VAR}`
// references that have no value now (warnings: CI may set them later).
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { planFlow } from "../engine/plan.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import type { LoadedPlugins } from "../plugins/loader.ts";
import { displayPath } from "./paths.ts";
import { findSuiteFile, loadFlowFile } from "./flow-load.ts";
import { stepTimeoutFromEnv } from "./execution.ts";
import type { CommonOptions } from "./common.ts";
import { resolveProvider } from "../authoring/provider.ts";
import { loadSuiteFile } from "./suite-context.ts";

export interface ValidateOptions extends CommonOptions {
  readonly spec: string;
  /** The project's plugins (`loadPluginsFor`), so `app:` may name a plugin's kind; default none. */
  readonly plugins?: LoadedPlugins;
}

/** A `${VAR}` the flow references that has no value in the environment validate sees. */
export interface UnsetVariable {
  readonly variable: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface ValidateResult {
  readonly name: string;
  readonly app: string;
  readonly steps: number;
  /** Unset variables, in file order (first reference of each); absent when there are none. */
  readonly warnings?: readonly UnsetVariable[];
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
  const warnings = unsetVariables(flow.file, env);
  return { name: flow.name, app: flow.app, steps: plan.steps.length + intents, ...(warnings.length > 0 ? { warnings } : {}) };
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Every `${VAR}` written in the flow file (comment lines aside) that neither the environment nor
 * the governing suite's `env:` gives a value; the suite's `env_from` is not run here.
 */
export function unsetVariables(file: string, env: Readonly<Record<string, string | undefined>>): UnsetVariable[] {
  const suiteFile = findSuiteFile(dirname(file));
  let suiteNames: readonly string[] = [];
  let envFrom = false;
  if (suiteFile) {
    try {
      const suite = loadSuiteFile(suiteFile);
      suiteNames = suite.env.map((e) => e.name);
      envFrom = suite.env_from !== undefined;
    } catch {
      // A broken suite.yaml is reported when the suite runs; here it only sets no variables.
    }
  }
  const seen = new Set<string>();
  const out: UnsetVariable[] = [];
  const lines = readFileSync(file, "utf8").split(/\r?\n/);
  for (const [i, text] of lines.entries()) {
    if (/^\s*#/.test(text)) continue;
    for (const m of text.matchAll(REFERENCE)) {
      const name = m[1]!;
      if (name === "each" || seen.has(name)) continue;
      seen.add(name);
      const value = env[name];
      if ((value !== undefined && value !== "") || suiteNames.includes(name)) continue;
      const where = envFrom ? "the environment (or the suite's env_from)" : "the environment";
      out.push({ variable: name, file: displayPath(file), line: i + 1, column: m.index + 1, message: `\${${name}} is not set; set ${name} in ${where} before record or run, or a step using it errors (exit code 2)` });
    }
  }
  return out;
}
