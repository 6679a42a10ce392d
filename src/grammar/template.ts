// Parses `${VAR}` and `${captured.name}` references in authored text into a Template, once.
// Pure: references are kept as names; values are resolved by the engine at execution.

import type { ParseResult, Template, TemplatePart } from "./ast.ts";
import { fail, ok, type Failure } from "./result.ts";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CAPTURE_NAME = /^[a-z][a-z0-9_]*$/;

/** Parses a whole string as a template; error offsets are relative to `raw`. */
export function parseTemplate(raw: string): ParseResult<Template> {
  return parseTemplateAt(raw, 0);
}

/** Parses `raw`, which sits at `offset` in the step text, so errors point into the step. */
export function parseTemplateAt(raw: string, offset: number): ParseResult<Template> {
  const parts: TemplatePart[] = [];
  let literal = "";
  let i = 0;
  while (i < raw.length) {
    const start = raw.indexOf("${", i);
    if (start < 0) {
      literal += raw.slice(i);
      break;
    }
    literal += raw.slice(i, start);
    const end = raw.indexOf("}", start + 2);
    if (end < 0) {
      return fail(
        "bad-reference",
        "The `${` reference is never closed with `}`.",
        "close the reference, e.g. `${API_TOKEN}` or `${captured.order}`",
        offset + start,
        raw.length - start,
      );
    }
    const part = parseReference(raw.slice(start + 2, end), offset + start, end + 1 - start);
    if ("ok" in part) return part;
    if (literal !== "") parts.push({ kind: "literal", text: literal });
    literal = "";
    parts.push(part);
    i = end + 1;
  }
  if (literal !== "") parts.push({ kind: "literal", text: literal });
  return ok({ raw, parts });
}

function parseReference(inner: string, offset: number, length: number): TemplatePart | Failure {
  if (/^date:/i.test(inner)) {
    return fail(
      "refused-step",
      `\`\${${inner}}\` is a date expression: record and replay would type different dates.`,
      'pin the clock with `browser: clock: at: "2026-01-15T12:00:00Z"` and type the literal date, e.g. `Type 2026-01-16 into the "Due" field`',
      offset,
      length,
    );
  }
  if (inner.startsWith("captured.")) {
    const name = inner.slice("captured.".length);
    if (CAPTURE_NAME.test(name)) return { kind: "captured", name };
    return fail(
      "bad-reference",
      `\`\${${inner}}\` is not a valid capture name (lowercase letters, digits and _, starting with a letter).`,
      "use a name like `${captured.order_id}`",
      offset,
      length,
    );
  }
  if (inner === "each" || inner.startsWith("each.")) {
    return fail(
      "bad-reference",
      `\`\${${inner}}\` is only valid inside a \`foreach:\` block.`,
      "move the step into `foreach: {values: [...], steps: [...]}` or use an environment variable like `${BASE_URL}`",
      offset,
      length,
    );
  }
  if (ENV_NAME.test(inner)) return { kind: "env", name: inner };
  const hint = inner.includes(".")
    ? "environment variable names cannot contain dots; write `${MY_VAR}`, or `${captured.name}` for a capture"
    : "write an environment variable like `${API_TOKEN}` or a capture like `${captured.order}`";
  return fail("bad-reference", `\`\${${inner}}\` is not a valid reference.`, hint, offset, length);
}

/** True when the template reads a capture (`${captured.x}`) anywhere. */
export const hasCapture = (t: Template): boolean => t.parts.some((p) => p.kind === "captured");
