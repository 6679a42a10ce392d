// Pronoun references to remembered values ("Enter it in …"): `it` is accepted only when one
// remembered value is an unambiguous candidate. Pure: step text and capture NAMES in, never values.

const PRONOUNS = /\b(it|them|that value|this value)\b/i;

/** A capture name as people say it: `order_id` → "order id". */
const spoken = (name: string) =>
  name
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();

/**
 * The pronoun of `step` when it could mean more than one capture in scope (and the step names
 * none of them); undefined when the reference is clear or there is none.
 */
export function ambiguousPronoun(step: string, captures: readonly string[]): string | undefined {
  if (captures.length < 2) return undefined;
  const m = PRONOUNS.exec(step);
  if (!m) return undefined;
  const text = ` ${spoken(step).replace(/[^a-z0-9]+/g, " ")} `;
  if (captures.some((c) => text.includes(` ${spoken(c).replace(/[^a-z0-9]+/g, " ")} `))) return undefined;
  return m[1]!.toLowerCase();
}
