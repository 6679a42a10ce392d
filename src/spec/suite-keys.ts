// The flow keys that matter to a suite: `control:` (audit), `exports:` (hand-off to later flows)
// and `skip_unless_env:` (a gated flow). Validated here with spans. Pure: no I/O, no env.
import { parseTemplate } from "../grammar/index.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, isSeq, keyName, spanOf, type Node, type YamlSource } from "./yaml.ts";

/** A security control a flow proves; folded into `flowproof audit`. */
export interface FlowControl {
  readonly id: string;
  readonly title?: string;
  readonly description?: string;
}

/** `ENV_NAME: template` pairs resolved from the flow's captures when its last step passes. */
export type FlowExports = Readonly<Record<string, string>>;

export interface SuiteKeys {
  readonly control?: FlowControl;
  readonly exports?: FlowExports;
  readonly skip_unless_env?: readonly string[];
}

export const CONTROL_ID = /^[a-z0-9._-]+$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads the three keys from the flow's top-level values; problems are appended. */
export function loadSuiteKeys(source: YamlSource, values: ReadonlyMap<string, Node | null>, problems: Diagnostic[]): SuiteKeys {
  const out: { control?: FlowControl; exports?: FlowExports; skip_unless_env?: readonly string[] } = {};
  const control = values.get("control");
  if (control !== undefined) {
    const c = loadControl(source, control, problems);
    if (c) out.control = c;
  }
  const exports = values.get("exports");
  if (exports !== undefined) {
    const e = loadExports(source, exports, problems);
    if (e) out.exports = e;
  }
  const gate = values.get("skip_unless_env");
  if (gate !== undefined) {
    const g = loadGate(source, gate, problems);
    if (g) out.skip_unless_env = g;
  }
  return out;
}

function loadControl(source: YamlSource, node: Node | null, problems: Diagnostic[]): FlowControl | undefined {
  const hint = "control:\n  id: auth.session-expiry\n  title: Sessions expire after logout";
  if (!isMap(node)) {
    problems.push(diagnostic("bad-value", "`control` must be a mapping with `id` (and optional `title`, `description`)", { span: spanOf(source, node), hint }));
    return undefined;
  }
  const fields: Record<string, string> = {};
  let ok = true;
  for (const pair of node.items) {
    const key = keyName(pair);
    const value = pair.value as Node | null;
    if (!["id", "title", "description"].includes(key)) {
      problems.push(
        diagnostic("unknown-key", `unknown key \`${key}\` in \`control\``, {
          span: spanOf(source, pair.key as Node),
          hint: "a control has `id`, `title` and `description`",
        }),
      );
      ok = false;
      continue;
    }
    if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "") {
      problems.push(diagnostic("bad-value", `\`control.${key}\` must be a non-empty string`, { span: spanOf(source, value ?? (pair.key as Node)), hint }));
      ok = false;
      continue;
    }
    fields[key] = value.value.trim();
  }
  const id = fields["id"];
  if (id === undefined) {
    if (ok) problems.push(diagnostic("missing-key", "`control` needs an `id`", { span: spanOf(source, node), hint }));
    return undefined;
  }
  if (!CONTROL_ID.test(id)) {
    const idNode = node.items.find((p) => keyName(p) === "id")?.value as Node | undefined;
    problems.push(
      diagnostic("bad-value", `control id ${JSON.stringify(id)} may use only lowercase letters, digits, '.', '_' and '-'`, {
        span: spanOf(source, idNode),
        hint: "id: auth.session-expiry",
      }),
    );
    return undefined;
  }
  if (!ok) return undefined;
  return { id, ...(fields["title"] ? { title: fields["title"] } : {}), ...(fields["description"] ? { description: fields["description"] } : {}) };
}

function loadExports(source: YamlSource, node: Node | null, problems: Diagnostic[]): FlowExports | undefined {
  const hint = "exports:\n  ORDER_NO: ${captured.order}";
  if (!isMap(node) || node.items.length === 0) {
    problems.push(diagnostic("bad-value", "`exports` must be a non-empty mapping of ENV_NAME: template", { span: spanOf(source, node), hint }));
    return undefined;
  }
  const out: Record<string, string> = {};
  let ok = true;
  for (const pair of node.items) {
    const name = keyName(pair);
    const value = pair.value as Node | null;
    if (!ENV_NAME.test(name)) {
      problems.push(
        diagnostic("bad-value", `export name ${JSON.stringify(name)} is not an environment variable name`, {
          span: spanOf(source, pair.key as Node),
          hint: "use letters, digits and `_`, not starting with a digit: `ORDER_NO`",
        }),
      );
      ok = false;
      continue;
    }
    if (!isScalar(value) || (typeof value.value !== "string" && typeof value.value !== "number") || String(value.value) === "") {
      problems.push(diagnostic("bad-value", `\`exports.${name}\` must be a template string`, { span: spanOf(source, value ?? (pair.key as Node)), hint }));
      ok = false;
      continue;
    }
    const raw = String(value.value);
    const parsed = parseTemplate(raw);
    if (!parsed.ok) {
      problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(source, value), hint: parsed.error.hint }));
      ok = false;
      continue;
    }
    out[name] = raw;
  }
  return ok ? out : undefined;
}

function loadGate(source: YamlSource, node: Node | null, problems: Diagnostic[]): string[] | undefined {
  const hint = "skip_unless_env: [STAGING_URL, STAGING_TOKEN]";
  if (!isSeq(node) || node.items.length === 0) {
    problems.push(diagnostic("bad-value", "`skip_unless_env` must be a non-empty list of environment variable names", { span: spanOf(source, node), hint }));
    return undefined;
  }
  const names: string[] = [];
  for (const item of node.items as Node[]) {
    if (!isScalar(item) || typeof item.value !== "string" || !ENV_NAME.test(item.value)) {
      problems.push(diagnostic("bad-value", "each `skip_unless_env` entry must be an environment variable name", { span: spanOf(source, item), hint }));
      return undefined;
    }
    names.push(item.value);
  }
  return names;
}

/** The names of a gate that are unset or empty in `env` (empty: the flow runs). */
export function unmetGate(names: readonly string[] | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  return (names ?? []).filter((n) => env[n] === undefined || env[n] === "");
}
