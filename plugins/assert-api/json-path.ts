// The body_json path language (dotted object keys and decimal array indices, nothing else) and
// the checks on what it reaches. Pure.

export type JsonCheck =
  | { readonly kind: "exists" }
  | { readonly kind: "equals"; readonly value: string | number | boolean }
  | { readonly kind: "count"; readonly exactly?: number; readonly atLeast?: number };

const describe = (v: unknown) => (Array.isArray(v) ? "an array" : v === null ? "null" : typeof v === "object" ? "an object" : `a ${typeof v}`);

/** Canonical text of a scalar leaf: numbers without trailing zeros, booleans and null as JSON spells them. */
export const canonical = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

const elements = (n: number) => `${n} ${n === 1 ? "element" : "elements"}`;

/**
 * Undefined when the check holds; else what was expected and what was found (one sentence).
 * An undefined path is the whole document (a count of a top-level array).
 */
export function checkJson(text: string, path: string | undefined, check: JsonCheck): { expected: string; actual: string } | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { expected: path === undefined ? "a JSON body" : `JSON with '${path}'`, actual: "response body is not valid JSON" };
  }
  let here: unknown = doc;
  for (const seg of path === undefined ? [] : path.split(".")) {
    if (Array.isArray(here) && /^\d+$/.test(seg) && Number(seg) < here.length) here = here[Number(seg)];
    else if (here !== null && typeof here === "object" && !Array.isArray(here) && Object.hasOwn(here, seg)) here = (here as Record<string, unknown>)[seg];
    else return { expected: `a value at '${path}'`, actual: `path '${path}' stops at segment '${seg}'` };
  }
  if (check.kind === "count") {
    const bound = check.exactly ?? check.atLeast ?? 0;
    const want = `${check.exactly !== undefined ? "exactly" : "at least"} ${elements(bound)}`;
    const where = path === undefined ? "the response body" : `path '${path}'`;
    if (!Array.isArray(here))
      return { expected: path === undefined ? "an array" : `an array at '${path}'`, actual: `${where} is ${describe(here)}, count requires an array` };
    const n = here.length;
    const ok = check.exactly !== undefined ? n === check.exactly : n >= (check.atLeast ?? 0);
    return ok ? undefined : { expected: want, actual: `${where} has ${elements(n)}, expected ${want}` };
  }
  if (here !== null && typeof here === "object") return { expected: `a scalar at '${path}'`, actual: "path resolves to a non-scalar; assert a leaf value" };
  if (check.kind === "equals") {
    const same = typeof here === "number" && typeof check.value === "number" ? here === check.value : canonical(here) === canonical(check.value);
    if (!same)
      return { expected: `'${path}' to equal ${canonical(check.value)}`, actual: `path '${path}' is ${canonical(here)}, expected ${canonical(check.value)}` };
  }
  return undefined;
}
