// The `effects:` keys of a flow: the flow's policy (on, strict, off) and a step's `effects: off`
// beside its `rules:` (see docs/flow-format.md). Pure.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, keyName, spanOf, type Node, type Scalar, type YamlSource } from "./yaml.ts";
import type { FlowNode, FlowStep } from "./block.ts";

/** The flow's `effects:` (on, strict, off); undefined when absent. */
export function loadEffects(source: YamlSource, node: Node | null | undefined, problems: Diagnostic[]): "on" | "strict" | "off" | undefined {
  if (node === undefined) return undefined;
  if (isScalar(node) && (node.value === "on" || node.value === "strict" || node.value === "off")) return node.value;
  // YAML 1.1 readers turn a bare `off`/`on` into a boolean; take it as meant.
  if (isScalar(node) && typeof node.value === "boolean") return node.value ? "on" : "off";
  problems.push(
    diagnostic("bad-value", `\`effects:\` must be on, strict or off, not ${JSON.stringify(isScalar(node) ? node.value : "a block")}`, {
      span: spanOf(source, node),
      hint: "effects: strict   (or on, the default; or off to check no step's effect)",
    }),
  );
  return undefined;
}

/**
 * `- rules: <step>` with `effects: off` beside it: the step (loaded by `load`, which adds it to
 * `steps`) marked so its effect is neither recorded nor checked; nothing when either key is wrong.
 */
export function withEffectsOff(
  source: YamlSource,
  item: Node,
  problems: Diagnostic[],
  steps: FlowStep[],
  load: (text: Scalar) => FlowStep | undefined,
): FlowNode[] {
  const text = rulesWithEffectsOff(source, item, problems);
  const step = text && load(text);
  if (!step) return [];
  const off: FlowStep = { ...step, effects: "off" };
  steps[steps.indexOf(step)] = off;
  return [{ kind: "step", step: off }];
}

/** The step text of `- rules: <step>` with `effects: off` beside it; undefined (a problem reported) when either is wrong. */
function rulesWithEffectsOff(source: YamlSource, item: Node, problems: Diagnostic[]): Scalar | undefined {
  const pairs = isMap(item) ? item.items : [];
  const rules = pairs.find((p) => keyName(p) === "rules");
  const effects = pairs.find((p) => keyName(p) === "effects");
  if (!rules || !effects) return undefined;
  const value = effects.value as Node | null;
  if (!(isScalar(value) && (value.value === "off" || value.value === false))) {
    problems.push(
      diagnostic("bad-value", `a step's \`effects:\` can only be off, not ${JSON.stringify(isScalar(value) ? value.value : "a block")}`, {
        span: spanOf(source, (value ?? effects.key) as Node),
        hint: '- rules: Press the "Ping" button\n  effects: off   (strict applies to a whole flow: `effects: strict` at the top)',
      }),
    );
    return undefined;
  }
  const text = rules.value as Node | null;
  if (!isScalar(text) || typeof text.value !== "string" || text.value.trim() === "") {
    problems.push(
      diagnostic("bad-value", "`rules:` takes the step's text", {
        span: spanOf(source, (text ?? rules.key) as Node),
        hint: '- rules: Press the "Save" button',
      }),
    );
    return undefined;
  }
  return text;
}
