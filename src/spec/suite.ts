// Loads `suite.yaml` into a typed SuiteConfig, collecting every problem of the file with spans.
// Pure: no fs, no env, no processes (commands/ runs env_from, hooks and the server).
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { MAX_TIMEOUT_SECONDS, MAX_TIMEOUT_TEXT } from "../diagnostics/bounds.ts";
import { parseTemplate } from "../grammar/index.ts";
import { isMap, isScalar, isSeq, keyName, parseYaml, spanOf, type Node, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import { ENV_NAME } from "./suite-keys.ts";
import { loadAdapterKeys, type PendingSuiteKey, type SuiteValues } from "./adapter-keys.ts";
import { rolesOf, titleOf, type SurfaceCatalog, type SurfaceKind } from "./surface-kinds.ts";
import type { KeyRole, MatrixRole } from "../plugins/adapter-api.ts";

/** The suite.yaml keys of the core; every other key is one an adapter declares (see `declaredSuiteKeys`). */
export const SUITE_KEYS = ["min_version", "env", "env_from", "before_each", "after_each", "order", "server"] as const;
const SERVER_KEYS = ["command", "url", "timeout_seconds", "reuse_existing"] as const;
export const DEFAULT_SERVER_TIMEOUT_S = 60;

export interface SuiteServer {
  readonly command: string;
  readonly url: string;
  readonly timeout_seconds: number;
  readonly reuse_existing: boolean;
}

export interface SuiteConfig {
  readonly file: string;
  readonly min_version?: string;
  /** `env:` entries in file order; values are raw templates (`${VAR}` resolved when the run starts). */
  readonly env: readonly { readonly name: string; readonly raw: string }[];
  readonly env_from?: string;
  readonly before_each?: string;
  readonly after_each?: string;
  readonly order: readonly string[];
  /** Defaults of adapter keys with a `suiteDefault` role (the web's `browser:`), by key; checked like a flow's, values as written. */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Maps a `named` role picks entries from (the web's `identities:` for `session: <name>`), values as written (`${VAR}` raw). */
  readonly maps?: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>;
  /** Lists of keys with a `matrix` role (the web's `browsers:`): each flow of the adapter runs once per entry (suite-matrix.ts). */
  readonly matrix?: Readonly<Record<string, SuiteMatrix>>;
  /** Keys no adapter at hand declares, kept to be checked when a flow loads with its project's adapters (`settleSuiteKeys`). */
  readonly pending?: readonly PendingSuiteKey[];
  readonly server?: SuiteServer;
}

/** A suite's matrix list: the adapter kind and key it belongs to, its role, and the entries as written (in order). */
export interface SuiteMatrix {
  readonly kind: string;
  /** The adapter's flow key (`browser`). */
  readonly path: string;
  readonly role: MatrixRole;
  readonly entries: readonly string[];
}

/** A suite key an adapter declares: the default of its key (`suiteDefault` role), or the map its `named` role picks from. */
export interface DeclaredSuiteKey {
  readonly kind: SurfaceKind;
  /** The adapter's flow key. */
  readonly path: string;
  readonly form: "default" | "map" | "matrix";
  /** With form `matrix`: the role that declares the list. */
  readonly matrix?: MatrixRole;
}

/** The suite keys the adapters of `catalog` declare, by suite key (the first adapter to declare one owns it). */
export function declaredSuiteKeys(catalog: SurfaceCatalog | undefined): Map<string, DeclaredSuiteKey> {
  const out = new Map<string, DeclaredSuiteKey>();
  for (const kind of catalog?.kinds.values() ?? [])
    for (const [path, role] of rolesOf(kind)) {
      if (path.includes(".")) continue;
      if (role.suiteDefault && !out.has(path) && !(SUITE_KEYS as readonly string[]).includes(path)) out.set(path, { kind, path, form: "default" });
      if (role.matrix && !out.has(role.matrix.key) && !(SUITE_KEYS as readonly string[]).includes(role.matrix.key))
        out.set(role.matrix.key, { kind, path, form: "matrix", matrix: role.matrix });
      if (role.named !== undefined && !out.has(role.named) && !(SUITE_KEYS as readonly string[]).includes(role.named))
        out.set(role.named, { kind, path, form: "map" });
    }
  return out;
}

export type SuiteLoadResult = { readonly ok: true; readonly suite: SuiteConfig } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * The value of a suite key that stands for an adapter's flow key (the `browser:` default, an
 * identity for `session: <name>`), checked as that key is: the first adapter with a key `name`
 * (any name when undefined) whose role `matches`. Without a catalog the value is taken as written.
 */
function asAdapterKey(
  source: YamlSource,
  catalog: SurfaceCatalog | undefined,
  name: string | undefined,
  matches: (role: KeyRole) => boolean,
  keyNode: Node,
  value: Node,
  problems: Diagnostic[],
): unknown {
  for (const kind of catalog?.kinds.values() ?? []) {
    for (const [path, role] of rolesOf(kind)) {
      if (path.includes(".") || (name !== undefined && path !== name) || !matches(role)) continue;
      const keys = loadAdapterKeys(
        source,
        kind,
        [{ name: path, key: keyNode, value }],
        undefined,
        { where: "flow", name: "the suite", prefix: "", partial: true },
        problems,
      );
      return keys?.[path];
    }
  }
  return (value as { toJSON(): unknown }).toJSON();
}

/**
 * `catalog`: the app kinds whose declared suite keys (the web's `browser:`, `identities:`) the suite
 * may hold, checked as those keys. With `pending`, a key none of them declares is kept for the
 * flow's own adapters (a project's, loaded later) rather than refused.
 */
export function loadSuiteText(file: string, text: string, catalog?: SurfaceCatalog, options: { readonly pending?: boolean } = {}): SuiteLoadResult {
  const { source, diagnostics } = parseYaml(file, text);
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const root = source.doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ""))) return { ok: true, suite: { file, env: [], order: [] } };
  if (!isMap(root)) {
    return {
      ok: false,
      diagnostics: [diagnostic("bad-value", "suite.yaml must be a mapping", { span: spanOf(source, root), hint: `its keys are: ${SUITE_KEYS.join(", ")}` })],
    };
  }
  const problems: Diagnostic[] = [];
  const out: MutableSuite = { file, env: [], order: [] };
  for (const pair of root.items) {
    const key = keyName(pair);
    const value = pair.value as Node | null;
    const keyNode = pair.key as Node;
    switch (key) {
      case "min_version": {
        const v = scalarText(value);
        if (v === undefined || !/^\d+\.\d+\.\d+$/.test(v))
          problems.push(
            diagnostic("bad-value", "`min_version` must be a version X.Y.Z", { span: spanOf(source, value ?? keyNode), hint: 'min_version: "0.3.0"' }),
          );
        else out.min_version = v;
        break;
      }
      case "env": {
        if (!isMap(value)) {
          problems.push(
            diagnostic("bad-value", "`env` must be a mapping of NAME: value", {
              span: spanOf(source, value ?? keyNode),
              hint: "env:\n  BASE_URL: http://127.0.0.1:3000",
            }),
          );
          break;
        }
        const env: { name: string; raw: string }[] = [];
        for (const p of value.items) {
          const name = keyName(p);
          const v = scalarText(p.value as Node | null);
          if (!ENV_NAME.test(name))
            problems.push(
              diagnostic("bad-value", `${JSON.stringify(name)} is not an environment variable name`, {
                span: spanOf(source, p.key as Node),
                hint: "use letters, digits and `_`: BASE_URL",
              }),
            );
          else if (v === undefined)
            problems.push(
              diagnostic("bad-value", `\`env.${name}\` must be a string, number or boolean`, {
                span: spanOf(source, (p.value ?? p.key) as Node),
                hint: `${name}: some-value`,
              }),
            );
          else {
            const parsed = parseTemplate(v);
            if (!parsed.ok)
              problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(source, p.value as Node), hint: parsed.error.hint }));
            else if (parsed.value.parts.some((part) => part.kind === "captured"))
              problems.push(
                diagnostic("bad-reference", `\`env.${name}\` uses \${captured.…}, which exists only inside a flow`, {
                  span: spanOf(source, p.value as Node),
                  hint: "use `exports:` in the flow that remembers the value",
                }),
              );
            else env.push({ name, raw: v });
          }
        }
        out.env = env;
        break;
      }
      case "env_from":
      case "before_each":
      case "after_each": {
        const v = scalarText(value);
        if (v === undefined || v.trim() === "")
          problems.push(
            diagnostic("bad-value", `\`${key}\` must be a shell command`, {
              span: spanOf(source, value ?? keyNode),
              hint: `${key}: ./scripts/${key === "env_from" ? "mint-test-data.sh" : "reset-db.sh"}`,
            }),
          );
        else out[key] = v;
        break;
      }
      case "order": {
        if (!isSeq(value)) {
          problems.push(
            diagnostic("bad-value", "`order` must be a list of flow files", {
              span: spanOf(source, value ?? keyNode),
              hint: "order:\n  - login.flow.yaml\n  - checkout.flow.yaml",
            }),
          );
          break;
        }
        const order: string[] = [];
        for (const item of value.items as Node[]) {
          const v = scalarText(item);
          if (v === undefined || v.trim() === "")
            problems.push(diagnostic("bad-value", "each `order` entry must be a flow file path", { span: spanOf(source, item), hint: "- login.flow.yaml" }));
          else if (order.includes(v))
            problems.push(diagnostic("bad-value", `${v} is listed twice in \`order\``, { span: spanOf(source, item), hint: "list each flow once" }));
          else order.push(v);
        }
        out.order = order;
        break;
      }
      case "server": {
        const server = loadServer(source, value, keyNode, problems);
        if (server) out.server = server;
        break;
      }
      default: {
        const declared = declaredSuiteKeys(catalog).get(key);
        if (declared) loadDeclaredKey(source, catalog, declared, key, keyNode, value, problems, out as SuiteSink);
        else if (options.pending) out.pending = [...(out.pending ?? []), { name: key, source, key: keyNode, value }];
        else problems.push(unknownSuiteKey(source, catalog, key, keyNode));
      }
    }
  }
  checkMatrixDefaults(source, root, out, problems);
  // A suite refused for its other problems never reaches the flows whose adapters could claim a
  // pending key: one that is a near miss of a suite key is a typo, and said in the same report.
  if (problems.length > 0) for (const p of out.pending ?? []) if (nearest(p.name, SUITE_KEYS)) problems.push(unknownSuiteKey(p.source, catalog, p.name, p.key));
  return problems.length > 0 ? { ok: false, diagnostics: problems.sort(byPlace) } : { ok: true, suite: out };
}

/** Diagnostics in the order of their places in the file. */
const byPlace = (a: Diagnostic, b: Diagnostic): number => (a.span?.line ?? 0) - (b.span?.line ?? 0) || (a.span?.column ?? 0) - (b.span?.column ?? 0);

function unknownSuiteKey(source: YamlSource, catalog: SurfaceCatalog | undefined, key: string, keyNode: Node): Diagnostic {
  const declared = [...declaredSuiteKeys(catalog).entries()];
  const names = [...SUITE_KEYS, ...declared.map(([k]) => k)];
  const guess = nearest(key, names);
  const adapters = declared.map(([k, d]) => `\`${k}\` (${titleOf(d.kind)})`);
  return diagnostic("unknown-key", `unknown key \`${key}\` in suite.yaml`, {
    span: spanOf(source, keyNode),
    hint: `${guess ? `did you mean \`${guess}\`? ` : ""}suite.yaml keys are: ${SUITE_KEYS.join(", ")}${adapters.length > 0 ? `, and the adapters' own: ${adapters.join(", ")}` : ""}`,
  });
}

type MutableSuite = { -readonly [K in keyof SuiteConfig]: SuiteConfig[K] };
/** Where declared keys land: a suite's (or a flow's settled) `values` and `maps`. */
type SuiteSink = {
  values?: Readonly<Record<string, unknown>>;
  maps?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  matrix?: Readonly<Record<string, SuiteMatrix>>;
};

/** Loads a key an adapter declares into the suite's `values` (a key's default) or `maps` (entries a `named` key picks). */
function loadDeclaredKey(
  source: YamlSource,
  catalog: SurfaceCatalog | undefined,
  declared: DeclaredSuiteKey,
  key: string,
  keyNode: Node,
  value: Node | null,
  problems: Diagnostic[],
  out: SuiteSink,
): void {
  if (declared.form === "matrix") return loadMatrix(source, declared, key, keyNode, value, problems, out);
  if (declared.form === "default") {
    if (value === null)
      return void problems.push(
        diagnostic("bad-value", `\`${key}\` needs a value: the default of the flows' \`${key}:\``, {
          span: spanOf(source, keyNode),
          hint: `remove \`${key}:\`, or give it a value`,
        }),
      );
    // Checked as the flows' own key is, by the adapter whose key takes the suite's default.
    const v = asAdapterKey(source, catalog, declared.path, (r) => r.suiteDefault === true, keyNode, value, problems);
    if (v !== undefined && !(typeof v === "object" && v !== null && Object.keys(v).length === 0)) out.values = { ...(out.values ?? {}), [key]: v };
    return;
  }
  if (!isMap(value)) {
    problems.push(
      diagnostic("bad-value", `\`${key}\` must map names to the shapes a flow's \`${declared.path}: <name>\` picks`, {
        span: spanOf(source, value ?? keyNode),
        hint: `${key}:\n  admin:\n    …`,
      }),
    );
    return;
  }
  const entries: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const p of value.items) {
    const name = keyName(p);
    const shape = p.value as Node | null;
    if (!/^[A-Za-z0-9_.-]+$/.test(name))
      problems.push(
        diagnostic("bad-value", `${key} name ${JSON.stringify(name)} may use letters, digits, '.', '_' and '-'`, {
          span: spanOf(source, p.key as Node),
          hint: "admin:",
        }),
      );
    else if (!isMap(shape))
      problems.push(
        diagnostic("bad-value", `\`${key}.${name}\` must be a mapping: the shape a flow's \`${declared.path}: ${name}\` takes`, {
          span: spanOf(source, (shape ?? p.key) as Node),
          hint: `${name}:\n  …`,
        }),
      );
    else {
      // An entry is the value of the flow key that names entries of this map (`session: <name>`).
      const named = asAdapterKey(source, catalog, undefined, (r) => r.named === key, p.key as Node, shape, problems);
      if (named && typeof named === "object") entries[name] = named as Record<string, unknown>;
    }
  }
  out.maps = { ...(out.maps ?? {}), [key]: entries };
}

/** A matrix list (`browsers: [chromium, firefox]`): distinct entries among the role's values. */
function loadMatrix(
  source: YamlSource,
  declared: DeclaredSuiteKey,
  key: string,
  keyNode: Node,
  value: Node | null,
  problems: Diagnostic[],
  out: SuiteSink,
): void {
  const role = declared.matrix!;
  const hint = `${key}: [${role.values.join(", ")}]`;
  if (!isSeq(value) || value.items.length === 0)
    return void problems.push(
      diagnostic("bad-value", `\`${key}\` must be a list of ${role.values.join(" and ")}: every flow runs once per entry`, {
        span: spanOf(source, value ?? keyNode),
        hint,
      }),
    );
  const entries: string[] = [];
  for (const item of value.items as Node[]) {
    const v = scalarText(item);
    if (v === undefined || !role.values.includes(v)) {
      const guess = v === undefined ? undefined : nearest(v, role.values);
      problems.push(
        diagnostic("bad-value", `${v === undefined ? "this entry" : JSON.stringify(v)} is not one of the \`${key}\` flowproof runs`, {
          span: spanOf(source, item),
          hint: `${guess ? `did you mean ${guess}? ` : ""}${hint}`,
        }),
      );
    } else if (entries.includes(v))
      problems.push(diagnostic("bad-value", `${v} is listed twice in \`${key}\``, { span: spanOf(source, item), hint: "list each once" }));
    else entries.push(v);
  }
  if (entries.length === value.items.length) out.matrix = { ...(out.matrix ?? {}), [key]: { kind: declared.kind.kind, path: declared.path, role, entries } };
}

/** A suite default that names the matrix field (`browser: {name: …}` beside `browsers:`) says two things at once: refused. */
function checkMatrixDefaults(source: YamlSource, root: Node, out: MutableSuite, problems: Diagnostic[]): void {
  for (const [key, m] of Object.entries(out.matrix ?? {})) {
    const d = out.values?.[m.path];
    if (d && typeof d === "object" && (d as Record<string, unknown>)[m.role.field] !== undefined)
      problems.push(
        diagnostic("bad-value", `suite.yaml sets both \`${key}\` and \`${m.path}.${m.role.field}\`: the list says which each flow runs in`, {
          span: spanOf(source, (isMap(root) ? (root.items.find((p) => keyName(p) === key)?.key as Node | undefined) : undefined) ?? root),
          hint: `remove \`${m.role.field}\` from \`${m.path}:\` (a flow that writes its own \`${m.path}.${m.role.field}\` runs in that one only)`,
        }),
      );
  }
}

/**
 * The suite's values for a flow whose adapters are `catalog`: the keys the suite kept pending
 * (no built-in declares them) checked against the adapters that declare them, a key none does
 * refused at its line in suite.yaml.
 */
export function settleSuiteKeys(suite: SuiteValues, catalog: SurfaceCatalog, problems: Diagnostic[]): SuiteValues {
  if (!suite.pending || suite.pending.length === 0) return suite;
  const out: SuiteSink = {
    ...(suite.values ? { values: { ...suite.values } } : {}),
    ...(suite.maps ? { maps: { ...suite.maps } } : {}),
  };
  const declared = declaredSuiteKeys(catalog);
  for (const p of suite.pending) {
    const d = declared.get(p.name);
    if (d?.form === "matrix")
      // The suite run expands its matrix before any flow loads: only a built-in adapter's list reaches it.
      problems.push(
        diagnostic("unsupported-feature", `\`${p.name}\` is a list a project adapter declares; a suite runs the lists of flowproof's own adapters only`, {
          span: spanOf(p.source, p.key),
          hint: `remove \`${p.name}:\` and run the suite once per entry with ${d.matrix!.env} set`,
        }),
      );
    else if (d) loadDeclaredKey(p.source, catalog, d, p.name, p.key, p.value, problems, out);
    else problems.push(unknownSuiteKey(p.source, catalog, p.name, p.key));
  }
  const { pending: _settled, ...rest } = suite;
  return { ...rest, ...out };
}

function loadServer(source: YamlSource, value: Node | null, keyNode: Node, problems: Diagnostic[]): SuiteServer | undefined {
  const hint = "server:\n  command: npm start\n  url: http://127.0.0.1:3000/\n  timeout_seconds: 60";
  if (!isMap(value)) {
    problems.push(diagnostic("bad-value", "`server` must be a mapping with `command` and `url`", { span: spanOf(source, value ?? keyNode), hint }));
    return undefined;
  }
  const before = problems.length;
  let command: string | undefined,
    url: string | undefined,
    timeout = DEFAULT_SERVER_TIMEOUT_S,
    reuse = false;
  for (const p of value.items) {
    const key = keyName(p);
    const v = p.value as Node | null;
    const at = spanOf(source, (v ?? p.key) as Node);
    if (key === "command" || key === "url") {
      const t = scalarText(v);
      if (t === undefined || t.trim() === "") problems.push(diagnostic("bad-value", `\`server.${key}\` must be a non-empty string`, { span: at, hint }));
      else if (key === "command") command = t;
      else if (!/^https?:\/\//.test(t) && !t.includes("${"))
        problems.push(
          diagnostic("bad-value", `\`server.url\` must be an http(s) URL, not ${JSON.stringify(t)}`, { span: at, hint: "url: http://127.0.0.1:3000/" }),
        );
      else url = t;
    } else if (key === "timeout_seconds") {
      if (!isScalar(v) || typeof v.value !== "number" || !(v.value > 0))
        problems.push(diagnostic("bad-value", "`server.timeout_seconds` must be a positive number", { span: at, hint: "timeout_seconds: 60" }));
      else if (v.value > MAX_TIMEOUT_SECONDS)
        problems.push(
          diagnostic("bad-value", `\`server.timeout_seconds\` is longer than the longest bound flowproof can wait, ${MAX_TIMEOUT_TEXT}`, {
            span: at,
            hint: `write at most ${MAX_TIMEOUT_SECONDS}, e.g. \`timeout_seconds: 60\``,
          }),
        );
      else timeout = v.value;
    } else if (key === "reuse_existing") {
      if (!isScalar(v) || typeof v.value !== "boolean")
        problems.push(diagnostic("bad-value", "`server.reuse_existing` must be true or false", { span: at, hint: "reuse_existing: true" }));
      else reuse = v.value;
    } else {
      problems.push(
        diagnostic("unknown-key", `unknown key \`${key}\` in \`server\``, {
          span: spanOf(source, p.key as Node),
          hint: `\`server\` keys are: ${SERVER_KEYS.join(", ")}`,
        }),
      );
    }
  }
  if (command === undefined && problems.length === before)
    problems.push(diagnostic("missing-key", "`server` needs a `command`", { span: spanOf(source, value), hint }));
  if (url === undefined && problems.length === before)
    problems.push(diagnostic("missing-key", "`server` needs the `url` to wait for", { span: spanOf(source, value), hint }));
  if (problems.length > before || command === undefined || url === undefined) return undefined;
  return { command, url, timeout_seconds: timeout, reuse_existing: reuse };
}

function scalarText(node: Node | null | undefined): string | undefined {
  if (!isScalar(node)) return undefined;
  const v = node.value;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}
