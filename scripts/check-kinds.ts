// The core names no app kind: every folder of src/ (the grammar, spec, commands, engine, CLI,
// authoring, diagnostics, trace, capture, report, recording, MCP and the plugin contract itself)
// reaches every kind through the adapter contract (docs/plugins.md), so none of their modules
// names a built-in kind ("web", "sap", …) — not as a string literal (no list of kinds, no
// `=== "web"` branch), not as a word of an identifier or property name (`isWeb`, `params.sap`,
// `webConfig`), not inside a longer string (`"web-only"`, `"the sap session"`). The syntax tree
// is read, so comments and import paths name nothing. A short list of documented exceptions, each
// with its reason, is data here. The core (`findKindNames`, `checkKinds`) is pure; only the
// `import.meta.main` block touches disk.
import ts from "typescript";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { scannedFiles } from "./check-deps.ts";

/** The folders that must not name an app kind. */
export const CORE_FOLDERS = ["src/"] as const;

/** A kind's name allowed in a file, and why. Each file + word pair is checked: one no longer needed is reported stale. */
export interface KindException {
  /** The modules (repo-relative) where the word may stand. */
  readonly files: readonly string[];
  /** The kind's name as a word (lowercase). */
  readonly word: string;
  readonly reason: string;
}

/** Where a kind's name stood: a string literal that is the name, a word of an identifier or property name, or a word of a longer string. */
export type KindNameUse = "literal" | "identifier" | "property" | "text";

export interface KindName {
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** The kind named (lowercase). */
  readonly word: string;
  readonly use: KindNameUse;
  /** The identifier or string it stood in. */
  readonly text: string;
}

/** The words of a name or text: camelCase, PascalCase, snake_case, kebab-case and prose split apart, lowercased (`isWebOnly` → is, web, only). */
export function wordsOf(text: string): string[] {
  return (text.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((w) => w.toLowerCase());
}

/** A string that names a module (an import or export path, `import("…")`, `require("…")`), not a thing. */
function isModulePath(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isImportTypeNode(parent.parent ?? parent))
    return true;
  return (
    ts.isCallExpression(parent) &&
    (parent.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(parent.expression) && parent.expression.text === "require"))
  );
}

/** An identifier that names a property (a key of an object or type, a member access, a class member), rather than a binding. */
function isPropertyName(node: ts.Identifier | ts.PrivateIdentifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent)) return parent.name === node;
  if (ts.isQualifiedName(parent)) return parent.right === node;
  return (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isGetAccessorDeclaration(parent) ||
      ts.isSetAccessorDeclaration(parent) ||
      ts.isShorthandPropertyAssignment(parent) ||
      ts.isBindingElement(parent) ||
      ts.isEnumMember(parent)) &&
    parent.name === node
  );
}

/**
 * Every place in `source` that names one of `kinds`: a string literal that is the name, and the
 * name as a word of an identifier, a property name or a longer string (`isWeb`, `params.sap`,
 * `"web-only"`, `"the sap session"`). Words are bounded: `webhook` or `capital` name nothing.
 */
export function findKindNames(file: string, source: string, kinds: readonly string[]): KindName[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: KindName[] = [];
  const add = (node: ts.Node, text: string, use: (word: string) => KindNameUse) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    for (const word of new Set(wordsOf(text))) if (kinds.includes(word)) out.push({ file, line, word, use: use(word), text });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
      if (!isModulePath(node)) {
        const whole = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
        add(node, node.text, (word) => (whole && node.text === word ? "literal" : "text"));
      }
    } else if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      add(node, node.text, () => (isPropertyName(node) ? "property" : "identifier"));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

export const KIND_EXCEPTIONS: readonly KindException[] = [
  {
    word: "agent",
    reason:
      "the contract's conversation steps kind (`steps: \"agent_steps\"`, which any adapter may declare): its `agent_run` step, prompt/reply grammar, recorded turns, a result's agent conversation and agent heal are core step types named for the agent under test, not a branch on the built-in `agent` adapter",
    files: [
      "src/cli/heal.ts",
      "src/cli/record.ts",
      "src/commands/execution.ts",
      "src/commands/heal-agent.ts",
      "src/commands/heal.ts",
      "src/commands/launch-config.ts",
      "src/commands/record-result.ts",
      "src/commands/record.ts",
      "src/commands/run.ts",
      "src/commands/surface-set.ts",
      "src/engine/compile.ts",
      "src/engine/context.ts",
      "src/engine/handlers/agent-run.ts",
      "src/engine/handlers/index.ts",
      "src/engine/handlers/shared.ts",
      "src/engine/loop.ts",
      "src/grammar/ast.ts",
      "src/plugins/adapter-api.ts",
      "src/plugins/adapter-check.ts",
      "src/plugins/agent-api.ts",
      "src/plugins/api.ts",
      "src/report/agent-heal-html.ts",
      "src/report/html.ts",
      "src/report/run-record.ts",
      "src/report/schema.ts",
      "src/spec/adapter-keys.ts",
      "src/spec/agent-surface.ts",
      "src/spec/agent.ts",
      "src/spec/flow-step.ts",
      "src/spec/flow.ts",
      "src/spec/schema.ts",
      "src/spec/surfaces.ts",
      "src/trace/agent-params.ts",
      "src/trace/read.ts",
      "src/trace/schema.ts",
      "src/diagnostics/diagnostic.ts",
    ],
  },
  {
    word: "agent",
    reason:
      "`flowproof doctor --agent <command>` and the MCP tools' notes: an AI agent whose model client is checked, or that drives flowproof (`--json`, MCP), not an app kind",
    files: ["src/cli/doctor.ts", "src/cli/flags.ts", "src/commands/doctor.ts", "src/mcp/tool-flags.ts", "src/mcp/tools.ts"],
  },
  {
    word: "api",
    reason:
      "an HTTP API in the ordinary sense (a model provider's API key, `FLOWPROOF_AI_API_KEY`, `${API_TOKEN}` and `api.example.com` in examples, a password pattern's `api key`), the plugin contract's module `src/plugins/api.ts`, the `assert_api` assertion step named in help text, or the `app: api` surface of the multi-surface `apps:` example; never a branch on the `api` app kind",
    files: [
      "src/authoring/from-doc/draft.ts",
      "src/authoring/from-doc/secrets.ts",
      "src/authoring/provider.ts",
      "src/commands/record-model.ts",
      "src/grammar/template.ts",
      "src/plugins/egress.ts",
      "src/plugins/loader.ts",
      "src/spec/flow-step.ts",
      "src/spec/schema.ts",
      "src/spec/surfaces.ts",
      "src/trace/action-params.ts",
    ],
  },
  {
    word: "web",
    reason:
      "help text and schema descriptions whose example must name some kind (the multi-surface `apps:` example, the starter flow `flowproof init` writes, the web adapter's header block and `ran_on`), Playwright's `webServer` named for comparison, and `--grid`/`--browser`, core flags that set the web adapter's variables until adapters can declare flags",
    files: ["src/cli/flags.ts", "src/commands/init.ts", "src/spec/suite-schema.ts", "src/spec/surfaces.ts", "src/trace/schema.ts"],
  },
  {
    word: "windows",
    reason: 'the operating system in an example of an adapter\'s `platforms` (`name: "Windows"`), not the app kind',
    files: ["src/plugins/adapter-check.ts"],
  },
  {
    word: "windows",
    reason: "the desktop kit's `SurfaceWindows`: the windows a desktop surface shows (the plural of window), not the app kind",
    files: ["src/plugins/desktop-kit.ts"],
  },
  {
    word: "sap",
    reason:
      "SAP's own HTTP names in the capture format (`x-sap-logontoken`, `MYSAPSSO2`, SAP namespace fields) and SAP GUI as another application a document's step may act in: product names, not the app kind",
    files: ["src/capture/format.ts", "src/authoring/from-doc/other-app.ts"],
  },
  {
    word: "notepad",
    reason: "Notepad as another application a document's step may act in (authoring from documents), not the app kind",
    files: ["src/authoring/from-doc/other-app.ts"],
  },
  ...(["sap", "windows", "vision"] as const).map((word) => ({
    word,
    reason:
      "the built-in error codes whose meanings name the platform they come from (`sap-error`, `sap-call`, `com-error`, `credential-store`, `unsupported-platform`): stable public codes (docs/errors.md) older than adapter-declared `<kind>/<name>` codes",
    files: ["src/diagnostics/diagnostic.ts", ...(word === "sap" ? ["src/plugins/api.ts"] : [])],
  })),
  ...(["web", "sap", "windows", "vision"] as const).map((word) => ({
    word,
    reason:
      "the selector ladder (src/trace/selector.ts) is one schema every driver records into; each rung's description says which driver records it (`css:` is the web's, AutomationId the Windows', the vision recorder's boxes)",
    files: ["src/trace/selector.ts"],
  })),
  ...(["web", "api", "agent", "sap", "windows", "vision"] as const).map((word) => ({
    word,
    reason: "src/plugins/builtin.ts is the one module that imports and lists the built-in plugins by name",
    files: ["src/plugins/builtin.ts"],
  })),
];

/** The names of `files` (path + source) that no exception allows, and the exceptions (file + word) nothing uses any more. */
export function checkKinds(
  files: readonly { readonly path: string; readonly source: string }[],
  kinds: readonly string[],
  exceptions: readonly KindException[] = KIND_EXCEPTIONS,
): { violations: KindName[]; stale: { file: string; word: string }[] } {
  const core = files.filter((f) => CORE_FOLDERS.some((d) => f.path.startsWith(d)) && !f.path.endsWith(".test.ts"));
  const found = core.flatMap((f) => findKindNames(f.path, f.source, kinds));
  const allowed = (file: string, word: string) => exceptions.some((e) => e.word === word && e.files.includes(file));
  const used = new Set(found.map((n) => `${n.file}\n${n.word}`));
  return {
    violations: found.filter((n) => !allowed(n.file, n.word)),
    stale: exceptions.flatMap((e) => e.files.filter((file) => !used.has(`${file}\n${e.word}`)).map((file) => ({ file, word: e.word }))),
  };
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "..");
  // The kinds are the built-in adapters' (and the planned ones'), as the plugins declare them.
  const { BUILTIN_ADAPTERS, PLANNED_KINDS } = await import("../src/plugins/builtin.ts");
  const kinds = [...BUILTIN_ADAPTERS.map((a) => a.kind), ...PLANNED_KINDS];
  const files = scannedFiles(root).map((path) => ({ path, source: readFileSync(`${root}/${path}`, "utf8") }));
  const { violations, stale } = checkKinds(files, kinds);
  const USES: Readonly<Record<KindNameUse, string>> = {
    literal: "as a string",
    identifier: "in the identifier",
    property: "in the property name",
    text: "in the text",
  };
  for (const v of violations)
    console.log(
      `${v.file}:${v.line}: names the app kind ${JSON.stringify(v.word)} ${USES[v.use]} ${JSON.stringify(v.text.length > 70 ? `${v.text.slice(0, 67)}...` : v.text)}; read it from the adapter contract (a declared key, grammar, steps kind or capability), rename it when the word is not the kind, or list a documented exception in KIND_EXCEPTIONS in scripts/check-kinds.ts`,
    );
  for (const e of stale) console.log(`${e.file}: KIND_EXCEPTIONS allows ${JSON.stringify(e.word)}, which it no longer names; remove the file from that entry`);
  if (violations.length > 0 || stale.length > 0) process.exit(1);
  console.log(`no app kind named in ${CORE_FOLDERS.join(", ")} (${KIND_EXCEPTIONS.length} documented exception${KIND_EXCEPTIONS.length === 1 ? "" : "s"})`);
}
