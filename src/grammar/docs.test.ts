// Checks every example in docs/authoring.md and docs/flow-format.md against the parser, so the
// docs and the grammar cannot drift: `rules`, `assert` and `condition` blocks must parse (for a
// web flow), `refused` blocks must be refused on purpose, and `unsupported` blocks (`<app>:
// <step>` per line) must be refused as forms that app kind does not have. Whether the examples
// that parse also run is checked where steps are compiled (src/engine/compile.test.ts).
// The one grammar test that reads files (through test/support/doc-examples.ts).

import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseAssertion, parseCondition, parseStep } from "./index.ts";
import { CHECKED_DOCS, EXAMPLE_KINDS, docExamples } from "../../test/support/doc-examples.ts";

const ctx = at("web");

for (const doc of CHECKED_DOCS) {
  const all = docExamples(doc);
  describe(`docs/${doc}`, () => {
    test.each(all.filter(([k]) => k === "rules" || k === "assert" || k === "condition"))("parses the %s example %s", (kind, line) => {
      const r = kind === "rules" ? parseStep(line, ctx) : kind === "assert" ? parseAssertion(line, ctx) : parseCondition(line, ctx);
      expect(r.ok ? "ok" : `${r.error.code}: ${r.error.message}`).toBe("ok");
    });

    test.each(all.filter(([k]) => k === "refused"))("refuses the %s example %s", (_kind, line) => {
      const step = parseStep(line, ctx);
      const assertion = parseAssertion(line, ctx);
      const codes = [step, assertion].map((r) => (r.ok ? "ok" : r.error.code));
      expect(codes).toContain("refused-step");
      expect(codes).not.toContain("ok");
    });

    test.each(all.filter(([k]) => k === "unsupported"))("refuses the %s example %s as a form its app kind does not have", (_kind, line) => {
      const m = /^([a-z]+):\s+(.+)$/.exec(line);
      expect(m).not.toBeNull();
      const app = at(m![1]!);
      const codes = [parseStep(m![2]!, app), parseAssertion(m![2]!, app)].map((r) => (r.ok ? "ok" : r.error.code));
      expect(codes).toContain("unsupported-step");
      expect(codes).not.toContain("ok");
    });
  });
}

test("the docs have examples of every checked kind", () => {
  const all = CHECKED_DOCS.flatMap((doc) => docExamples(doc));
  for (const kind of EXAMPLE_KINDS) expect(all.some(([k]) => k === kind)).toBe(true);
});
