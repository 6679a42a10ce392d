// Loads a structured step (`- assert_api: {…}`, `- assert_no_secret_leak: ${VAR}`): the arguments
// are checked against the owning kind's JSON Schema and its own checks, every problem pointed at
// the YAML node it concerns. Pure: YAML nodes and schemas in, args (templates raw) out.
import type Ajv from "ajv";
import type { ErrorObject } from "ajv";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { MAX_TIMEOUT_SECONDS, MAX_TIMEOUT_TEXT } from "../diagnostics/bounds.ts";
import { parseTemplate } from "../grammar/index.ts";
import { isMap, isScalar, isSeq, keyName, spanOf, type Node, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import { substituteEach, type EachBinding } from "./foreach.ts";

/** A problem a kind's own check found, pointed at the node under `path`. */
export interface StructuredProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly hint: string;
}

/** What spec/ needs to know of a structured step kind (an assertion plugin): its schema and extra checks. */
export interface StructuredKind {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly check?: (args: never) => readonly StructuredProblem[];
  /** Surface capabilities the kind needs (e.g. "screenshot"); a flow whose app lacks one is refused at load. */
  readonly needs?: readonly string[];
}

export const SECRET_LEAK_KEY = "assert_no_secret_leak";

/** The YAML node under `path` (keys and indices), or the deepest node found on the way. */
export function nodeAt(root: Node | null, path: readonly (string | number)[]): { node: Node | null; keyNode?: Node } {
  let node: Node | null = root;
  let keyNode: Node | undefined;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => keyName(p) === String(seg));
      if (!pair) break;
      keyNode = pair.key as Node;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof seg === "number" && node.items[seg]) {
      node = node.items[seg] as Node;
      keyNode = undefined;
    } else break;
  }
  return keyNode ? { node, keyNode } : { node };
}

/** The step's arguments as plain data, with `${each}` substituted in every string; problems collected. */
function toArgs(source: YamlSource, node: Node | null, each: EachBinding | undefined, problems: Diagnostic[]): unknown {
  if (node === null || node === undefined) return null;
  if (isScalar(node)) {
    if (typeof node.value !== "string") return node.value;
    const sub = substituteEach(node.value, each);
    if (!sub.ok) {
      problems.push(diagnostic("bad-reference", sub.message, { span: spanOf(source, node), hint: sub.hint }));
      return node.value;
    }
    if (typeof sub.value === "string") {
      const parsed = parseTemplate(sub.value);
      if (!parsed.ok) problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(source, node), hint: parsed.error.hint }));
    }
    return sub.value;
  }
  if (isSeq(node)) return node.items.map((item) => toArgs(source, item as Node, each, problems));
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) out[keyName(pair)] = toArgs(source, pair.value as Node | null, each, problems);
    return out;
  }
  return null;
}

const jsonPointer = (p: string): string[] =>
  p
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));

function describeError(
  e: ErrorObject,
  key: string,
  schema: Readonly<Record<string, unknown>>,
): { path: (string | number)[]; onKey: boolean; message: string; hint: string } {
  const path: (string | number)[] = jsonPointer(e.instancePath).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const at = path.length > 0 ? `\`${path.join(".")}\`` : `\`${key}\``;
  const params = e.params as Record<string, unknown>;
  const props = (schema["properties"] as Record<string, unknown> | undefined) ?? {};
  const known = Object.keys(props);
  switch (e.keyword) {
    case "additionalProperties": {
      const extra = String(params["additionalProperty"]);
      const guess = path.length === 0 ? nearest(extra, known) : undefined;
      return {
        path: [...path, extra],
        onKey: true,
        message: `unknown key \`${extra}\` in \`${key}\``,
        hint: `${guess ? `did you mean \`${guess}\`? ` : ""}${path.length === 0 ? `\`${key}\` takes: ${known.join(", ")}` : "remove it"}`,
      };
    }
    case "required":
      return {
        path,
        onKey: false,
        message: `\`${key}\` needs \`${String(params["missingProperty"])}\``,
        hint: `add \`${String(params["missingProperty"])}:\` to the step`,
      };
    case "type":
      return {
        path,
        onKey: false,
        message: `${at} must be ${articled(String(params["type"]))}`,
        hint: path.length === 0 ? `write \`${key}:\` with a mapping of its keys: ${known.join(", ")}` : "see docs/flow-format.md for the step's keys",
      };
    case "enum":
      return {
        path,
        onKey: false,
        message: `${at} must be one of ${(params["allowedValues"] as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        hint: "pick one of the listed values",
      };
    default:
      return { path, onKey: false, message: `${at} ${e.message ?? "is not valid"}`, hint: "see docs/flow-format.md for the step's keys" };
  }
}

const articled = (type: string) =>
  type
    .split(",")
    .map((t) => (t === "object" ? "a mapping" : t === "array" ? "a list" : t === "integer" ? "a whole number" : `a ${t}`))
    .join(" or ");

/**
 * Validates a structured step's value node against `kind`. Returns the arguments (templates raw)
 * when there was no problem; pushes every problem, each with the span of its node.
 */
export function loadStructuredArgs(
  source: YamlSource,
  key: string,
  keyNode: Node,
  value: Node | null,
  kind: StructuredKind,
  each: EachBinding | undefined,
  problems: Diagnostic[],
): unknown | undefined {
  const before = problems.length;
  const args = toArgs(source, value, each, problems);
  // Ajv loads with the first structured step: a flow of plain steps never pays for loading it.
  const Validator = (require("ajv") as { default: typeof Ajv }).default;
  const ajv = new Validator({ allErrors: true, strict: false });
  const validate = ajv.compile(kind.schema);
  if (!validate(args)) {
    const seen = new Set<string>();
    for (const e of validate.errors ?? []) {
      // anyOf/oneOf branches repeat their children's errors; the summary line is enough.
      if (e.keyword === "if") continue;
      const d = describeError(e, key, kind.schema);
      const sig = `${d.path.join(".")}|${d.message}`;
      if (seen.has(sig)) continue;
      seen.add(sig);
      const found = nodeAt(value, d.path);
      const whole = e.keyword === "required" && d.path.length === 0 ? keyNode : (value ?? keyNode);
      const spanNode = d.onKey ? (found.keyNode ?? found.node ?? keyNode) : d.path.length === 0 ? whole : (found.node ?? keyNode);
      problems.push(
        diagnostic(e.keyword === "additionalProperties" ? "unknown-key" : e.keyword === "required" ? "missing-key" : "bad-value", d.message, {
          span: spanOf(source, spanNode),
          hint: d.hint,
        }),
      );
    }
    return undefined;
  }
  if (problems.length > before) return undefined;
  // Every kind's `timeout_seconds` becomes the step's bound, which a timer must be able to hold.
  const timeout = typeof args === "object" && args !== null ? (args as Record<string, unknown>)["timeout_seconds"] : undefined;
  if (typeof timeout === "number" && !(timeout <= MAX_TIMEOUT_SECONDS)) {
    const found = nodeAt(value, ["timeout_seconds"]);
    problems.push(
      diagnostic("bad-value", `\`timeout_seconds\` of \`${key}\` is longer than the longest bound flowproof can wait, ${MAX_TIMEOUT_TEXT}`, {
        span: spanOf(source, found.node ?? keyNode),
        hint: `write at most ${MAX_TIMEOUT_SECONDS}, e.g. \`timeout_seconds: 30\``,
      }),
    );
    return undefined;
  }
  for (const p of kind.check?.(args as never) ?? []) {
    const found = nodeAt(value, p.path);
    problems.push(
      diagnostic("bad-value", p.message, { span: spanOf(source, p.path.length === 0 ? keyNode : (found.keyNode ?? found.node ?? keyNode)), hint: p.hint }),
    );
  }
  return problems.length > before ? undefined : args;
}

/** `assert_no_secret_leak: ${VAR}` or a list of them: the variable names, or problems. */
export function loadSecretLeakVars(source: YamlSource, keyNode: Node, value: Node | null, problems: Diagnostic[]): string[] | undefined {
  const hint = "write `assert_no_secret_leak: ${DB_PASSWORD}` or a list of `${NAME}` references";
  const items: (Node | null)[] = isSeq(value) ? (value.items as Node[]) : [value];
  if (items.length === 0) {
    problems.push(diagnostic("bad-value", "`assert_no_secret_leak` needs at least one `${VAR}`", { span: spanOf(source, value ?? keyNode), hint }));
    return undefined;
  }
  const vars: string[] = [];
  let bad = false;
  for (const item of items) {
    const m = isScalar(item) && typeof item.value === "string" ? /^\s*\$\{([A-Za-z_][A-Za-z0-9_]*)\}\s*$/.exec(item.value) : null;
    if (!m) {
      bad = true;
      problems.push(
        diagnostic("bad-value", "`assert_no_secret_leak` takes only `${NAME}` references to environment variables", {
          span: spanOf(source, item ?? keyNode),
          hint,
        }),
      );
      continue;
    }
    if (!vars.includes(m[1]!)) vars.push(m[1]!);
  }
  return bad ? undefined : vars;
}
