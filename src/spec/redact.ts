// The flow's `redact:` list: what every persisted frame must mask. Validated here with spans;
// the rules are copied verbatim into the trace header at record. Pure: no I/O.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { parseTemplate } from "../grammar/index.ts";
import { lacking, type SurfaceGrammar } from "../grammar/vocabulary.ts";
import { isMap, isScalar, isSeq, keyName, spanOf, type Node, type YamlSource } from "./yaml.ts";

/**
 * `{target: {css: "#ssn"}, mode: mask}`, `{target: {text: "IBAN"}, mode: mask}` (what shows that
 * text, as the surface finds it; a `${VAR}` in it is resolved at run time and masked as a secret) or `{target: {rect: [x, y, w, h]}, mode: mask}` (pixels of the frame).
 */
export type FlowRedactionRule =
  | { readonly target: { readonly css: string }; readonly mode: "mask" }
  | { readonly target: { readonly text: string }; readonly mode: "mask" }
  | { readonly target: { readonly rect: readonly [number, number, number, number] }; readonly mode: "mask" };

const EXAMPLE = 'redact:\n  - target: { css: "#ssn" }\n    mode: mask';

/** `redact:` of a flow whose surface speaks `surface` (a surface that lacks `css` targets refuses css rules too). */
export function loadRedact(source: YamlSource, node: Node | null, problems: Diagnostic[], surface?: SurfaceGrammar): FlowRedactionRule[] {
  if (!isSeq(node)) {
    problems.push(diagnostic("bad-value", "`redact` must be a list of rules", { span: spanOf(source, node), hint: EXAMPLE }));
    return [];
  }
  const rules: FlowRedactionRule[] = [];
  for (const item of node.items as Node[]) {
    const rule = loadRule(source, item, problems, surface);
    if (rule) rules.push(rule);
  }
  return rules;
}

function loadRule(source: YamlSource, item: Node, problems: Diagnostic[], surface: SurfaceGrammar | undefined): FlowRedactionRule | undefined {
  const bad = (message: string, at: Node | null | undefined = item, hint = EXAMPLE) => {
    problems.push(diagnostic("bad-value", message, { span: spanOf(source, at), hint }));
    return undefined;
  };
  if (!isMap(item)) return bad("a redaction rule is a mapping with `target` and `mode`");
  let target: Node | null | undefined;
  let mode: Node | null | undefined;
  for (const pair of item.items) {
    const key = keyName(pair);
    if (key === "target") target = pair.value as Node | null;
    else if (key === "mode") mode = pair.value as Node | null;
    else {
      problems.push(
        diagnostic("unknown-key", `unknown key \`${key}\` in a redaction rule`, {
          span: spanOf(source, pair.key as Node),
          hint: "a rule has `target` and `mode`",
        }),
      );
      return undefined;
    }
  }
  if (mode !== undefined && !(isScalar(mode) && mode.value === "mask")) return bad("`mode` must be `mask` (a solid fill)", mode, "mode: mask");
  if (!isMap(target) || target.items.length !== 1)
    return bad("`target` must be exactly one of `{ css: … }`, `{ text: … }` or `{ rect: [x, y, width, height] }`", target ?? item);
  const pair = target.items[0]!;
  const kind = keyName(pair);
  const value = pair.value as Node | null;
  if (kind === "css") {
    if (surface?.lacks?.includes("css")) {
      problems.push(
        diagnostic("unsupported-feature", `a \`css\` redaction target cannot be used on ${surface.name}: ${lacking("css")}`, {
          span: spanOf(source, pair.key as Node),
          hint: 'mask what shows a text with `target: { text: "IBAN" }`, or a fixed region with `target: { rect: [x, y, width, height] }`',
        }),
      );
      return undefined;
    }
    if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "")
      return bad("`css` must be a non-empty selector", value ?? target, 'target: { css: "#ssn" }');
    return { target: { css: value.value }, mode: "mask" };
  }
  if (kind === "text") {
    if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "")
      return bad("`text` must be the non-empty text whose place is masked", value ?? target, 'target: { text: "IBAN" }');
    if (value.value.includes("${")) {
      // `${VAR}` resolves from the environment as each frame is taken, and is masked as a secret is;
      // the rule is kept as written (the value never reaches the trace or the report).
      const parsed = parseTemplate(value.value);
      if (!parsed.ok) return bad(parsed.error.message, value, parsed.error.hint ?? 'target: { text: "${IBAN}" }');
      if (parsed.value.parts.some((p) => p.kind === "captured")) {
        return bad(
          "`text` can name a `${VAR}` from the environment, not a `${captured.…}` value (frames are masked from the first step on, before anything is remembered)",
          value,
          'target: { text: "${IBAN}" }',
        );
      }
    }
    return { target: { text: value.value }, mode: "mask" };
  }
  if (kind === "rect") {
    const nums = isSeq(value) ? (value.items as Node[]).map((n) => (isScalar(n) && typeof n.value === "number" ? n.value : NaN)) : [];
    if (nums.length !== 4 || nums.some((n) => !Number.isFinite(n)) || nums[2]! <= 0 || nums[3]! <= 0) {
      return bad("`rect` must be [x, y, width, height] with a positive width and height", value ?? target, "target: { rect: [0, 0, 320, 40] }");
    }
    return { target: { rect: [nums[0]!, nums[1]!, nums[2]!, nums[3]!] }, mode: "mask" };
  }
  if (kind === "automation_id") {
    problems.push(
      diagnostic(
        "unsupported-feature",
        "`automation_id` is not a redaction target: a rule masks an element by `css` (where the surface has CSS selectors), a text wherever it shows (`text`), or a fixed region (`rect`)",
        {
          span: spanOf(source, pair.key as Node),
          hint: 'mask what the control shows with `target: { text: "PIN" }`, or its place with `target: { rect: [x, y, width, height] }`',
        },
      ),
    );
    return undefined;
  }
  return bad(`unknown redaction target \`${kind}\``, pair.key as Node, 'target: { css: "#ssn" }, target: { text: "IBAN" } or target: { rect: [x, y, w, h] }');
}
