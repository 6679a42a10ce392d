// The checks an adapter's `check` answers, read from the contract's type itself (the `Expectation`
// union in src/plugins/expectation.ts) with the TypeScript compiler API, for the generated table in
// docs/plugins.md: a kind added to the type reaches the docs on `bun run gen`, or `bun run check`
// fails. Pure over the source text.
import ts from "typescript";

/** One member of the union: its kind, its other fields as written (`count?: number`), and its doc comment. */
export interface CheckDoc {
  readonly kind: string;
  readonly fields: readonly string[];
  readonly meaning: string;
}

/** Every member of `type <name> = { kind: "…"; … } | …` in `source`, in the order written. */
export function checksOf(source: string, name = "Expectation"): CheckDoc[] {
  const file = ts.createSourceFile("expectation.ts", source, ts.ScriptTarget.Latest, true);
  const alias = file.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  if (!alias || !ts.isUnionTypeNode(alias.type)) throw new Error(`no union type ${name} in the source`);
  return alias.type.types.map((member) => {
    if (!ts.isTypeLiteralNode(member)) throw new Error(`a member of ${name} is not an object type: ${member.getText(file)}`);
    let kind = "";
    const fields: string[] = [];
    for (const m of member.members) {
      if (!ts.isPropertySignature(m) || !m.type) continue;
      const key = m.name.getText(file);
      if (key === "kind" && ts.isLiteralTypeNode(m.type) && ts.isStringLiteral(m.type.literal)) kind = m.type.literal.text;
      else fields.push(`${key}${m.questionToken ? "?" : ""}: ${m.type.getText(file).replace(/readonly /g, "")}`);
    }
    // The doc comment sits before the `|` that starts its member.
    const before = source.slice(0, member.getStart(file));
    const m = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\|?\s*$/.exec(before);
    const doc = m
      ? m[1]!
          .replace(/\n\s*\*/g, " ")
          .replace(/\s+/g, " ")
          .trim()
      : "";
    return { kind, fields, meaning: doc };
  });
}

/** The markdown table of `checks`. */
export function renderChecksTable(checks: readonly CheckDoc[]): string {
  const esc = (t: string) => t.replace(/\|/g, "\\|");
  const rows = ["| `kind` | Fields | Holds when |", "| --- | --- | --- |"];
  for (const c of checks)
    rows.push(`| \`${c.kind}\` | ${c.fields.length > 0 ? c.fields.map((f) => `\`${esc(f)}\``).join(", ") : "—"} | ${esc(c.meaning) || "—"} |`);
  return rows.join("\n");
}
