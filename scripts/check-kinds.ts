// The core names no app kind: every folder of src/ (the grammar, spec, commands, engine, CLI,
// authoring, diagnostics, trace, capture, report, recording, MCP and the plugin contract itself)
// reaches every kind through the adapter contract (docs/plugins.md), so none of their modules
// holds a built-in kind's name as a string literal ("web", "sap", …) — no list of kinds, no
// `=== "web"` branch, no `params["sap"]`. A short
// allow-list of documented exceptions, each with its reason, is data here. The core
// (`findKindLiterals`) is pure; only the `import.meta.main` block touches disk.
import ts from "typescript";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { scannedFiles } from "./check-deps.ts";

/** The folders that must not name an app kind. */
export const CORE_FOLDERS = ["src/"] as const;

/** A literal allowed where it stands, and why. */
export interface KindException {
  readonly file: string;
  readonly literal: string;
  readonly reason: string;
}

export const KIND_EXCEPTIONS: readonly KindException[] = [
  {
    file: "src/cli/flags.ts",
    literal: "agent",
    reason: "`flowproof doctor --agent <command>`: the flag's name (the agent's command line to diagnose), not an app kind",
  },
  {
    file: "src/report/html.ts",
    literal: "agent",
    reason: "a step result's `agent` field (the conversation of an agent run, result.json), not an app kind",
  },
  {
    file: "src/trace/agent-params.ts",
    literal: "agent",
    reason: "the `agent_run` step's `agent` parameter (the agent under test's command or URL), not an app kind",
  },
];

export interface KindLiteral {
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  readonly literal: string;
}

/** Every string literal (or template without substitutions) in `source` whose whole text is one of `kinds`. */
export function findKindLiterals(file: string, source: string, kinds: readonly string[]): KindLiteral[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: KindLiteral[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && kinds.includes(node.text)) {
      // An import path is not a name (a module specifier such as "./web.ts" never equals a kind anyway).
      if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) {
        out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, literal: node.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The literals of `files` (path + source) that no exception allows, and the exceptions nothing uses any more. */
export function checkKinds(
  files: readonly { readonly path: string; readonly source: string }[],
  kinds: readonly string[],
  exceptions: readonly KindException[] = KIND_EXCEPTIONS,
): { violations: KindLiteral[]; stale: KindException[] } {
  const core = files.filter((f) => CORE_FOLDERS.some((d) => f.path.startsWith(d)) && !f.path.endsWith(".test.ts"));
  const found = core.flatMap((f) => findKindLiterals(f.path, f.source, kinds));
  const allowed = (l: KindLiteral) => exceptions.some((e) => e.file === l.file && e.literal === l.literal);
  return {
    violations: found.filter((l) => !allowed(l)),
    stale: exceptions.filter((e) => !found.some((l) => l.file === e.file && l.literal === e.literal)),
  };
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "..");
  // The kinds are the built-in adapters' (and the planned ones'), as the plugins declare them.
  const { BUILTIN_ADAPTERS, PLANNED_KINDS } = await import("../src/plugins/builtin.ts");
  const kinds = [...BUILTIN_ADAPTERS.map((a) => a.kind), ...PLANNED_KINDS];
  const files = scannedFiles(root).map((path) => ({ path, source: readFileSync(`${root}/${path}`, "utf8") }));
  const { violations, stale } = checkKinds(files, kinds);
  for (const v of violations)
    console.log(
      `${v.file}:${v.line}: names the app kind ${JSON.stringify(v.literal)}; read it from the adapter contract (a declared key, grammar, steps kind or capability), or list a documented exception in KIND_EXCEPTIONS in scripts/check-kinds.ts`,
    );
  for (const e of stale) console.log(`${e.file}: KIND_EXCEPTIONS allows ${JSON.stringify(e.literal)}, which it no longer names; remove the entry`);
  if (violations.length > 0 || stale.length > 0) process.exit(1);
  console.log(`no app kind named in ${CORE_FOLDERS.join(", ")} (${KIND_EXCEPTIONS.length} documented exception${KIND_EXCEPTIONS.length === 1 ? "" : "s"})`);
}
