// Checks a value (an adapter's flow keys as written, plain JSON) against the JSON Schema its
// adapter declared, in the words of the flow format: "`width` must be a whole number from 1 to
// 10000", "unknown key `x` in `browser`" with a did-you-mean. Covers the keywords TypeBox emits for
// objects, records, unions, strings, numbers, booleans, lists and literals. Pure.
import { nearest } from "./suggest.ts";
import { propertiesOf, type SchemaNode } from "./surface-kinds.ts";

export interface SchemaProblem {
  /** Keys and indices from the checked mapping to the offending value. */
  readonly path: readonly (string | number)[];
  /** Point at the key (an unknown key) rather than the value. */
  readonly at: "key" | "value";
  readonly code: "bad-value" | "missing-key" | "unknown-key";
  readonly message: string;
  readonly hint: string;
  /** A missing-key problem's key. */
  readonly missing?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON type of a value, as JSON Schema names it. */
function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(schema: SchemaNode, v: unknown): boolean {
  if ("const" in schema) return schema["const"] === v;
  const t = schema["type"];
  if (t === undefined) return true;
  const actual = jsonType(v);
  const types = Array.isArray(t) ? (t as string[]) : [t as string];
  return types.some((x) => x === actual || (x === "number" && actual === "integer"));
}

/** How a message names what is at `path`: the schema's `title` (e.g. "a mock rule"), else the last key in backticks. */
function nameOf(schema: SchemaNode, path: readonly (string | number)[], root: string, prefix = ""): string {
  if (path.length === 0) return root;
  if (typeof schema["title"] === "string") return schema["title"];
  // A top-level key as written in its place: `window`, or `apps.gui.window` on a surface.
  if (path.length === 1 && typeof path[0] === "string") return `\`${prefix}${path[0]}\``;
  const last = [...path].reverse().find((p) => typeof p === "string");
  return `\`${typeof last === "string" ? last : root}\``;
}

/** The hint for a value of `schema` at `key`: its first example, else its description. */
function hintOf(schema: SchemaNode, key: string): string {
  const examples = schema["examples"];
  const example = Array.isArray(examples) && examples.length > 0 ? examples[0] : undefined;
  if (example !== undefined) return `${key}: ${typeof example === "string" ? example : JSON.stringify(example)}`;
  return typeof schema["description"] === "string" ? schema["description"] : "see docs/flow-format.md";
}

/** What a schema's type asks for, in words ("a whole number from 1 to 10000"). */
function wanted(schema: SchemaNode): string {
  if ("const" in schema) return JSON.stringify(schema["const"]);
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf)) return (anyOf as SchemaNode[]).map(wanted).join(" or ");
  const min = schema["minimum"];
  const max = schema["maximum"];
  switch (schema["type"]) {
    case "object":
      return "a mapping";
    case "array":
      return "a list";
    case "boolean":
      return "true or false";
    case "string":
      return Array.isArray(schema["enum"])
        ? `one of ${(schema["enum"] as unknown[]).join(", ")}`
        : ((schema["minLength"] as number | undefined) ?? 0) > 0
          ? "a non-empty string"
          : "a string";
    case "integer":
      if (typeof min === "number" && typeof max === "number") return `a whole number from ${min} to ${max}`;
      return typeof min === "number" ? `a whole number of at least ${min}` : "a whole number";
    case "number":
      if (schema["exclusiveMinimum"] === 0 && typeof max === "number") return `a number above 0 and at most ${max}`;
      return typeof min === "number" && typeof max === "number" ? `a number from ${min} to ${max}` : "a number";
    default:
      return "a value of another kind";
  }
}

/**
 * Every problem of `value` against `schema`. `root` names the top-level mapping in messages
 * ("the flow", "surface `clerk`"); `keyName` is the key a top-level problem sits under.
 */
export function checkSchema(value: unknown, schema: SchemaNode, root: string, path: readonly (string | number)[] = [], prefix = ""): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const key = String([...path].reverse().find((p) => typeof p === "string") ?? root);
  const bad = (message: string): void => void out.push({ path, at: "value", code: "bad-value", message, hint: hintOf(schema, key) });
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf)) {
    // A union: a branch whose type fits and that the value satisfies; else the fitting branch with the fewest problems speaks.
    const fitting = (anyOf as SchemaNode[])
      .filter((b) => typeMatches(b, value))
      .map((b) => checkSchema(value, { ...b, ...("title" in schema ? { title: schema["title"] } : {}) }, root, path, prefix));
    if (fitting.length === 0) bad(`${nameOf(schema, path, root, prefix)} must be ${wanted(schema)}`);
    else out.push(...fitting.reduce((best, p) => (p.length < best.length ? p : best)));
    return out;
  }
  if (!typeMatches(schema, value) || (schema["type"] === "number" && typeof value === "number" && !Number.isFinite(value))) {
    bad(`${nameOf(schema, path, root, prefix)} must be ${wanted(schema)}`);
    return out;
  }
  switch (schema["type"]) {
    case "object": {
      const obj = value as Record<string, unknown>;
      const props = propertiesOf(schema);
      const known = Object.keys(props);
      const what = nameOf(schema, path, root, prefix);
      const extra = schema["additionalProperties"];
      const patterns = isObject(schema["patternProperties"]) ? Object.entries(schema["patternProperties"] as Record<string, SchemaNode>) : [];
      for (const [k, v] of Object.entries(obj)) {
        if (k in props) {
          out.push(...checkSchema(v, props[k]!, root, [...path, k], prefix));
          continue;
        }
        const pattern = patterns.find(([p]) => new RegExp(p).test(k));
        if (pattern) out.push(...checkSchema(v, pattern[1], root, [...path, k], prefix));
        else if (isObject(extra)) out.push(...checkSchema(v, extra, root, [...path, k], prefix));
        else if (extra === false || patterns.length > 0) {
          const guess = nearest(k, known);
          out.push({
            path: [...path, k],
            at: "key",
            code: "unknown-key",
            message: patterns.length > 0 && known.length === 0 ? `\`${k}\` is not a valid key in ${what}` : `unknown key \`${k}\` in ${what}`,
            hint:
              known.length > 0
                ? `${guess ? `did you mean \`${guess}\`? ` : ""}${what} takes: ${known.join(", ")}`
                : typeof schema["description"] === "string"
                  ? schema["description"]
                  : "remove it",
          });
        }
      }
      for (const req of (schema["required"] as string[] | undefined) ?? []) {
        if (!(req in obj))
          out.push({ path, at: "value", code: "missing-key", message: `${what} needs \`${req}\``, hint: hintOf(props[req] ?? schema, req), missing: req });
      }
      const min = schema["minProperties"];
      if (typeof min === "number" && Object.keys(obj).length < min) bad(`${what} must not be empty`);
      return out;
    }
    case "array": {
      const items = value as unknown[];
      const min = schema["minItems"];
      if (typeof min === "number" && items.length < min) bad(`${nameOf(schema, path, root, prefix)} must have at least ${min} item${min === 1 ? "" : "s"}`);
      const each = schema["items"];
      if (isObject(each)) items.forEach((item, i) => out.push(...checkSchema(item, each, root, [...path, i], prefix)));
      return out;
    }
    case "string": {
      const s = value as string;
      const name = nameOf(schema, path, root, prefix);
      const minLength = schema["minLength"];
      if (typeof minLength === "number" && s.trim().length < minLength)
        bad(minLength === 1 ? `${name} must be a non-empty string` : `${name} must be at least ${minLength} characters`);
      else if (Array.isArray(schema["enum"]) && !(schema["enum"] as unknown[]).includes(s))
        bad(`${name} must be one of ${(schema["enum"] as unknown[]).join(", ")}`);
      else if (typeof schema["pattern"] === "string" && !new RegExp(schema["pattern"]).test(s))
        bad(`${name} must match ${typeof schema["description"] === "string" ? schema["description"] : `/${schema["pattern"]}/`}`);
      return out;
    }
    case "integer":
    case "number": {
      const n = value as number;
      const min = schema["minimum"];
      const max = schema["maximum"];
      const exMin = schema["exclusiveMinimum"];
      if ((typeof min === "number" && n < min) || (typeof max === "number" && n > max) || (typeof exMin === "number" && n <= exMin))
        bad(`${nameOf(schema, path, root, prefix)} must be ${wanted(schema)}`);
      return out;
    }
    default:
      return out;
  }
}
