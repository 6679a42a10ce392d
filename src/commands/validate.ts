// `flowproof validate <flow.yaml>`: parses and checks a flow without a browser — YAML, keys,
// every step's grammar, and whether this version can run each form — and lists the `${VAR}`
// references that have no value now (warnings: CI may set them later).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { planFlow } from "../engine/plan.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import type { LoadedPlugins } from "../plugins/loader.ts";
import { displayPath } from "./paths.ts";
import { findSuiteFile, loadFlowFile, viewOf } from "./flow-load.ts";
import { stepTimeoutFromEnv } from "./execution.ts";
import { withinRoot, type CommonOptions } from "./common.ts";
import { resolveProvider } from "../authoring/provider.ts";
import { checkMinVersion, loadSuiteFile, suiteDefaultsOf } from "./suite-context.ts";
import { loadPluginsFor } from "./project-plugins.ts";
import type { SuiteConfig } from "../spec/suite.ts";

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

/**
 * `flowproof validate`, as the CLI, the MCP tool and `Flow.validate` all run it: the project's
 * plugins loaded, then `validate`.
 */
export function validateFlow(options: ValidateOptions): Promise<ValidateResult> {
  return withinRoot(options.root, { "the flow": options.spec }, async () => {
    const plugins = options.plugins ?? (await loadPluginsFor(options.spec, options.env ?? process.env));
    return validate({ ...options, plugins });
  });
}

/**
 * Throws SpecError carrying every problem of the file. The governing suite.yaml applies without
 * running anything: its `min_version`, `browser` defaults and `identities`, and the names of its
 * `env:` entries (set for the unset-variable warnings); `env_from`, hooks and `server:` run only
 * when the flow does.
 */
export function validate(options: ValidateOptions): ValidateResult {
  const env = options.env ?? process.env;
  const path = resolve(options.spec);
  const suiteFile = findSuiteFile(dirname(path));
  const suite = suiteFile ? loadSuiteFile(suiteFile) : undefined;
  if (suiteFile && suite) checkMinVersion(suiteFile, suite);
  const defaults = suiteFile && suite ? suiteDefaultsOf(suiteFile, suite) : undefined;
  // With an authoring model configured, plain steps are intent the model grounds at record time,
  // so only rules:, assert:, structured steps and blocks are checked against the grammar here.
  const flow = loadFlowFile(options.spec, viewOf(options.plugins), !resolveProvider(env).configured, defaults);
  const plan = planFlow(flow, stepTimeoutFromEnv(env));
  if (!plan.ok) throw new SpecError(plan.diagnostics);
  const intents = flow.steps.filter((s) => s.ast.kind === "intent").length;
  const warnings = unsetVariables(flow.file, env, suite);
  return { name: flow.name, app: flow.app, steps: plan.steps.length + intents, ...(warnings.length > 0 ? { warnings } : {}) };
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Every `${VAR}` written in the flow file (comment lines aside) that neither the environment nor
 * the governing suite's `env:` gives a value; the suite's `env_from` is not run here.
 */
export function unsetVariables(file: string, env: Readonly<Record<string, string | undefined>>, suite: SuiteConfig | undefined): UnsetVariable[] {
  const suiteNames: readonly string[] = suite?.env.map((e) => e.name) ?? [];
  const envFrom = suite?.env_from !== undefined;
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
      out.push({
        variable: name,
        file: displayPath(file),
        line: i + 1,
        column: m.index + 1,
        message: `\${${name}} is not set; set ${name} in ${where} before record or run, or a step using it errors (exit code 2)`,
      });
    }
  }
  return out;
}
