// The authoring model of `flowproof record`: which one authors plain steps (the one given, or the
// environment's), and the question a recording asks when none is configured and the rules grammar
// cannot read a plain step.
import { clarification, type Clarification } from "../authoring/clarification.ts";
import { createModelClient, resolveProvider, type ModelClient } from "../authoring/provider.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { loadFlowText } from "../spec/flow.ts";
import type { AuthorMode } from "./common.ts";
import { flowLoadOptions, governingSuiteDefaults, readFlowFile, type PluginView } from "./flow-load.ts";
import { displayPath } from "./paths.ts";
import type { SuiteDefaults } from "./suite-context.ts";

export const NO_MODEL_WARNING =
  "WARNING: no authoring model is available (set FLOWPROOF_AI_BASE_URL and FLOWPROOF_AI_MODEL, OPENAI_API_KEY, or ANTHROPIC_API_KEY), so plain steps are recorded with the deterministic rules grammar (route: fallback). Mark steps `rules:` or pass --author rules to make that explicit.";

/** Whether the environment configures an authoring model (throws SpecError when it is misconfigured). */
export function modelConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  return resolveProvider(env).configured;
}

/**
 * The model that authors plain steps: the one given, else the environment's unless `--author rules`.
 * A misconfigured provider is an error in auto and llm mode alike, never a silent fallback; llm
 * mode with no model at all is refused.
 */
export function authoringClient(
  author: AuthorMode,
  given: ModelClient | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ModelClient | undefined {
  let client: ModelClient | undefined = given;
  if (!client && author !== "rules") {
    const provider = resolveProvider(env);
    if (provider.configured) client = createModelClient(provider.config);
  }
  if (author === "llm" && !client) {
    throw new SpecError({
      code: "model-config",
      message: "--author llm needs an authoring model, and none is configured",
      hint: "set FLOWPROOF_AI_BASE_URL and FLOWPROOF_AI_MODEL (any OpenAI-compatible endpoint), OPENAI_API_KEY, or FLOWPROOF_AI_PROVIDER=anthropic with ANTHROPIC_API_KEY",
    });
  }
  return client;
}

/** The clarification for plain steps the rules grammar cannot read when no model is configured; undefined when other problems exist. */
export function noModelClarification(spec: string, view: PluginView, defaults: SuiteDefaults | undefined, error: SpecError): Clarification | undefined {
  const { path, text } = readFlowFile(spec);
  // The suite the flow was just loaded with, found again only when the caller gave none (as loadFlowFile does).
  const loaded = loadFlowText(displayPath(path), text, flowLoadOptions(view, false, defaults ?? governingSuiteDefaults(path)));
  if (!loaded.ok) return undefined;
  const plainAt = (line: number | undefined) => loaded.flow.steps.find((s) => s.form === "plain" && s.span.line === line);
  const first = error.diagnostics[0];
  if (!first || !error.diagnostics.every((d) => (d.code === "unknown-step" || d.code === "unsupported-step") && plainAt(d.span?.line))) return undefined;
  const step = plainAt(first.span?.line)!;
  const completed = loaded.flow.steps.slice(0, step.index).map((s) => s.text);
  return clarification({
    step: step.text,
    stepIndex: step.index + 1,
    stage: "no_model",
    reason: "no authoring model is configured and the rules grammar cannot read this step",
    rules_error: `${first.message}${first.hint ? ` (${first.hint})` : ""}`,
    completed,
    scene: undefined,
    hint: "configure an authoring model (FLOWPROOF_AI_BASE_URL and FLOWPROOF_AI_MODEL), or rewrite the step in the rules grammar (docs/authoring.md)",
  });
}
