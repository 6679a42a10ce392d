// The body_json path language (dotted object keys and decimal array indices, nothing else) and
// the checks on what it reaches. Pure.

export type JsonCheck =
  | { readonly kind: "exists" }
  | { readonly kind: "equals"; readonly value: string | number | boolean }
  | { readonly kind: "count"; readonly exactly?: number; readonly atLeast?: number };

const describe = (v: unknown) => (Array.isArray(v) ? "an array" : v === null ? "null" : typeof v === "object" ? "an object" : `a ${typeof v}`);

/** Canonical text of a scalar leaf: numbers without trailing zeros, booleans and null as JSON spells them. */
export const canonical = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Undefined when the check holds; else what was expected and what was found (one sentence). */
export function checkJson(text: string, path: string, check: JsonCheck): { expected: string; actual: string } | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { expected: `JSON with '${path}'`, actual: "response body is not valid JSON" };
  }
  let here: unknown = doc;
  for (const seg of path.split(".")) {
    if (Array.isArray(here) && /^\d+$/.test(seg) && Number(seg) < here.length) here = here[Number(seg)];
    else if (here !== null && typeof here === "object" && !Array.isArray(here) && Object.hasOwn(here, seg)) here = (here as Record<string, unknown>)[seg];
    else return { expected: `a value at '${path}'`, actual: `path '${path}' stops at segment '${seg}'` };
  }
  if (check.kind === "count") {
    const want = check.exactly !== undefined ? `exactly ${check.exactly}` : `at least ${check.atLeast ?? 0}`;
    if (!Array.isArray(here)) return { expected: `an array at '${path}'`, actual: `path '${path}' is ${describe(here)}, count requires an array` };
    const n = here.length;
    const ok = check.exactly !== undefined ? n === check.exactly : n >= (check.atLeast ?? 0);
    return ok ? undefined : { expected: `${want} elements`, actual: `path '${path}' has ${n} elements, expected ${want}` };
  }
  if (here !== null && typeof here === "object") return { expected: `a scalar at '${path}'`, actual: "path resolves to a non-scalar; assert a leaf value" };
  if (check.kind === "equals") {
    const same = typeof here === "number" && typeof check.value === "number" ? here === check.value : canonical(here) === canonical(check.value);
    if (!same) return { expected: `'${path}' to equal ${canonical(check.value)}`, actual: `path '${path}' is ${canonical(here)}, expected ${canonical(check.value)}` };
  }
  return undefined;
}
