// The folder import rule (Playwright's DEPS.list, as a table): every src/ folder and every
// built-in plugin may import only what its row allows. The core (`checkSource`) is pure —
// file path + source text in, violations out; only the `import.meta.main` block touches disk.
import ts from "typescript";
import { readFileSync } from "node:fs";
import { posix, resolve } from "node:path";

/** One row of the table. The first row whose `files` glob matches an importing file governs it. */
export interface DepsRule {
  /** Importing files this row governs: a glob over repo-relative paths (`*` = one segment, `**` = any depth). */
  readonly files: string;
  /**
   * What those files may import besides their own folder, Node/Bun builtins and npm packages.
   * A folder (`src/grammar`) allows everything under it; a file or glob (`src/plugins/api.ts`,
   * `plugins/*\/index.ts`) allows exactly what it matches.
   */
  readonly may: readonly string[];
  /** Why the row says what it says; printed with every violation. */
  readonly why: string;
}

// Leaf-first, as in house-style.md "How src/ is divided".
const LEAVES = ["src/diagnostics", "src/version.ts"];
const ENGINE_DEPS = ["src/diagnostics", "src/grammar", "src/plugins", "src/spec", "src/trace", "src/recording"];
/** Everything `commands/` sits on: every folder above it in the leaf-first order. */
const CORE = [...LEAVES, "src/capture", "src/grammar", "src/plugins", "src/spec", "src/trace", "src/recording", "src/engine", "src/authoring", "src/report"];

export const RULES: readonly DepsRule[] = [
  { files: "src/diagnostics/**", may: [], why: "diagnostics is the shared leaf: it imports nothing from src/" },
  { files: "src/version.ts", may: ["package.json"], why: "version.ts is a leaf that reads package.json (embedded by bun build --compile)" },
  { files: "src/grammar/**", may: ["src/diagnostics"], why: "the grammar is pure and knows no driver, spec or trace" },
  {
    files: "src/plugins/builtin.ts",
    may: ["src/diagnostics", "src/trace", "src/grammar/vocabulary.ts", "plugins/*/index.ts"],
    why: "builtin.ts is the one bridge to the bundled plugins, through each plugin's index.ts only",
  },
  {
    files: "src/plugins/builtin-prestart.ts",
    may: ["plugins/*/prestart.ts"],
    why: "builtin-prestart.ts is the bridge to the bundled plugins' early starts (a web flow's browser), which a command line begins before the rest of flowproof loads",
  },
  {
    files: "src/plugins/desktop-kit.ts",
    may: ["src/diagnostics", "src/trace", "src/grammar/vocabulary.ts", "plugins/desktop"],
    why: "desktop-kit.ts is the package's `flowproof/desktop` face: it re-exports the one desktop driver and its seams (plugins/desktop) for project backends",
  },
  {
    files: "src/plugins/**",
    may: ["src/diagnostics", "src/trace", "src/grammar/vocabulary.ts"],
    why: "the plugin contract may name trace types, diagnostics and the grammar's vocabulary types (what an adapter declares), nothing of the engine",
  },
  {
    files: "src/spec/**",
    may: ["src/diagnostics", "src/grammar", "src/plugins/adapter-api.ts"],
    why: "spec loads YAML and calls the grammar; it reads an adapter's declared keys through the contract's types; it does not plan or run",
  },
  { files: "src/trace/**", may: ["src/diagnostics"], why: "the trace format stands alone so every reader agrees on it" },
  { files: "src/capture/**", may: [], why: "capture's HTTP parsing and formatting are pure leaves: bytes in, text out, no flow or engine" },
  { files: "src/recording/**", may: ["src/diagnostics", "src/plugins", "src/trace"], why: "recording sees frames from drivers and step ranges of the trace" },
  { files: "src/engine/**", may: ENGINE_DEPS, why: "the engine sits on everything below it but never on commands, report or the CLI" },
  { files: "src/authoring/**", may: [...ENGINE_DEPS, "src/engine"], why: "authoring grounds steps for the engine's record mode" },
  { files: "src/report/**", may: ["src/diagnostics", "src/trace"], why: "reports are views of result.json and the trace" },
  { files: "src/commands/**", may: CORE, why: "commands are the one core over everything below; they never reach the CLI or MCP" },
  {
    files: "src/cli/**",
    may: [...CORE, "src/commands", "src/mcp/server.ts"],
    why: "the CLI parses, calls commands/ and renders; `flowproof mcp` hands stdio to the MCP server's entry point",
  },
  {
    files: "src/mcp/**",
    may: [...CORE, "src/commands", "src/cli/flags.ts"],
    why: "MCP tools call commands/, never the CLI; they take their arguments from the CLI's one flag table (src/cli/flags.ts, data only), so a new flag reaches MCP or fails the drift test",
  },
  {
    files: "src/index.ts",
    may: ["src/commands", "src/plugins/api.ts", "src/diagnostics", "src/report/schema.ts", "src/trace/schema.ts"],
    why: "the library API re-exports commands/, the plugin contract, and the wire types and errors its results carry",
  },
  { files: "src/index.test.ts", may: ["src/index.ts"], why: "the library face's test imports it by package name, as users do" },
  {
    files: "plugins/sap/**",
    may: ["src/plugins/api.ts", "plugins/windows/ffi", "plugins/desktop"],
    why: "SAP GUI Scripting rides on the shared Windows bindings (COM, IDispatch and the ROT, the credential store, window capture), and is an element backend of the one desktop driver",
  },
  {
    files: "plugins/vision/**",
    may: ["src/plugins/api.ts", "plugins/windows/ffi", "plugins/desktop"],
    why: "the vision surface reads and drives Windows windows through the shared user32/gdi32 bindings, and is built from the desktop kit (its text rules, nearest texts, platform refusal)",
  },
  {
    files: "plugins/windows/**",
    may: ["src/plugins/api.ts", "plugins/desktop"],
    why: "the Windows element backends (UI Automation, Win32) sit behind the one desktop driver",
  },
  {
    files: "plugins/*/**",
    may: ["src/plugins/api.ts", "src/plugins/launch-api.ts"],
    why: "a plugin sees flowproof only through src/plugins/api.ts (or its light face for starting processes, launch-api.ts), besides its own folder and npm packages",
  },
];

/** Test files may also use the shared test support. */
const TEST_MAY = ["test/support", "test/fixtures", "test/conformance"];
/** The package's own name resolves to its library face; `flowproof/desktop` to the desktop kit (package.json `exports`). */
const SELF_PACKAGE = {
  name: "flowproof",
  path: "src/index.ts",
  subpaths: { "flowproof/desktop": "src/plugins/desktop-kit.ts" } as Readonly<Record<string, string>>,
} as const;

export interface ImportRef {
  readonly specifier: string;
  /** 1-based line of the import statement. */
  readonly line: number;
  readonly typeOnly: boolean;
  readonly form: "import" | "export" | "dynamic-import" | "import-type";
}

export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  /** Repo-relative path the specifier resolves to (undefined for a missing rule). */
  readonly target?: string;
  readonly message: string;
}

/** Every module reference in `source`: static imports and re-exports (type ones too), and literal `import()` / `import("…")` types. */
export function findImports(file: string, source: string): ImportRef[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const refs: ImportRef[] = [];
  const lineOf = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedAreTypes =
        !!clause && !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      refs.push({ specifier: node.moduleSpecifier.text, line: lineOf(node), typeOnly: !!clause?.isTypeOnly || allNamedAreTypes, form: "import" });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ specifier: node.moduleSpecifier.text, line: lineOf(node), typeOnly: node.isTypeOnly, form: "export" });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      refs.push({ specifier: node.moduleReference.expression.text, line: lineOf(node), typeOnly: node.isTypeOnly, form: "import" });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      refs.push({ specifier: node.arguments[0].text, line: lineOf(node), typeOnly: false, form: "dynamic-import" });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      refs.push({ specifier: node.argument.literal.text, line: lineOf(node), typeOnly: true, form: "import-type" });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}

/** Glob over POSIX paths: `**` any number of segments, `*` within one segment. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      re += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else re += /[.+?^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${re}$`);
}

const matches = (glob: string, path: string) => globToRegExp(glob).test(path);

/** `src/<dir>`, `src/<file>`, `plugins/<name>`, or the path itself: the unit "its own folder" means. */
export function moduleOf(path: string): string {
  const parts = path.split("/");
  if ((parts[0] === "src" || parts[0] === "plugins") && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return path;
}

/** Whether `target` (a resolved repo path) is named by an allow-list entry: a folder, file or glob. */
function allowedBy(entry: string, target: string): boolean {
  if (entry.includes("*")) return matches(entry, target);
  return target === entry || target.startsWith(`${entry}/`);
}

/** The repo paths a relative specifier may denote (the tree writes `.ts` explicitly; tolerate omitted ones). */
function candidates(target: string): string[] {
  return /\.[cm]?[jt]sx?$|\.json$/.test(target) ? [target] : [target, `${target}.ts`, `${target}/index.ts`];
}

export function ruleFor(file: string, rules: readonly DepsRule[] = RULES): DepsRule | undefined {
  return rules.find((r) => matches(r.files, file));
}

/**
 * Checks one file's imports against the table. `file` is repo-relative with `/` separators.
 * Builtins (`node:*`, `bun:*`) and npm packages are always allowed.
 */
export function checkSource(file: string, source: string, rules: readonly DepsRule[] = RULES): Violation[] {
  const rule = ruleFor(file, rules);
  const refs = findImports(file, source);
  if (!rule) {
    return [
      {
        file,
        line: 1,
        specifier: "",
        message: `no row of scripts/check-deps.ts RULES covers ${file}; add one for ${moduleOf(file)} (leaf-first, as in house-style.md)`,
      },
    ];
  }
  const own = moduleOf(file);
  const may = file.endsWith(".test.ts") ? [...rule.may, ...TEST_MAY] : rule.may;
  const out: Violation[] = [];
  for (const ref of refs) {
    let target: string;
    const subpath = SELF_PACKAGE.subpaths[ref.specifier];
    if (subpath !== undefined) target = subpath;
    else if (ref.specifier === SELF_PACKAGE.name || ref.specifier.startsWith(`${SELF_PACKAGE.name}/`)) target = SELF_PACKAGE.path;
    else if (ref.specifier.startsWith(".")) target = posix.normalize(posix.join(posix.dirname(file), ref.specifier));
    else if (ref.specifier.startsWith("/")) {
      out.push({
        file,
        line: ref.line,
        specifier: ref.specifier,
        message: `absolute import path ${JSON.stringify(ref.specifier)}; import relative to the file`,
      });
      continue;
    } else continue; // a builtin or an npm package
    if (target.startsWith("../") || target === "..") {
      out.push({ file, line: ref.line, specifier: ref.specifier, target, message: `${JSON.stringify(ref.specifier)} resolves outside the repository` });
      continue;
    }
    const paths = candidates(target);
    if (paths.some((p) => moduleOf(p) === own || may.some((entry) => allowedBy(entry, p)))) continue;
    const kind = ref.typeOnly ? "type import of" : ref.form === "export" ? "re-export of" : ref.form === "dynamic-import" ? "dynamic import of" : "import of";
    out.push({
      file,
      line: ref.line,
      specifier: ref.specifier,
      target,
      message: `${kind} ${target} is not allowed by the row for ${rule.files} — ${rule.why}; allowed: ${may.length > 0 ? may.join(", ") : "nothing from src/"}`,
    });
  }
  return out;
}

/** Checks every file of `files` (repo-relative) under `root`. */
export function checkTree(root: string, files: readonly string[], rules: readonly DepsRule[] = RULES): Violation[] {
  return files.flatMap((f) => checkSource(f, readFileSync(`${root}/${f}`, "utf8"), rules));
}

/** The files the rule covers: `src/**\/*.ts` and `plugins/**\/*.ts`, sorted. */
export function scannedFiles(root: string): string[] {
  const files: string[] = [];
  for (const pattern of ["src/**/*.ts", "plugins/**/*.ts"]) {
    for (const f of new Bun.Glob(pattern).scanSync({ cwd: root })) files.push(f.split("\\").join("/"));
  }
  return files.sort();
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "..");
  const files = scannedFiles(root);
  const violations = checkTree(root, files);
  if (violations.length === 0) {
    console.log(`scripts/check-deps.ts: ${files.length} files, no forbidden imports`);
    process.exit(0);
  }
  console.log(`scripts/check-deps.ts: ${violations.length} forbidden import(s) in ${files.length} files:`);
  for (const v of violations) console.log(`  ${v.file}:${v.line}: ${v.message}`);
  process.exit(1);
}
