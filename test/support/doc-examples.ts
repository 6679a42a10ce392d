// The checked examples of the docs: every non-blank line of every fenced block whose info string
// is a checked kind (```rules, ```assert, ```condition, ```refused, ```unsupported).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./cli.ts";

export const EXAMPLE_KINDS = ["rules", "assert", "condition", "refused", "unsupported"] as const;
export type ExampleKind = (typeof EXAMPLE_KINDS)[number];
const isKind = (s: string): s is ExampleKind => (EXAMPLE_KINDS as readonly string[]).includes(s);

/** The docs whose examples are checked, by file name under docs/. */
export const CHECKED_DOCS = ["authoring.md", "flow-format.md"] as const;

/** `[kind, line]` for every checked example of `markdown`. */
export function examples(markdown: string): (readonly [ExampleKind, string])[] {
  const out: (readonly [ExampleKind, string])[] = [];
  let current: ExampleKind | undefined;
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

/** The checked examples of docs/<name>. */
export function docExamples(name: string): (readonly [ExampleKind, string])[] {
  return examples(readFileSync(join(REPO_ROOT, "docs", name), "utf8"));
}
