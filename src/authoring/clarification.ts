// The clarification payload: what an agent (or a person) needs to rewrite a plain step that was
// too ambiguous to author — the reason, the candidates, the steps already done and the scene.
// Pure. `${VAR}` references stay raw; values never appear.
import type { SceneInventory } from "../plugins/api.ts";

/** One scene entry as a clarification lists it. */
export interface ClarificationSceneEntry {
  readonly target: string;
  readonly tag?: string;
  readonly label?: string;
  readonly text?: string;
  readonly type?: string;
  readonly rule?: string;
  readonly invalid?: boolean;
}

/** `{needs_clarification: …}` on `record --json` (exit 2), a normal result over MCP. */
export interface Clarification {
  /** The step as authored. */
  readonly step: string;
  /** 1-based number of the executable step that could not be authored. */
  readonly step_index: number;
  /** `no_model`: no model could author it; `model`: the model could not ground it unambiguously. */
  readonly stage: "no_model" | "model";
  readonly reason: string;
  /** The pronoun that was ambiguous (e.g. "it"). */
  readonly capture_reference?: string;
  /** The remembered values it could mean (names only). */
  readonly capture_candidates?: readonly string[];
  /** Why the rules grammar refused it (no_model). */
  readonly rules_error?: string;
  /** Intents of the steps recorded before it. */
  readonly completed_steps: readonly string[];
  readonly scene: readonly ClarificationSceneEntry[];
  readonly hint: string;
}

export interface ClarificationInput {
  readonly step: string;
  readonly stepIndex: number;
  readonly reason: string;
  readonly hint: string;
  readonly completed: readonly string[];
  readonly scene: SceneInventory | undefined;
  readonly stage?: Clarification["stage"];
  readonly capture_reference?: string;
  readonly capture_candidates?: readonly string[];
  readonly rules_error?: string;
}

export function clarification(input: ClarificationInput): Clarification {
  return {
    step: input.step,
    step_index: input.stepIndex,
    stage: input.stage ?? "model",
    reason: input.reason,
    ...(input.capture_reference !== undefined ? { capture_reference: input.capture_reference } : {}),
    ...(input.capture_candidates !== undefined ? { capture_candidates: [...input.capture_candidates] } : {}),
    ...(input.rules_error !== undefined ? { rules_error: input.rules_error } : {}),
    completed_steps: [...input.completed],
    scene: (input.scene?.entries ?? []).map((e) => ({
      target: e.target,
      ...(e.tag !== undefined ? { tag: e.tag } : {}),
      ...(e.label !== undefined ? { label: e.label } : {}),
      ...(e.text !== undefined ? { text: e.text } : {}),
      ...(e.type !== undefined ? { type: e.type } : {}),
      ...(e.rule !== undefined ? { rule: e.rule } : {}),
      ...(e.invalid !== undefined ? { invalid: e.invalid } : {}),
    })),
    hint: input.hint,
  };
}
