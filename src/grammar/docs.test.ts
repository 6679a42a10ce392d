// Checks every example in docs/authoring.md against the parser, so the doc and the grammar
// cannot drift. The one grammar test that reads a file.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAssertion, parseCondition, parseStep } from "./index.ts";

const DOC = join(import.meta.dir, "..", "..", "docs", "authoring.md");
const KINDS = ["rules", "assert", "condition", "refused"] as const;
type BlockKind = (typeof KINDS)[number];
const isKind = (s: string): s is BlockKind => (KINDS as readonly string[]).includes(s);

/** `[kind, line]` for every non-blank line of every fenced block with a checked info string. */
function examples(markdown: string): (readonly [BlockKind, string])[] {
  const out: (readonly [BlockKind, string])[] = [];
  let current: BlockKind | undefined;
  let inFence = false;
  for (const line of markdown.split("\n")) {
    const fence = /^```\s*(\S*)\s*$/.exec(line);
    if (fence !== null) {
      inFence = !inFence;
      const info = fence[1] ?? "";
      current = inFence && isKind(info) ? info : undefined;
      continue;
    }
    if (current !== undefined && line.trim() !== "") out.push([current, line.trim()]);
  }
  return out;
}

const all = examples(readFileSync(DOC, "utf8"));
const ctx = { app: "web" } as const;

describe("docs/authoring.md", () => {
  test("has examples of every checked kind", () => {
    for (const kind of KINDS) expect(all.some(([k]) => k === kind)).toBe(true);
  });

  test.each(all.filter(([k]) => k !== "refused"))("parses the %s example %s", (kind, line) => {
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
});
