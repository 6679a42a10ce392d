// `foreach:` values and the `${each}` / `${each.<key>}` substitution that expands a foreach at
// load time. Pure: works on YAML nodes and strings only; nothing of a foreach survives loading.
import { isMap, isScalar, isSeq, keyName, type Node } from "./yaml.ts";

export type EachScalar = string | number | boolean | null;
export type EachValue = EachScalar | { readonly [key: string]: EachScalar };

/** One pass of a foreach: the value in scope and its 0-based position among `count` values. */
export interface EachBinding {
  readonly value: EachValue;
  readonly index: number;
  readonly count: number;
}

/** `${each}`, `${each.key}`; a malformed `${each…}` is caught by {@link LEFTOVER}. */
const TOKEN = /\$\{each(?:\.([A-Za-z_][A-Za-z0-9_-]*))?\}/g;
const WHOLE = /^\$\{each(?:\.([A-Za-z_][A-Za-z0-9_-]*))?\}$/;
/** Anything still looking like an each-reference after substitution. */
const LEFTOVER = /\$\{\s*each\b[^}]*\}?/;

export type Substituted =
  | { readonly ok: true; readonly value: EachScalar; readonly changed: boolean }
  | { readonly ok: false; readonly message: string; readonly hint: string; readonly offset: number; readonly length: number };

/** How a value reads in messages: `mysql`, `200`, `{name: Ada, status: 200}`. */
export function describeEach(value: EachValue): string {
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join(", ")}}`;
  return String(value);
}

/**
 * Replaces every `${each}` / `${each.key}` in `text` with the binding's value. A text that is one
 * whole token keeps the value's YAML type (`status: ${each.status}` stays a number); elsewhere the
 * value is spliced in as text. Without a binding, any each-reference is an error.
 */
export function substituteEach(text: string, binding: EachBinding | undefined): Substituted {
  const first = LEFTOVER.exec(text);
  if (first === null) return { ok: true, value: text, changed: false };
  if (binding === undefined) {
    return {
      ok: false,
      message: `\`${first[0]}\` is only defined inside a \`foreach:\` block`,
      hint: "move the step into a `foreach: {values: [...], steps: [...]}` block, or write the value itself",
      offset: first.index,
      length: first[0].length,
    };
  }
  let problem: Substituted | undefined;
  const pick = (key: string | undefined, at: number, token: string): EachScalar => {
    const r = valueOf(binding.value, key);
    if (typeof r === "string" || typeof r === "number" || typeof r === "boolean" || r === null) return r;
    problem ??= { ok: false, message: r.message, hint: r.hint, offset: at, length: token.length };
    return "";
  };
  const whole = WHOLE.exec(text);
  if (whole !== null) {
    const value = pick(whole[1], 0, text);
    return problem ?? { ok: true, value, changed: true };
  }
  const out = text.replace(TOKEN, (token: string, key: string | undefined, at: number) => String(pick(key, at, token)));
  if (problem) return problem;
  const left = LEFTOVER.exec(out);
  if (left !== null) {
    const at = text.indexOf(left[0]);
    return {
      ok: false,
      message: `\`${left[0]}\` is not a foreach reference`,
      hint: "write `${each}` for a scalar value or `${each.<key>}` for a key of a mapping value",
      offset: Math.max(0, at),
      length: left[0].length,
    };
  }
  return { ok: true, value: out, changed: true };
}

function valueOf(value: EachValue, key: string | undefined): EachScalar | { message: string; hint: string } {
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (key === undefined) {
      return {
        message: "this foreach's values are mappings, so `${each}` has no single value",
        hint: `name a key: ${keys.map((k) => `\`\${each.${k}}\``).join(", ")}`,
      };
    }
    if (!Object.hasOwn(value, key)) {
      return { message: `the foreach value ${describeEach(value)} has no key \`${key}\``, hint: `its keys are: ${keys.join(", ")}` };
    }
    return value[key] ?? null;
  }
  if (key !== undefined)
    return {
      message: `this foreach's value ${describeEach(value)} is not a mapping, so \`\${each.${key}}\` has no value`,
      hint: "write `${each}` for a scalar value",
    };
  return value;
}

export type ValuesResult =
  | { readonly ok: true; readonly values: readonly EachValue[] }
  | { readonly ok: false; readonly node: Node | null; readonly message: string; readonly hint: string };

/** Reads a foreach's `values:` list: non-empty; each item a scalar or a mapping of scalars. */
export function readEachValues(node: Node | null): ValuesResult {
  const hint = "values: [mysql, mssql, oracle]  — or mappings: values: [{name: Ada, status: 200}]";
  if (!isSeq(node) || node.items.length === 0) return { ok: false, node, message: "`values:` must be a non-empty list", hint };
  const values: EachValue[] = [];
  for (const raw of node.items) {
    const item = raw as Node;
    if (isScalar(item)) {
      const v = item.value;
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null) values.push(v);
      else return { ok: false, node: item, message: "a foreach value must be a scalar or a mapping of scalars", hint };
      continue;
    }
    if (isMap(item) && item.items.length > 0) {
      const entry: Record<string, EachScalar> = {};
      for (const pair of item.items) {
        const v = pair.value as Node | null;
        if (!isScalar(v)) return { ok: false, node: v ?? item, message: `the value of \`${keyName(pair)}\` must be a scalar`, hint };
        const s = v.value;
        if (!(typeof s === "string" || typeof s === "number" || typeof s === "boolean" || s === null))
          return { ok: false, node: v, message: `the value of \`${keyName(pair)}\` must be a scalar`, hint };
        entry[keyName(pair)] = s;
      }
      values.push(entry);
      continue;
    }
    return { ok: false, node: item, message: "a foreach value must be a scalar or a non-empty mapping of scalars", hint };
  }
  return { ok: true, values };
}
