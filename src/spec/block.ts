// Control blocks of a flow: `foreach:` (expanded here, at load), `repeat:` and `when:` (kept as
// blocks with their parsed conditions; the recorder expands them against the live app), and the
// rule that a Drag is immediately followed by an assertion. Pure: YAML nodes in, nodes and
// diagnostics out; never decides anything about the app.
import { parseCondition } from "../grammar/index.ts";
import type { Condition, ParseContext, ParseResult, StepAst } from "../grammar/ast.ts";
import type { SurfaceKind } from "./surface-kinds.ts";
import { diagnostic, type Diagnostic, type DiagnosticNote, type SourceSpan } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, isSeq, keyName, spanInScalar, spanOf, type Node, type Pair, type Scalar, type YamlSource, type YAMLMap } from "./yaml.ts";
import { describeEach, readEachValues, substituteEach, type EachBinding } from "./foreach.ts";
import { nearest } from "./suggest.ts";
import { LIMITS } from "../diagnostics/limits.ts";

/** A parsed `until:` / `when:` condition with its authored text and span. */
export interface FlowCondition {
  readonly text: string;
  readonly span: SourceSpan;
  readonly condition: Condition;
}

/** `repeat: {until, max, steps}`: passes run while `until` does not hold, at most `max`. */
export interface RepeatBlock {
  readonly kind: "repeat";
  /** Span of the `repeat` key. */
  readonly span: SourceSpan;
  readonly until: FlowCondition;
  /** The most passes the block may take (at least 1). */
  readonly max: number;
  readonly body: readonly FlowNode[];
  /** The surface of the enclosing `in:` block: where `until` is read (multi-surface flows). */
  readonly surface?: string;
}

/** `when: <condition>` + `steps:`: the body runs once when the condition holds. */
export interface WhenBlock {
  readonly kind: "when";
  /** Span of the `when` key. */
  readonly span: SourceSpan;
  readonly condition: FlowCondition;
  readonly body: readonly FlowNode[];
  /** The surface of the enclosing `in:` block: where the condition is read (multi-surface flows). */
  readonly surface?: string;
}

/** How a step was written: a plain scalar, `rules: …`, `assert: …`, or a structured `assert_xxx: {…}`. */
export type StepForm = "plain" | "rules" | "assert" | "structured";

export interface FlowStep {
  /** 0-based position among the flow's authored steps (`Flow.steps`). */
  readonly index: number;
  readonly form: StepForm;
  /** The step text as authored (becomes the trace `intent`; references stay raw). */
  readonly text: string;
  readonly span: SourceSpan;
  readonly ast: StepAst;
  /** The surface of its `in:` block (multi-surface flows only). */
  readonly surface?: string;
  /** `effects: off` beside `rules:`: the step's effect is neither recorded nor checked. */
  readonly effects?: "off";
}

/** One entry of a step list: a concrete step, or a block the recorder expands. */
export type FlowNode = { readonly kind: "step"; readonly step: FlowStep } | RepeatBlock | WhenBlock;

/** Where a step list sits: at the top of `steps:` or inside a block, and the foreach value in scope. */
export interface Scope {
  readonly top: boolean;
  readonly each?: EachBinding;
  /** The surface of the enclosing `in:` block (multi-surface flows). */
  readonly surface?: string;
  /** Directly in an `in:` block's `steps:` (where a `foreach:` may sit, as at the top level). */
  readonly blockTop?: boolean;
}

export interface BlockLoader {
  readonly source: YamlSource;
  /** The grammar context for steps on `surface` (the flow's own app when absent). */
  grammar(surface?: string): ParseContext;
  /** The app kind of a named surface of `apps:`. */
  kindOf(surface: string): SurfaceKind | undefined;
  readonly problems: Diagnostic[];
  /** The flow's steps so far: a loader that builds a step itself (an agent block) appends it here. */
  readonly steps?: FlowStep[];
  /** Loads the items of a `steps:` list in `scope` (recursion into block bodies). */
  loadList(items: readonly Node[], scope: Scope): FlowNode[];
}

const REPEAT_EXAMPLE = '`repeat: {until: the "id:status" shows Done, max: 10, steps: [...]}`';
const FOREACH_EXAMPLE = "`foreach: {values: [a, b, c], steps: [...]}`";

const eachNote = (scope: Scope): readonly DiagnosticNote[] =>
  scope.each ? [{ message: `in foreach pass ${scope.each.index + 1} of ${scope.each.count}, where each = ${describeEach(scope.each.value)}` }] : [];

/**
 * Substitutes `${each…}` in a scalar, then parses the trimmed text. Errors point into the
 * authored text; once a value was spliced in they cover the whole template and name the pass.
 */
export function parseInScalar<T>(
  loader: BlockLoader,
  node: Scalar,
  scope: Scope,
  parse: (text: string) => ParseResult<T>,
): { value: T; text: string; span: SourceSpan } | undefined {
  const { source, problems } = loader;
  const template = String(node.value);
  const sub = substituteEach(template, scope.each);
  if (!sub.ok) {
    problems.push(
      diagnostic("bad-reference", sub.message, { span: spanInScalar(source, node, sub.offset, sub.length), hint: sub.hint, notes: eachNote(scope) }),
    );
    return undefined;
  }
  const text = String(sub.value);
  const trimmed = text.trim();
  const lead = text.indexOf(trimmed);
  const authored = template.trim();
  const span = spanInScalar(source, node, template.indexOf(authored), authored.length);
  const parsed = parse(trimmed);
  if (!parsed.ok) {
    const e = parsed.error;
    problems.push(
      diagnostic(e.code, e.message, {
        span: sub.changed ? span : spanInScalar(source, node, e.offset + lead, e.length),
        hint: e.hint,
        ...(sub.changed ? { notes: eachNote(scope) } : {}),
      }),
    );
    return undefined;
  }
  return { value: parsed.value, text: trimmed, span };
}

function loadCondition(loader: BlockLoader, keyNode: Node, node: Node | null, scope: Scope, key: string): FlowCondition | undefined {
  if (!isScalar(node) || typeof node.value !== "string" || node.value.trim() === "") {
    loader.problems.push(
      diagnostic("bad-value", `\`${key}:\` takes a condition`, {
        span: spanOf(loader.source, node && !(isScalar(node) && (node.value === null || node.value === "")) ? node : keyNode),
        hint: `${key}: the "id:status" shows Done`,
      }),
    );
    return undefined;
  }
  const parsed = parseInScalar(loader, node, scope, (text) => parseCondition(text, loader.grammar(scope.surface)));
  return parsed && { text: parsed.text, span: parsed.span, condition: parsed.value };
}

/** A block's `steps:` value: a non-empty list, loaded as a body. */
function loadBody(loader: BlockLoader, keyNode: Node, node: Node | null | undefined, scope: Scope, block: string): FlowNode[] | undefined {
  if (node === undefined) {
    loader.problems.push(
      diagnostic("missing-key", `a \`${block}:\` block needs a \`steps:\` list`, {
        span: spanOf(loader.source, keyNode),
        hint: block === "when" ? '- when: page shows Error\n  steps:\n    - rules: Press the "Retry" button' : REPEAT_EXAMPLE,
      }),
    );
    return undefined;
  }
  if (!isSeq(node) || node.items.length === 0) {
    loader.problems.push(
      diagnostic("bad-value", `the \`steps:\` of a \`${block}:\` block must be a non-empty list`, {
        span: spanOf(loader.source, node),
        hint: 'write one step per line: `- rules: Press the "Next" button`',
      }),
    );
    return undefined;
  }
  return loader.loadList(node.items as Node[], {
    top: false,
    ...(scope.each ? { each: scope.each } : {}),
    ...(scope.surface !== undefined ? { surface: scope.surface } : {}),
  });
}

/** Splits a block's mapping into its known keys, reporting unknown ones. */
function fields(loader: BlockLoader, map: YAMLMap, allowed: readonly string[], block: string): Map<string, { key: Node; value: Node | null }> {
  const out = new Map<string, { key: Node; value: Node | null }>();
  for (const pair of map.items) {
    const name = keyName(pair);
    if (allowed.includes(name)) out.set(name, { key: pair.key as Node, value: pair.value as Node | null });
    else {
      const guess = nearest(name, allowed);
      loader.problems.push(
        diagnostic("unknown-key", `unknown key \`${name}\` in a \`${block}:\` block`, {
          span: spanOf(loader.source, pair.key as Node),
          hint: `${guess ? `did you mean \`${guess}\`? ` : ""}a \`${block}:\` block has ${allowed.map((k) => `\`${k}\``).join(", ")}`,
        }),
      );
    }
  }
  return out;
}

/** `repeat: {until, max, steps}`. */
export function loadRepeat(loader: BlockLoader, pair: Pair, scope: Scope): FlowNode[] {
  const keyNode = pair.key as Node;
  const value = pair.value as Node | null;
  if (!isMap(value)) {
    loader.problems.push(
      diagnostic("bad-value", "`repeat:` takes a mapping with `until`, `max` and `steps`", {
        span: spanOf(loader.source, value ?? keyNode),
        hint: REPEAT_EXAMPLE,
      }),
    );
    return [];
  }
  const f = fields(loader, value, ["until", "max", "steps"], "repeat");
  const missing = ["until", "max", "steps"].filter((k) => !f.has(k));
  for (const k of missing.filter((k) => k !== "steps")) {
    loader.problems.push(
      diagnostic(
        "missing-key",
        k === "max" ? "a `repeat:` block needs `max:`, the most passes it may take" : "a `repeat:` block needs `until:`, the condition that ends it",
        { span: spanOf(loader.source, keyNode), hint: REPEAT_EXAMPLE },
      ),
    );
  }
  const untilField = f.get("until");
  const until = untilField && loadCondition(loader, untilField.key, untilField.value, scope, "until");
  const maxField = f.get("max");
  const max = maxField && loadMax(loader, maxField.key, maxField.value, scope);
  const body = loadBody(loader, keyNode, f.get("steps")?.value, scope, "repeat");
  if (!until || max === undefined || !body) return [];
  return [{ kind: "repeat", span: spanOf(loader.source, keyNode), until, max, body, ...(scope.surface !== undefined ? { surface: scope.surface } : {}) }];
}

function loadMax(loader: BlockLoader, keyNode: Node, node: Node | null, scope: Scope): number | undefined {
  let value: unknown = isScalar(node) ? node.value : undefined;
  if (isScalar(node) && typeof node.value === "string") {
    const sub = substituteEach(node.value, scope.each);
    if (!sub.ok) {
      loader.problems.push(diagnostic("bad-reference", sub.message, { span: spanInScalar(loader.source, node, sub.offset, sub.length), hint: sub.hint }));
      return undefined;
    }
    value = sub.value;
  }
  const most = LIMITS.repeatMax.value;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= most) return value;
  if (typeof value === "number" && value > most) {
    loader.problems.push(
      diagnostic(
        "limit-exceeded",
        `\`max: ${node && isScalar(node) && node.source !== undefined ? node.source : value}\` is more passes than a \`repeat:\` may take, ${most}`,
        { span: spanOf(loader.source, node ?? keyNode), hint: `write at most \`max: ${most}\`; see docs/flow-format.md, "Limits"` },
      ),
    );
    return undefined;
  }
  loader.problems.push(
    diagnostic("bad-value", "`max:` must be a whole number of passes, at least 1", { span: spanOf(loader.source, node ?? keyNode), hint: "max: 10" }),
  );
  return undefined;
}

/** `when: <condition>` with a sibling `steps:` (a two-key mapping). */
export function loadWhen(loader: BlockLoader, map: YAMLMap, scope: Scope): FlowNode[] {
  const f = fields(loader, map, ["when", "steps"], "when");
  const whenField = f.get("when");
  if (!whenField) return [];
  const condition = loadCondition(loader, whenField.key, whenField.value, scope, "when");
  const body = loadBody(loader, whenField.key, f.get("steps")?.value, scope, "when");
  if (!condition || !body) return [];
  return [{ kind: "when", span: spanOf(loader.source, whenField.key), condition, body, ...(scope.surface !== undefined ? { surface: scope.surface } : {}) }];
}

/** `foreach: {values, steps}`: expanded now, one copy of the steps per value. */
export function loadForeach(loader: BlockLoader, pair: Pair, scope: Scope): FlowNode[] {
  const keyNode = pair.key as Node;
  if (!scope.top && !scope.blockTop) {
    loader.problems.push(
      diagnostic(
        "bad-value",
        scope.each
          ? "a `foreach:` cannot be nested inside another `foreach:`"
          : "`foreach:` may only appear at the top level of `steps:` (or of an `in:` block), not inside a `repeat:` or `when:` block",
        {
          span: spanOf(loader.source, keyNode),
          hint: scope.each
            ? "use one foreach whose values are mappings: `values: [{size: S, colour: red}, …]` with `${each.size}` and `${each.colour}`"
            : "move the foreach out of the block, to the flow's `steps:` list",
        },
      ),
    );
    return [];
  }
  const value = pair.value as Node | null;
  if (!isMap(value)) {
    loader.problems.push(
      diagnostic("bad-value", "`foreach:` takes a mapping with `values` and `steps`", { span: spanOf(loader.source, value ?? keyNode), hint: FOREACH_EXAMPLE }),
    );
    return [];
  }
  const f = fields(loader, value, ["values", "steps"], "foreach");
  const valuesField = f.get("values");
  const stepsNode = f.get("steps")?.value;
  if (!valuesField)
    loader.problems.push(
      diagnostic("missing-key", "a `foreach:` block needs `values:`, the list to repeat over", { span: spanOf(loader.source, keyNode), hint: FOREACH_EXAMPLE }),
    );
  if (f.get("steps") === undefined)
    loader.problems.push(
      diagnostic("missing-key", "a `foreach:` block needs a `steps:` list", { span: spanOf(loader.source, keyNode), hint: FOREACH_EXAMPLE }),
    );
  else if (!isSeq(stepsNode) || stepsNode.items.length === 0) {
    loader.problems.push(
      diagnostic("bad-value", "the `steps:` of a `foreach:` block must be a non-empty list", {
        span: spanOf(loader.source, stepsNode ?? keyNode),
        hint: FOREACH_EXAMPLE,
      }),
    );
    return [];
  }
  if (!valuesField || !isSeq(stepsNode)) return [];
  const values = readEachValues(valuesField.value);
  if (!values.ok) {
    loader.problems.push(diagnostic("bad-value", values.message, { span: spanOf(loader.source, values.node ?? valuesField.key), hint: values.hint }));
    return [];
  }
  // Bounded before expanding: the copies would be made (and held) first.
  const most = LIMITS.flowSteps.value;
  if (values.values.length * stepsNode.items.length > most) {
    loader.problems.push(
      diagnostic(
        "limit-exceeded",
        `this \`foreach:\` expands to ${values.values.length} values × ${stepsNode.items.length} steps = ${values.values.length * stepsNode.items.length} steps, more than the ${most} a flow may have`,
        {
          span: spanOf(loader.source, keyNode),
          hint: `split the values over several flows (a suite runs them together); see docs/flow-format.md, "Limits"`,
        },
      ),
    );
    return [];
  }
  const nodes: FlowNode[] = [];
  values.values.forEach((v, index) => {
    for (const n of loader.loadList(stepsNode.items as Node[], {
      top: false,
      each: { value: v, index, count: values.values.length },
      ...(scope.surface !== undefined ? { surface: scope.surface } : {}),
    }))
      nodes.push(n);
  });
  return nodes;
}

/**
 * A Drag must be immediately followed by an assertion step, in every step list (block bodies
 * too). `beforeGap` holds nodes whose next item did not load: that item may be the assertion.
 */
export function checkDragsAsserted(nodes: readonly FlowNode[], problems: Diagnostic[], beforeGap: ReadonlySet<FlowNode> = new Set()): void {
  nodes.forEach((node, i) => {
    if (node.kind !== "step") {
      checkDragsAsserted(node.body, problems, beforeGap);
      return;
    }
    if (node.step.ast.kind !== "drag" || beforeGap.has(node)) return;
    const next = nodes[i + 1];
    if (next?.kind === "step" && (next.step.ast.kind === "assert" || next.step.ast.kind === "structured")) return;
    problems.push(
      diagnostic("unverified-drag", "a Drag step must be immediately followed by an assertion step", {
        span: node.step.span,
        hint: 'add an `assert:` step right after it that checks where the item landed, e.g. `- assert: the "id:done" shows Write docs`',
      }),
    );
  });
}
