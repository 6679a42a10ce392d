// `bun run check`: type-check, generated artefacts current, folder import rule, one test per
// module, no source file over the size limit, no import cycle, no uncoded error. Runs every check
// (in order) even after a failure, prints one line per check, and exits non-zero when any failed.
import { posix, resolve } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { findImports, globToRegExp, scannedFiles } from "./check-deps.ts";

const ROOT = resolve(import.meta.dir, "..");

/** A module that need not have a sibling `<name>.test.ts`, and why. */
export interface TestExemption {
  /** Repo-relative path or glob (`*` = one segment). */
  readonly path: string;
  readonly reason: string;
  /** The test that covers it instead; it must exist, or the module is reported. */
  readonly coveredBy?: string;
}

export const TEST_EXEMPTIONS: readonly TestExemption[] = [
  // Type-only files and deliberate re-export faces.
  { path: "src/grammar/ast.ts", reason: "type-only: the AST types, exercised by every grammar test" },
  {
    path: "src/plugins/api.ts",
    reason:
      "the plugin contract: types, identity helpers, one error class and the no-UI driver, exercised by every plugin's tests (plugins/api/index.test.ts for the no-UI driver)",
  },
  {
    path: "src/plugins/launch-api.ts",
    reason: "the light face of the plugin contract for starting processes: re-exports only, exercised by the browser launch tests (plugins/web/launch.test.ts)",
  },
  { path: "src/cli/exit-codes.ts", reason: "a constant table, asserted by the CLI tests through real exit codes" },
  { path: "src/version.ts", reason: "re-exports package.json's version; nothing to test" },
  { path: "src/index.ts", reason: "the library face: re-exports commands/ and plugins/api types" },
  { path: "src/grammar/index.ts", reason: "the grammar's public face" },
  { path: "src/engine/handlers/index.ts", reason: "the handler registry: a typed object literal, exercised through the step loop's tests" },
  {
    path: "plugins/desktop/backend.ts",
    reason:
      "type-only: the desktop driver's two seams (ElementBackend, DesktopSurface), exercised by the desktop driver's tests and every desktop surface's conformance run",
  },
  {
    path: "plugins/desktop/fake.ts",
    reason: "a test double (an in-memory desktop surface); a test of the double itself would prove nothing about the product",
    coveredBy: "plugins/desktop/driver.test.ts",
  },
  {
    path: "plugins/vision/fake-screen.ts",
    reason: "a test double (a screen of fixed pixels that records input); a test of the double itself would prove nothing about the product",
    coveredBy: "plugins/vision/driver.test.ts",
  },
  {
    path: "plugins/windows/backend.ts",
    reason: "type-only: what the Windows surface needs of the machine (Desktop, Launched), exercised through the fake desktop and under Wine",
  },
  { path: "plugins/*/index.ts", reason: "a plugin's face (`export const plugin = define…`), exercised by its conformance test" },
  // Plugin internals tested from elsewhere, each named explicitly.
  // The page script's modules (bundled by plugins/web/injected/bundle.ts) run only inside Chromium.
  ...["dom", "roles", "resolver", "values", "probes", "select", "readings", "frames", "page-api", "page-script"].map((name) => ({
    path: `plugins/web/injected/${name}.ts`,
    reason:
      "a module of the page script, which only runs inside Chromium; the driver conformance suite drives every probe, reading and scope through real pages",
    coveredBy: "plugins/web/web.conformance.test.ts",
  })),
  { path: "plugins/web/injected/protocol.ts", reason: "type-only: the wire shapes between the driver and the page script" },
  { path: "plugins/web/injected/codegen-protocol.ts", reason: "type-only: the wire shapes between `flowproof codegen`'s page-side listener and the Node side" },
  ...["codegen", "codegen-names"].map((name) => ({
    path: `plugins/web/injected/${name}.ts`,
    reason:
      "the page side of `flowproof codegen`, which only runs inside Chromium: driven with trusted input headless (plugins/web/codegen.test.ts) and with real OS input on Xvfb (test/e2e/codegen.test.ts)",
    coveredBy: "plugins/web/codegen.test.ts",
  })),
  { path: "src/plugins/agent-api.ts", reason: "type-only: the agent surface's part of the plugin contract, exercised by the agent plugin's tests" },
  {
    path: "src/plugins/assertion-api.ts",
    reason: "type-only: the assertion kinds' context and verdict of the plugin contract, exercised by every assertion plugin's tests",
  },
  {
    path: "src/plugins/expectation.ts",
    reason:
      "type-only: the expectations and scroll requests of the plugin contract (re-exported by api.ts), exercised by every driver's check and scroll tests",
  },
  {
    path: "plugins/web/injected/scene.ts",
    reason:
      "the page-side scene inventory only runs inside Chromium; the authoring tests read it from real pages (tokens, options, required state, password values never reported)",
    coveredBy: "src/authoring/author.test.ts",
  },
  {
    path: "plugins/web/injected/debug-page.ts",
    reason:
      "the page side of the debug snapshot only runs inside Chromium; the debug snapshot tests read it from real pages (visible names as the resolver judges them, password values left out)",
    coveredBy: "plugins/web/debug.test.ts",
  },

  {
    path: "plugins/web/driver.ts",
    reason: "the AppDriver implementation; its contract is the shared conformance suite (test/conformance/driver.ts) run against real Chromium",
    coveredBy: "plugins/web/web.conformance.test.ts",
  },
  {
    path: "src/mcp/tools.ts",
    reason: "the MCP tool objects; each is called through the SDK's own stdio client against real Chromium",
    coveredBy: "src/mcp/server.test.ts",
  },
  {
    path: "src/cli/mcp.ts",
    reason: "`flowproof mcp` only hands stdio to the MCP server; the server test starts it through the real CLI",
    coveredBy: "src/mcp/server.test.ts",
  },
  {
    path: "plugins/web/navigation.ts",
    reason: "waits on a live page's loading events (no CDP mocks); the conformance suite navigates, reloads, and follows navigations that clicks start",
    coveredBy: "plugins/web/web.conformance.test.ts",
  },
  {
    path: "plugins/web/cdp/connection.ts",
    reason: "needs a live DevTools endpoint (no CDP mocks); exercised by the web driver's conformance run against real Chromium",
    coveredBy: "plugins/web/web.conformance.test.ts",
  },
];

export interface ModuleTestReport {
  /** Modules with no sibling test and no exemption. */
  readonly missing: readonly string[];
  /** Exempted modules whose `coveredBy` test does not exist. */
  readonly uncovered: readonly { readonly path: string; readonly coveredBy: string }[];
}

/** Pure: which of `files` (repo-relative `src/**` and `plugins/**` .ts files) lack the test they need. */
export function checkModuleTests(files: readonly string[], exemptions: readonly TestExemption[] = TEST_EXEMPTIONS): ModuleTestReport {
  const present = new Set(files);
  const missing: string[] = [];
  const uncovered: { path: string; coveredBy: string }[] = [];
  for (const f of files) {
    if (f.endsWith(".test.ts") || f.endsWith(".d.ts")) continue;
    if (present.has(f.replace(/\.ts$/, ".test.ts"))) continue;
    const exemption = exemptions.find((e) => globToRegExp(e.path).test(f));
    if (!exemption) missing.push(f);
    else if (exemption.coveredBy !== undefined && !present.has(exemption.coveredBy)) uncovered.push({ path: f, coveredBy: exemption.coveredBy });
  }
  return { missing, uncovered };
}

/** Lines a source file (`src/**`, `plugins/**`, tests excluded) may have before it needs a listed reason. */
export const MAX_SOURCE_LINES = 500;

/** A source file allowed over MAX_SOURCE_LINES, and why. */
export interface SizeExemption {
  readonly path: string;
  readonly reason: string;
}

export const SIZE_EXEMPTIONS: readonly SizeExemption[] = [];

export interface SizeReport {
  /** Files over the limit with no exemption, with their line counts. */
  readonly oversized: readonly { readonly path: string; readonly lines: number }[];
  /** Exempted files that are now within the limit (or gone): their entry must go. */
  readonly stale: readonly string[];
}

/** Lines as an editor counts them: a final newline does not start another line. */
export const lineCount = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

/** Pure: which of `files` (path + line count, tests already left out) exceed `limit` without an exemption. */
export function checkSizes(
  files: readonly { readonly path: string; readonly lines: number }[],
  limit: number = MAX_SOURCE_LINES,
  exemptions: readonly SizeExemption[] = SIZE_EXEMPTIONS,
): SizeReport {
  const exempt = new Set(exemptions.map((e) => e.path));
  const oversized = files.filter((f) => f.lines > limit && !exempt.has(f.path));
  const over = new Set(files.filter((f) => f.lines > limit).map((f) => f.path));
  return { oversized, stale: exemptions.filter((e) => !over.has(e.path)).map((e) => e.path) };
}

/** A known import cycle (its modules, sorted) kept on purpose until its reason goes away. */
export interface CycleException {
  readonly modules: readonly string[];
  readonly reason: string;
}

export const KNOWN_CYCLES: readonly CycleException[] = [];

/** `file`'s imports (type-only ones too) that resolve to another file of `files`. */
function importsOf(file: string, source: string, files: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const ref of findImports(file, source)) {
    if (!ref.specifier.startsWith(".")) continue;
    const target = posix.normalize(posix.join(posix.dirname(file), ref.specifier));
    if (files.has(target) && !out.includes(target)) out.push(target);
  }
  return out;
}

/** The import graph of `files` (repo-relative), read from `root`. */
export function importGraph(root: string, files: readonly string[]): Map<string, readonly string[]> {
  const set = new Set(files);
  return new Map(files.map((f) => [f, importsOf(f, readFileSync(`${root}/${f}`, "utf8"), set)]));
}

/** Pure: every import cycle of `graph` as its strongly connected set of modules (sorted), in a stable order. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const w = edges[top.edge++]!;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, edge: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const members: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        members.push(w);
      } while (w !== top.node);
      if (members.length > 1 || (graph.get(top.node) ?? []).includes(top.node)) cycles.push(members.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

export interface CycleReport {
  readonly unexpected: readonly (readonly string[])[];
  /** Listed exceptions whose cycle no longer exists: their entry must go. */
  readonly stale: readonly (readonly string[])[];
}

/** Pure: the cycles not listed in `known`, and the listed ones that are gone. */
export function checkCycles(cycles: readonly (readonly string[])[], known: readonly CycleException[] = KNOWN_CYCLES): CycleReport {
  const key = (modules: readonly string[]) => [...modules].sort().join(" ");
  const knownKeys = new Set(known.map((k) => key(k.modules)));
  const found = new Set(cycles.map(key));
  return { unexpected: cycles.filter((c) => !knownKeys.has(key(c))), stale: known.filter((k) => !found.has(key(k.modules))).map((k) => k.modules) };
}

/** Where production code may still throw plain (uncoded) Errors without a marker, and why. */
export const PLAIN_ERROR_EXEMPTIONS: readonly SizeExemption[] = [{ path: "src/diagnostics/diagnostic.ts", reason: "FlowproofError itself extends Error" }];

/** The comment that says why a plain Error is right here (a flowproof bug, or code that runs in the page). */
export const PLAIN_ERROR_MARKER = "plain Error on purpose";

/**
 * Pure: every `new Error(` or `extends Error` in `files` (production code; tests left out) that is
 * neither in an exempted path nor explained by a PLAIN_ERROR_MARKER comment on its line or the
 * two lines above. A user-facing error is a FlowproofError with a code from docs/errors.md.
 */
export function uncodedErrors(
  files: readonly { readonly path: string; readonly text: string }[],
  exemptions: readonly SizeExemption[] = PLAIN_ERROR_EXEMPTIONS,
): { path: string; line: number; text: string }[] {
  const out: { path: string; line: number; text: string }[] = [];
  for (const f of files) {
    if (f.path.endsWith(".test.ts") || exemptions.some((e) => globToRegExp(e.path).test(f.path))) continue;
    const lines = f.text.split("\n");
    for (const [i, text] of lines.entries()) {
      if (!/\bnew Error\(|\bextends Error\b/.test(text)) continue;
      if (lines.slice(Math.max(0, i - 2), i + 1).some((l) => l.includes(PLAIN_ERROR_MARKER))) continue;
      out.push({ path: f.path, line: i + 1, text: text.trim() });
    }
  }
  return out;
}

interface CheckOutcome {
  readonly ok: boolean;
  /** One line. */
  readonly summary: string;
  readonly details: readonly string[];
}

interface Check {
  readonly name: string;
  run(): Promise<CheckOutcome>;
}

/** Runs a command in the repo root; its first non-empty output line is the summary. */
function command(name: string, argv: readonly string[], okSummary: string): Check {
  return {
    name,
    async run() {
      const proc = Bun.spawn([...argv], { cwd: ROOT, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      const lines = `${stdout}${stderr}`.split("\n").filter((l) => l.trim() !== "");
      if (code === 0) return { ok: true, summary: lines[0] ?? okSummary, details: [] };
      return { ok: false, summary: `${lines[0] ?? "failed"}${lines.length > 1 ? ` (+${lines.length - 1} lines)` : ""} [exit ${code}]`, details: lines };
    },
  };
}

const bun = process.execPath;
const tsc = `${ROOT}/node_modules/.bin/tsc`;
const biome = `${ROOT}/node_modules/.bin/biome`;

const CHECKS: readonly Check[] = [
  {
    name: "tsc --noEmit -p .",
    async run() {
      if (!existsSync(tsc)) return { ok: false, summary: "node_modules/.bin/tsc not found; run `bun install`", details: [] };
      const r = await command("tsc", [tsc, "--noEmit", "-p", "."], "").run();
      if (r.ok) return { ok: true, summary: "no type errors", details: [] };
      const errors = r.details.filter((l) => /error TS\d+/.test(l));
      const files = new Set(errors.map((l) => l.replace(/\(\d+,\d+\).*$/, "")));
      return { ok: false, summary: `${errors.length} type error(s) in ${files.size} file(s)`, details: r.details };
    },
  },
  {
    // Biome (biome.json): the one formatting of the tree, and lint rules that catch real bugs
    // (unreachable code, unused bindings, floating or misused promises, focused tests, ==).
    name: "format and lint (biome ci)",
    async run() {
      if (!existsSync(biome)) return { ok: false, summary: "node_modules/.bin/biome not found; run `npm ci --ignore-scripts`", details: [] };
      const r = await command("biome", [biome, "ci", "--colors=off", "--max-diagnostics=50", "."], "").run();
      if (r.ok) return { ok: true, summary: "formatted, no lint findings", details: [] };
      const places = r.details.filter((l) => /━━/.test(l)).map((l) => l.replace(/\s*━+.*$/, ""));
      return {
        ok: false,
        summary: `${places.length} finding(s); \`node_modules/.bin/biome check --write .\` formats and applies the safe fixes`,
        details: r.details,
      };
    },
  },
  command("gen-schemas --check", [bun, "scripts/gen-schemas.ts", "--check"], "schemas current"),
  command("gen-docs --check", [bun, "scripts/gen-docs.ts", "--check"], "docs current"),
  command("check-deps", [bun, "scripts/check-deps.ts"], "no forbidden imports"),
  command("check-kinds", [bun, "scripts/check-kinds.ts"], "no app kind named in the core"),
  {
    name: "one test per module",
    async run() {
      const files = scannedFiles(ROOT);
      const { missing, uncovered } = checkModuleTests(files);
      const modules = files.filter((f) => !f.endsWith(".test.ts")).length;
      if (missing.length === 0 && uncovered.length === 0)
        return { ok: true, summary: `${modules} modules, each with a sibling test or a listed exemption`, details: [] };
      return {
        ok: false,
        summary: `${missing.length + uncovered.length} of ${modules} modules lack a test`,
        details: [
          ...missing.map((m) => `${m}: no sibling ${m.replace(/^.*\//, "").replace(/\.ts$/, ".test.ts")}`),
          ...uncovered.map((u) => `${u.path}: exempt as covered by ${u.coveredBy}, which does not exist`),
          "add the sibling test, or (type-only files and re-export faces only) an entry with a reason in TEST_EXEMPTIONS in scripts/check.ts",
        ],
      };
    },
  },
  {
    name: "source file size",
    async run() {
      const files = scannedFiles(ROOT)
        .filter((f) => !f.endsWith(".test.ts"))
        .map((path) => ({ path, lines: lineCount(readFileSync(`${ROOT}/${path}`, "utf8")) }));
      const { oversized, stale } = checkSizes(files);
      if (oversized.length === 0 && stale.length === 0)
        return { ok: true, summary: `${files.length} source files within ${MAX_SOURCE_LINES} lines or listed (${SIZE_EXEMPTIONS.length})`, details: [] };
      return {
        ok: false,
        summary: `${oversized.length} source file(s) over ${MAX_SOURCE_LINES} lines, ${stale.length} stale exemption(s)`,
        details: [
          ...oversized.map((f) => `${f.path}: ${f.lines} lines; split it by concern, or list it with a reason in SIZE_EXEMPTIONS in scripts/check.ts`),
          ...stale.map((p) => `${p}: listed in SIZE_EXEMPTIONS but within ${MAX_SOURCE_LINES} lines (or gone); remove the entry`),
        ],
      };
    },
  },
  {
    name: "coded errors",
    async run() {
      const files = scannedFiles(ROOT)
        .filter((f) => !f.endsWith(".test.ts"))
        .map((path) => ({ path, text: readFileSync(`${ROOT}/${path}`, "utf8") }));
      const found = uncodedErrors(files);
      if (found.length === 0)
        return {
          ok: true,
          summary: `${files.length} modules throw coded errors (plain ones explained; ${PLAIN_ERROR_EXEMPTIONS.length} paths listed)`,
          details: [],
        };
      return {
        ok: false,
        summary: `${found.length} uncoded error(s)`,
        details: [
          ...found.map((e) => `${e.path}:${e.line}: ${e.text}`),
          `throw a FlowproofError (or a subclass) with a code from src/diagnostics/diagnostic.ts; where a plain Error is right (a flowproof bug), say why in a comment containing "${PLAIN_ERROR_MARKER}"`,
        ],
      };
    },
  },
  {
    name: "no import cycles",
    async run() {
      const files = scannedFiles(ROOT).filter((f) => !f.endsWith(".test.ts"));
      const { unexpected, stale } = checkCycles(importCycles(importGraph(ROOT, files)));
      if (unexpected.length === 0 && stale.length === 0)
        return { ok: true, summary: `${files.length} modules, no import cycle beyond the ${KNOWN_CYCLES.length} listed`, details: [] };
      return {
        ok: false,
        summary: `${unexpected.length} import cycle(s), ${stale.length} stale exception(s)`,
        details: [
          ...unexpected.map(
            (c) =>
              `cycle: ${c.join(" ↔ ")}; move what they share into one of them (or a module both import), or list it with a reason in KNOWN_CYCLES in scripts/check.ts`,
          ),
          ...stale.map((c) => `${c.join(" ↔ ")}: listed in KNOWN_CYCLES but no longer a cycle; remove the entry`),
        ],
      };
    },
  },
];

const MAX_DETAIL_LINES = 60;

if (import.meta.main) {
  let failed = 0;
  for (const check of CHECKS) {
    const t0 = performance.now();
    let outcome: CheckOutcome;
    try {
      outcome = await check.run();
    } catch (error) {
      // A check that crashes is a failed check, reported like the others; the rest still run.
      outcome = { ok: false, summary: `crashed: ${error instanceof Error ? error.message : String(error)}`, details: [] };
    }
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`${outcome.ok ? "PASS" : "FAIL"}  ${check.name.padEnd(22)} ${outcome.summary} (${seconds} s)`);
    if (!outcome.ok) {
      failed++;
      for (const line of outcome.details.slice(0, MAX_DETAIL_LINES)) console.log(`      ${line}`);
      if (outcome.details.length > MAX_DETAIL_LINES) console.log(`      … and ${outcome.details.length - MAX_DETAIL_LINES} more lines`);
    }
  }
  console.log(failed === 0 ? `check: all ${CHECKS.length} checks passed` : `check: ${failed} of ${CHECKS.length} checks failed`);
  process.exit(failed === 0 ? 0 : 1);
}
