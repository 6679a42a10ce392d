// Typed readers for the small mappings of a flow's `mock:`, `session:` and `browser:` blocks:
// known keys with did-you-mean for the rest, and one diagnostic per bad value. Pure: no I/O.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { parseTemplate } from "../grammar/index.ts";
import { isMap, isScalar, isSeq, keyName, spanOf, type Node, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";

export interface Fields {
  readonly source: YamlSource;
  readonly problems: Diagnostic[];
}

/** One entry of a checked mapping: its key node (for spans) and value. */
export interface Entry {
  readonly key: Node;
  readonly value: Node | null;
}

/**
 * The entries of a mapping whose keys are all in `allowed`; unknown keys are reported with a
 * did-you-mean and left out. Undefined (reported) when `node` is not a mapping.
 */
export function entries(f: Fields, node: Node | null, what: string, allowed: readonly string[], hint: string): Map<string, Entry> | undefined {
  if (!isMap(node)) {
    f.problems.push(diagnostic("bad-value", `${what} must be a mapping`, { span: spanOf(f.source, node), hint }));
    return undefined;
  }
  const out = new Map<string, Entry>();
  for (const pair of node.items) {
    const key = keyName(pair);
    const keyNode = pair.key as Node;
    if (allowed.includes(key)) {
      out.set(key, { key: keyNode, value: pair.value as Node | null });
      continue;
    }
    const guess = nearest(key, allowed);
    f.problems.push(
      diagnostic("unknown-key", `unknown key \`${key}\` in ${what}`, {
        span: spanOf(f.source, keyNode),
        hint: `${guess ? `did you mean \`${guess}\`? ` : ""}${what} takes: ${allowed.join(", ")}`,
      }),
    );
  }
  return out;
}

/** Reports a missing required key at the mapping's span. */
export function missing(f: Fields, at: Node | null, what: string, key: string, hint: string): undefined {
  f.problems.push(diagnostic("missing-key", `${what} needs \`${key}\``, { span: spanOf(f.source, at), hint }));
  return undefined;
}

export function bad(f: Fields, at: Node | null | undefined, message: string, hint: string): undefined {
  f.problems.push(diagnostic("bad-value", message, { span: spanOf(f.source, at), hint }));
  return undefined;
}

/** A non-empty string scalar. */
export function text(f: Fields, e: Entry, name: string, hint: string): string | undefined {
  const v = e.value;
  if (!isScalar(v) || typeof v.value !== "string" || v.value.trim() === "") return bad(f, v ?? e.key, `\`${name}\` must be a non-empty string`, hint);
  return v.value;
}

/** A non-empty string that holds no `${…}` reference (a value that must be identical on every run). */
export function literal(f: Fields, e: Entry, name: string, hint: string): string | undefined {
  const value = text(f, e, name, hint);
  if (value === undefined) return undefined;
  if (value.includes("${")) {
    f.problems.push(
      diagnostic("bad-reference", `\`${name}\` must be written literally, not as a \`\${…}\` reference`, { span: spanOf(f.source, e.value), hint }),
    );
    return undefined;
  }
  return value;
}

/**
 * A string that may hold `${VAR}` references (resolved when it is applied, never stored resolved);
 * numbers and booleans are taken as their text. `${captured.…}` has no value before the first step.
 */
export function template(f: Fields, e: Entry, name: string, hint: string, allowEmpty = false): string | undefined {
  const v = e.value;
  if (!isScalar(v) || v.value === null || typeof v.value === "object") return bad(f, v ?? e.key, `\`${name}\` must be a string`, hint);
  const value = String(v.value);
  if (!allowEmpty && value.trim() === "") return bad(f, v, `\`${name}\` must not be empty`, hint);
  const parsed = parseTemplate(value);
  if (!parsed.ok) {
    f.problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(f.source, v), hint: parsed.error.hint }));
    return undefined;
  }
  if (parsed.value.parts.some((p) => p.kind === "captured")) {
    f.problems.push(
      diagnostic("bad-reference", `\`${name}\` is applied before the first step, so it cannot use \`\${captured.…}\``, {
        span: spanOf(f.source, v),
        hint: "use a `${VAR}` environment reference or a literal",
      }),
    );
    return undefined;
  }
  return value;
}

/** An integer scalar within [min, max]. */
export function integer(f: Fields, e: Entry, name: string, min: number, max: number, hint: string): number | undefined {
  const v = e.value;
  if (!isScalar(v) || typeof v.value !== "number" || !Number.isInteger(v.value) || v.value < min || v.value > max) {
    return bad(f, v ?? e.key, `\`${name}\` must be a whole number from ${min} to ${max}`, hint);
  }
  return v.value;
}

/** A number scalar with `min < n <= max`. */
export function positive(f: Fields, e: Entry, name: string, max: number, hint: string): number | undefined {
  const v = e.value;
  if (!isScalar(v) || typeof v.value !== "number" || !Number.isFinite(v.value) || v.value <= 0 || v.value > max) {
    return bad(f, v ?? e.key, `\`${name}\` must be a number above 0 and at most ${max}`, hint);
  }
  return v.value;
}

export function boolean(f: Fields, e: Entry, name: string): boolean | undefined {
  const v = e.value;
  if (!isScalar(v) || typeof v.value !== "boolean") return bad(f, v ?? e.key, `\`${name}\` must be true or false`, `${name}: true`);
  return v.value;
}

/** A list of scalar nodes (each reported by the caller); undefined when not a list. */
export function list(f: Fields, e: Entry, name: string, hint: string): Node[] | undefined {
  if (!isSeq(e.value)) return bad(f, e.value ?? e.key, `\`${name}\` must be a list`, hint);
  return e.value.items as Node[];
}

/** A flow's required top-level string (`name`, `app`), trimmed; reported when absent or not a non-empty string. */
export function requiredString(
  source: YamlSource,
  root: Node,
  values: Map<string, Node | null>,
  key: string,
  problems: Diagnostic[],
  example: string,
): string | undefined {
  const node = values.get(key);
  if (node === undefined) {
    problems.push(diagnostic("missing-key", `a flow needs \`${key}\``, { span: spanOf(source, root), hint: `add \`${example}\`` }));
    return undefined;
  }
  if (!isScalar(node) || typeof node.value !== "string" || node.value.trim() === "") {
    problems.push(diagnostic("bad-value", `\`${key}\` must be a non-empty string`, { span: spanOf(source, node), hint: `write \`${example}\`` }));
    return undefined;
  }
  return node.value.trim();
}
