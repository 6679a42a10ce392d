// Finds a project's own plugins and loads them with dynamic import(): the boundary between user
// code and the engine. Every plugin's shape is checked here (unknown keys, duplicate kinds/keys,
// imports of engine internals) and every error names the plugin's file. See docs/plugins.md.
import { filePaths } from "./file-paths.ts";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { delimiter, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import * as api from "./api.ts";
import { CAPABILITIES, type AdapterPlugin, type AssertionPlugin } from "./api.ts";
import { declarationsProblem } from "./adapter-check.ts";
import { PluginError, diagnostic } from "../diagnostics/diagnostic.ts";
import { limitValue } from "../diagnostics/limits.ts";
import type Ajv from "ajv";

/** Module file extensions a plugin may be written in (TypeScript or JavaScript; no build step). */
const PLUGIN_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"] as const;
const ADAPTER_KEYS = [
  "kind",
  "capabilities",
  "open",
  "title",
  "keys",
  "grammar",
  "steps",
  "executionArgs",
  "leakCorpus",
  "platforms",
  "credentials",
  "errors",
  "facts",
] as const;
const ASSERTION_KEYS = ["key", "schema", "check", "policy", "needs", "run"] as const;
/** The one module of flowproof's `src/` a plugin may import. */
const API_MODULE = "src/plugins/api.ts";
/** The package's other public faces (package.json `exports`), each loaded only when a plugin imports it. */
const SUBPATHS: Readonly<Record<string, { readonly module: string; readonly load: () => Promise<object> }>> = {
  "flowproof/desktop": { module: "src/plugins/desktop-kit.ts", load: () => import("./desktop-kit.ts") },
};
/** How deep the import check follows a plugin's own relative imports. */
const MAX_IMPORT_DEPTH = 8;

export interface PluginFile {
  /** Absolute path of the module. */
  readonly path: string;
  /** Where it was found, for messages: `plugins/`, `.flowproof/plugins/` or `FLOWPROOF_PLUGINS`. */
  readonly origin: "plugins/" | ".flowproof/plugins/" | "FLOWPROOF_PLUGINS";
}

export interface LoadedPlugins {
  readonly adapters: readonly AdapterPlugin[];
  readonly assertions: readonly AssertionPlugin[];
  /** Each loaded plugin's file, in load order. */
  readonly files: readonly string[];
}

export const NO_PLUGINS: LoadedPlugins = { adapters: [], assertions: [], files: [] };

/** The file each loaded project plugin came from, as messages name it. */
const FILES = new WeakMap<object, string>();

/** The file a project plugin was loaded from (as messages name it), or undefined for a built-in. */
export const pluginFile = (plugin: object): string | undefined => FILES.get(plugin);

/**
 * `import()` of a plugin module, bounded: a module whose top-level `await` never settles would
 * hang every command silently. (A synchronous endless loop in a module's top level cannot be
 * bounded from inside the process; docs/plugins.md says so.)
 */
async function importBounded(url: string, display: string, ms: number): Promise<Record<string, unknown>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          fail(
            display,
            `did not finish loading within ${ms} ms: its top-level code (an \`await\` in it) never settled`,
            "make the module's top level finish (start long work in the plugin's functions, not at import), or raise FLOWPROOF_PLUGIN_LOAD_MS",
          ),
        ),
      ms,
    );
    // The bound must not keep a process alive that has nothing else to do.
    timer.unref?.();
  });
  try {
    return await Promise.race([import(url) as Promise<Record<string, unknown>>, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The flow file's directory upward to the nearest `package.json` or `.git`; else `cwd`. */
export function projectRoot(flowPath: string, cwd: string = process.cwd()): string {
  let dir = dirname(resolve(flowPath));
  for (;;) {
    if (existsSync(join(dir, "package.json")) || existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(cwd);
    dir = up;
  }
}

/** Whether `dir` holds flowproof itself, whose `plugins/` are the built-ins (already bundled). */
function isFlowproofPackage(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "flowproof";
  } catch {
    return false; // no package.json, or not JSON: not flowproof
  }
}

const isPluginModule = (name: string) => (PLUGIN_EXTENSIONS as readonly string[]).includes(extname(name)) && !/\.(test|spec|d)\.[mc]?[jt]s$/.test(name);

/** The modules of a plugins directory: each top-level module file, and each folder's `index.*`. */
function modulesIn(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      const index = PLUGIN_EXTENSIONS.map((ext) => join(path, `index${ext}`)).find((p) => existsSync(p));
      if (index) out.push(index);
    } else if (isPluginModule(name)) out.push(path);
  }
  return out;
}

/** Every plugin module for a flow: project `plugins/`, then `.flowproof/plugins/`, then `FLOWPROOF_PLUGINS`. */
export function discoverPlugins(root: string, env: Readonly<Record<string, string | undefined>>, cwd: string = process.cwd()): PluginFile[] {
  const files: PluginFile[] = [];
  const projectPlugins = join(root, "plugins");
  if (existsSync(projectPlugins) && statSync(projectPlugins).isDirectory() && !isFlowproofPackage(root)) {
    for (const path of modulesIn(projectPlugins)) files.push({ path, origin: "plugins/" });
  }
  const dotPlugins = join(root, ".flowproof", "plugins");
  if (existsSync(dotPlugins) && statSync(dotPlugins).isDirectory()) {
    for (const path of modulesIn(dotPlugins)) files.push({ path, origin: ".flowproof/plugins/" });
  }
  for (const entry of (env["FLOWPROOF_PLUGINS"] ?? "").split(delimiter).filter((e) => e.trim() !== "")) {
    const path = resolve(cwd, entry);
    if (!existsSync(path)) {
      throw new PluginError(
        diagnostic("plugin-error", `${entry}: FLOWPROOF_PLUGINS names a path that does not exist`, {
          hint: `FLOWPROOF_PLUGINS is a list of plugin files or directories separated by "${delimiter}"`,
        }),
      );
    }
    if (statSync(path).isDirectory()) for (const p of modulesIn(path)) files.push({ path: p, origin: "FLOWPROOF_PLUGINS" });
    else files.push({ path, origin: "FLOWPROOF_PLUGINS" });
  }
  const seen = new Set<string>();
  const unique = files.filter((f) => (seen.has(f.path) ? false : (seen.add(f.path), true)));
  // A confined run (--root, the MCP server) loads no code from outside its roots, symlinks followed.
  for (const f of unique) filePaths().file(`the plugin (${f.origin})`, f.path, cwd);
  return unique;
}

const fail = (file: string, message: string, hint: string, cause?: unknown): PluginError =>
  new PluginError(diagnostic("plugin-error", `${file}: ${message}`, { hint }), cause === undefined ? undefined : { cause });

/** The nearest directory at or above `path` with a package.json named "flowproof", if any. */
function flowproofRootAbove(path: string): string | undefined {
  let dir = dirname(path);
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return isFlowproofPackage(dir) ? dir : undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function resolveRelative(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const ext of PLUGIN_EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  for (const ext of PLUGIN_EXTENSIONS) if (existsSync(join(base, `index${ext}`))) return join(base, `index${ext}`);
  return base;
}

/**
 * Refuses a plugin that reaches into flowproof's engine: any import of flowproof's `src/` other
 * than `src/plugins/api.ts` and the public subpaths (`flowproof/desktop`), by path or by package
 * subpath. Follows the plugin's own relative imports. Runs before the plugin is imported, so
 * refused code never executes. Answers the public subpaths the plugin imports.
 */
export function checkPluginImports(file: string, display: string): string[] {
  const subpaths = new Set<string>();
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const visited = new Set<string>();
  const visit = (path: string, depth: number): void => {
    if (visited.has(path) || depth > MAX_IMPORT_DEPTH || !existsSync(path)) return;
    visited.add(path);
    let imports: { path: string }[];
    try {
      imports = transpiler.scanImports(readFileSync(path, "utf8"));
    } catch (error) {
      throw fail(
        display,
        `does not parse: ${error instanceof Error ? error.message : String(error)}`,
        "fix the syntax error; plugins are TypeScript or JavaScript modules",
        error,
      );
    }
    for (const { path: specifier } of imports) {
      if (SUBPATHS[specifier] !== undefined) {
        subpaths.add(specifier);
        continue;
      }
      if (/^flowproof\/.+/.test(specifier)) {
        throw fail(
          display,
          `imports ${JSON.stringify(specifier)}, an engine internal`,
          `import only from "flowproof" (the plugin contract, src/plugins/api.ts) or ${Object.keys(SUBPATHS)
            .map((k) => JSON.stringify(k))
            .join(", ")}`,
        );
      }
      if (!specifier.startsWith(".") && !isAbsolute(specifier) && !specifier.startsWith("file:")) continue; // a package or builtin
      const target = resolveRelative(path, specifier.startsWith("file:") ? new URL(specifier).pathname : specifier);
      const root = flowproofRootAbove(target);
      if (root !== undefined) {
        const inside = relative(root, target).split(sep).join("/");
        if (inside.startsWith("src/") && inside !== API_MODULE && !Object.values(SUBPATHS).some((sp) => sp.module === inside)) {
          const via = path === file ? "" : ` through ${relative(dirname(file), path).split(sep).join("/")}`;
          throw fail(
            display,
            `imports ${JSON.stringify(specifier)} (flowproof's ${inside})${via}, an engine internal`,
            'a plugin may import only the plugin contract: `import { defineAdapter } from "flowproof"`',
          );
        }
      }
      visit(target, depth + 1);
    }
  };
  visit(file, 0);
  return [...subpaths];
}

/** Makes `import … from "flowproof"` inside a plugin resolve to the plugin contract, also in the compiled executable. */
let contractRegistered = false;
function registerContractModule(): void {
  // Registration is process-wide in Bun; doing it twice would only re-register the same module.
  if (contractRegistered) return;
  contractRegistered = true;
  Bun.plugin({
    name: "flowproof-plugin-contract",
    setup(build) {
      build.module("flowproof", () => ({ exports: { ...api }, loader: "object" }));
    },
  });
}

/** Makes `import … from "flowproof/desktop"` (a public subpath) resolve inside a plugin, also in the compiled executable. */
const subpathsRegistered = new Set<string>();
async function registerSubpath(specifier: string): Promise<void> {
  if (subpathsRegistered.has(specifier)) return;
  subpathsRegistered.add(specifier);
  const exports = { ...(await SUBPATHS[specifier]!.load()) };
  Bun.plugin({
    name: `flowproof-plugin-${specifier}`,
    setup(build) {
      build.module(specifier, () => ({ exports, loader: "object" }));
    },
  });
}

function unknownKeys(value: object, allowed: readonly string[]): string[] {
  return Object.keys(value).filter((k) => !allowed.includes(k));
}

/** Checks one exported `plugin` value; returns it typed, or throws naming `display`. */
export function validatePlugin(value: unknown, display: string): { kind: "adapter"; plugin: AdapterPlugin } | { kind: "assertion"; plugin: AssertionPlugin } {
  if (value === null || typeof value !== "object") {
    throw fail(
      display,
      `\`plugin\` must be an object, not ${value === null ? "null" : typeof value}`,
      "export const plugin = defineAdapter({ kind, capabilities, open }) or defineAssertion({ key, schema, run })",
    );
  }
  const v = value as Record<string, unknown>;
  const isAdapter = "kind" in v;
  const isAssertion = "key" in v;
  if (isAdapter === isAssertion) {
    throw fail(
      display,
      isAdapter
        ? "`plugin` has both `kind` (an adapter) and `key` (an assertion kind)"
        : "`plugin` is neither an adapter (`kind`) nor an assertion kind (`key`)",
      "an adapter has kind, capabilities and open (and optionally title, keys, grammar, steps, platforms); an assertion kind has key, schema and run",
    );
  }
  const allowed = isAdapter ? ADAPTER_KEYS : ASSERTION_KEYS;
  const extra = unknownKeys(v, allowed);
  if (extra.length > 0) {
    throw fail(
      display,
      `unknown key${extra.length > 1 ? "s" : ""} ${extra.map((k) => `\`${k}\``).join(", ")} in ${isAdapter ? "an adapter" : "an assertion"} plugin`,
      `${isAdapter ? "an adapter" : "an assertion kind"} has exactly: ${allowed.join(", ")}`,
    );
  }
  if (isAdapter) {
    if (typeof v["kind"] !== "string" || !/^[a-z][a-z0-9_-]*$/.test(v["kind"])) {
      throw fail(
        display,
        `\`kind\` must be a lowercase name such as "notes", not ${JSON.stringify(v["kind"])}`,
        "the kind is what flows write as `app: <kind>`",
      );
    }
    const caps = v["capabilities"];
    if (!Array.isArray(caps) || caps.some((c) => !(CAPABILITIES as readonly unknown[]).includes(c))) {
      const bad = Array.isArray(caps) ? caps.filter((c) => !(CAPABILITIES as readonly unknown[]).includes(c)) : [];
      throw fail(
        display,
        Array.isArray(caps)
          ? `unknown capabilit${bad.length > 1 ? "ies" : "y"} ${bad.map((c) => JSON.stringify(c)).join(", ")}`
          : "`capabilities` must be a list",
        `capabilities are: ${CAPABILITIES.join(", ")}`,
      );
    }
    if (typeof v["open"] !== "function")
      throw fail(
        display,
        "`open` must be a function returning a session",
        "open: async () => ({ launch: async (config, ctx) => driver, close: async () => {} })",
      );
    const declared = declarationsProblem(v);
    if (declared) throw fail(display, declared.message, declared.hint);
    return { kind: "adapter", plugin: value as AdapterPlugin };
  }
  if (typeof v["key"] !== "string" || !/^assert_[a-z][a-z0-9_]*$/.test(v["key"])) {
    throw fail(
      display,
      `\`key\` must be a step key starting with assert_, such as "assert_stock", not ${JSON.stringify(v["key"])}`,
      "the key is what flows write as `- assert_stock: {…}`",
    );
  }
  if (v["schema"] === null || typeof v["schema"] !== "object" || Array.isArray(v["schema"]))
    throw fail(display, "`schema` must be a JSON Schema object", 'schema: { type: "object", properties: { … } }');
  try {
    // Loaded here, not at start-up: only a project's own assertion kind needs a schema compiled.
    const Validator = (require("ajv") as { default: typeof Ajv }).default;
    new Validator({ strict: false }).compile(v["schema"] as object);
  } catch (error) {
    throw fail(
      display,
      `\`schema\` is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      'schema: { type: "object", properties: { … } }',
      error,
    );
  }
  if (typeof v["run"] !== "function") throw fail(display, "`run` must be a function returning a verdict", "run: async (args, ctx) => ({ pass: true })");
  const needs = v["needs"];
  if (needs !== undefined && (!Array.isArray(needs) || needs.some((c) => !(CAPABILITIES as readonly unknown[]).includes(c)))) {
    throw fail(display, "`needs` must be a list of capabilities", `capabilities are: ${CAPABILITIES.join(", ")}`);
  }
  for (const k of ["check", "policy"] as const) {
    if (k in v && typeof v[k] !== "function")
      throw fail(
        display,
        `\`${k}\` must be a function`,
        k === "check" ? "check: (args) => [] (problems with a path, message and hint)" : 'policy: (args) => "poll" or "once"',
      );
  }
  return { kind: "assertion", plugin: value as AssertionPlugin };
}

export interface LoadPluginsOptions {
  /** The flow file; its project root is searched. */
  readonly flowPath: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Kinds already taken by the built-in adapters. */
  readonly builtinKinds: readonly string[];
  /** Step keys already taken by the built-in assertion kinds. */
  readonly builtinKeys?: readonly string[];
  readonly cwd?: string;
}

/** Discovers, checks and imports every plugin for a flow. Throws PluginError (code plugin-error) naming the file. */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadedPlugins> {
  const cwd = options.cwd ?? process.cwd();
  const files = discoverPlugins(projectRoot(options.flowPath, cwd), options.env, cwd);
  if (files.length === 0) return NO_PLUGINS;
  registerContractModule();
  const loadMs = limitValue("pluginLoadMs", options.env);
  const adapters: AdapterPlugin[] = [];
  const assertions: AssertionPlugin[] = [];
  const owners = new Map<string, string>([
    ...options.builtinKinds.map((k): [string, string] => [`kind:${k}`, "the built-in adapter"]),
    ...(options.builtinKeys ?? []).map((k): [string, string] => [`key:${k}`, "the built-in assertion kind"]),
  ]);
  for (const file of files) {
    const display = relative(cwd, file.path).startsWith("..") ? file.path : relative(cwd, file.path);
    for (const specifier of checkPluginImports(file.path, display)) await registerSubpath(specifier);
    let mod: Record<string, unknown>;
    try {
      mod = await importBounded(pathToFileURL(file.path).href, display, loadMs);
    } catch (error) {
      if (error instanceof PluginError) throw error;
      throw fail(
        display,
        `could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        "fix the error above; a plugin module must load on its own",
        error,
      );
    }
    if (!("plugin" in mod)) {
      const names = Object.keys(mod);
      throw fail(
        display,
        `does not export \`plugin\`${names.length > 0 ? ` (it exports ${names.map((n) => `\`${n}\``).join(", ")})` : ""}`,
        "export const plugin = defineAdapter({ … }); — a named export, not a default one",
      );
    }
    const checked = validatePlugin(mod["plugin"], display);
    const id = checked.kind === "adapter" ? `kind:${checked.plugin.kind}` : `key:${checked.plugin.key}`;
    const name = checked.kind === "adapter" ? `app kind "${checked.plugin.kind}"` : `step key "${checked.plugin.key}"`;
    const owner = owners.get(id);
    if (owner !== undefined)
      throw fail(display, `the ${name} is already provided by ${owner}`, "rename it; each app kind and assertion key belongs to one plugin");
    owners.set(id, display);
    FILES.set(checked.plugin, display);
    if (checked.kind === "adapter") adapters.push(checked.plugin);
    else assertions.push(checked.plugin);
  }
  return { adapters, assertions, files: files.map((f) => f.path) };
}
