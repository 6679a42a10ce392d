// Loads the keys an adapter declared (docs/plugins.md, "Keys") from a flow's top level or an
// `apps:` entry: the schema's checks in the flow format's words, `${…}` references where a key's
// role allows them, suite identities dereferenced, then the adapter's own checks — every problem
// pointed at its YAML node. Pure: YAML nodes in, the keys as written (plain JSON) out.
import { parseTemplate } from "../grammar/index.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { ArgumentProblem, KeyRole } from "../plugins/adapter-api.ts";
import { keyName, spanOf, type Node, type YAMLMap, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import { nodeAt } from "./structured.ts";
import { checkSchema } from "./key-schema.ts";
import {
  formsOf,
  itemSchemas,
  keysSchemaOf,
  propertiesOf,
  propertySchemas,
  roleOf,
  rolesOf,
  titleOf,
  type SchemaNode,
  type SurfaceKind,
} from "./surface-kinds.ts";

/** A key as written: its key node (for spans) and value node. */
export interface KeyPair {
  readonly name: string;
  readonly key: Node;
  readonly value: Node | null;
}

/** Where keys are loaded: a single-surface flow's top level, or one `apps:` entry. */
export interface KeysPlace {
  readonly where: "flow" | "surface";
  /** How messages name it: "the flow", "surface `clerk`". */
  readonly name: string;
  /** Prefix of key names in messages: "" or "apps.clerk.". */
  readonly prefix: string;
  /** Some keys only (a multi-surface flow's shared keys): the schema's required keys are not asked for. */
  readonly partial?: boolean;
  /** Where a problem of the whole mapping points (a missing key): the `app:` value, or the surface's entry. */
  readonly anchor?: Node | undefined;
}

/** A governing suite's values for keys with a `suiteDefault` or `named` role. */
export interface SuiteValues {
  /** The suite file, as shown in messages. */
  readonly file: string;
  /** Defaults by key name (e.g. `browser`). */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Named entries by map name (e.g. `identities`), for keys with `named: <map>`. */
  readonly maps?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Suite keys no adapter of the suite's load declared, checked against the flow's adapters when it loads. */
  readonly pending?: readonly PendingSuiteKey[];
}

/** A suite key left for a flow's adapters to declare: its name and nodes, for messages at its line in suite.yaml. */
export interface PendingSuiteKey {
  readonly name: string;
  readonly source: YamlSource;
  readonly key: Node;
  readonly value: Node | null;
}

const toJson = (node: Node | null): unknown => (node === null || node === undefined ? null : (node as { toJSON(): unknown }).toJSON());

/** The schema of the keys actually loaded here: the kind's schema without `url` (the core's start page) and, on a surface, without flow-only keys. */
function effectiveSchema(kind: SurfaceKind, place: KeysPlace): SchemaNode {
  const schema = keysSchemaOf(kind);
  const props = Object.fromEntries(
    Object.entries(propertiesOf(schema)).filter(
      ([k, s]) => k !== "url" && !(place.where === "surface" && (s["flowproof"] as KeyRole | undefined)?.surface === false),
    ),
  );
  const required = ((schema["required"] as string[] | undefined) ?? []).filter((k) => k in props);
  return { ...schema, properties: props, required };
}

/**
 * Loads `pairs` (keys of the mapping the kind takes; the caller sorted out the others) and, for
 * an adapter that claims `app:` as a mapping, the pairs of `appMap`. Undefined when a problem
 * was reported.
 */
export function loadAdapterKeys(
  source: YamlSource,
  kind: SurfaceKind,
  pairs: readonly KeyPair[],
  appMap: YAMLMap | undefined,
  place: KeysPlace,
  problems: Diagnostic[],
  suite?: SuiteValues,
): Record<string, unknown> | undefined {
  const before = problems.length;
  const schema = effectiveSchema(kind, place);
  const props = propertiesOf(schema);
  const all: KeyPair[] = [...pairs];
  // A misspelt key of `app:` is reported once, as unknown with its right spelling, not again as missing.
  const misspelt = new Set<string>();
  if (appMap) {
    const inApp = kind.keys?.inApp ?? [];
    for (const pair of appMap.items) {
      const name = keyName(pair);
      if (inApp.includes(name)) {
        all.push({ name, key: pair.key as Node, value: pair.value as Node | null });
        continue;
      }
      const guess = nearest(name, [...inApp]);
      if (guess) misspelt.add(guess);
      problems.push(
        diagnostic("unknown-key", `unknown key \`${name}\` in \`${place.prefix}app\`: ${titleOf(kind)} is \`{${inApp.join(", ")}}\``, {
          span: spanOf(source, pair.key as Node),
          hint: guess ? `did you mean \`${guess}\`?` : `${place.prefix}app: {${inApp.map((k) => `${k}: …`).join(", ")}}`,
        }),
      );
    }
  }
  const values: Record<string, unknown> = {};
  const byName = new Map(all.map((p) => [p.name, p]));
  for (const pair of all) {
    const role = (props[pair.name]?.["flowproof"] as KeyRole | undefined) ?? {};
    let value = toJson(pair.value);
    if (role.named !== undefined && typeof value === "string") value = named(source, pair, role.named, value, suite, problems);
    if (value !== undefined) values[pair.name] = value;
  }
  const nodeOf = (path: readonly (string | number)[], at: "key" | "value"): Node | undefined => {
    const head = path[0];
    const pair = typeof head === "string" ? byName.get(head) : undefined;
    if (!pair) return appMap ?? place.anchor ?? pairs[0]?.key;
    if (path.length === 1) return at === "key" ? pair.key : (pair.value ?? pair.key);
    const found = nodeAt(pair.value, path.slice(1));
    return (at === "key" ? found.keyNode : undefined) ?? found.node ?? pair.key;
  };
  const refuse = kind.keys?.refuse ?? {};
  // The adapter's own checks speak first: a key they report on is not reported again by the schema.
  const own = kind.keys?.check?.(values as never, { where: place.where, name: place.name, prefix: place.prefix }) ?? [];
  const ownKeys = new Set(own.map((p) => String(p.path[0] ?? "")));
  for (const p of own) problems.push(problemDiagnostic(source, p, nodeOf));
  const schemaProblems = checkSchema(values, place.partial ? { ...schema, required: [] } : schema, place.name, [], place.prefix);
  for (const p of schemaProblems) {
    if (ownKeys.has(String(p.path[0] ?? "")) && p.path.length > 0) continue;
    if (p.missing !== undefined && p.path.length === 0 && misspelt.has(p.missing)) continue;
    const dotted = p.path.join(".");
    const refused = p.code === "unknown-key" ? refuse[dotted] : undefined;
    const where = p.path.length === 0 ? (appMap ?? place.anchor ?? pairs[0]?.key) : nodeOf(p.path, p.at);
    // A key of `app:` written as a mapping is missing from that mapping.
    const inApp = p.missing !== undefined && p.path.length === 0 && (kind.keys?.inApp ?? []).includes(p.missing);
    const underApp = p.path.length === 1 && (kind.keys?.inApp ?? []).includes(String(p.path[0]));
    const message = inApp
      ? `\`${place.prefix}app\` needs \`${p.missing}\``
      : underApp
        ? p.message.replace(`\`${String(p.path[0])}\``, `\`${place.prefix}app.${String(p.path[0])}\``)
        : p.message;
    problems.push(diagnostic(refused ? "bad-value" : p.code, refused?.message ?? message, { span: spanOf(source, where), hint: refused?.hint ?? p.hint }));
  }
  if (problems.length > before) return undefined;
  checkReferences(source, kind, values, place, nodeOf, problems);
  if (problems.length === before) checkUnresolvable(source, kind, values, place, nodeOf, problems);
  return problems.length > before ? undefined : values;
}

export function problemDiagnostic(
  source: YamlSource,
  p: ArgumentProblem,
  nodeOf: (path: readonly (string | number)[], at: "key" | "value") => Node | undefined,
): Diagnostic {
  return diagnostic(p.code ?? "bad-value", p.message, { span: spanOf(source, nodeOf(p.path, p.at ?? "value")), hint: p.hint });
}

/** `session: <name>`: a copy of the governing suite's entry, or a problem naming the entries there are. */
function named(source: YamlSource, pair: KeyPair, map: string, name: string, suite: SuiteValues | undefined, problems: Diagnostic[]): unknown {
  const span = spanOf(source, pair.value ?? pair.key);
  if (!suite) {
    problems.push(
      diagnostic("bad-value", `\`${pair.name}: ${name}\` names an entry of a suite's \`${map}:\`, and this flow has no governing suite.yaml that declares it`, {
        span,
        hint: `write \`${pair.name}:\` inline, or declare \`${map}:\` in the suite.yaml above this flow`,
      }),
    );
    return undefined;
  }
  const entries = suite.maps?.[map] ?? {};
  if (Object.hasOwn(entries, name)) return structuredClone(entries[name]);
  const names = Object.keys(entries);
  const guess = nearest(name, names);
  problems.push(
    diagnostic("bad-value", `no entry \`${name}\` in the \`${map}:\` of ${suite.file}`, {
      span,
      hint:
        names.length > 0
          ? `${guess ? `did you mean \`${guess}\`? ` : ""}declared ${map}: ${names.join(", ")}`
          : `${suite.file} declares no ${map}; add one under \`${map}:\`, or write \`${pair.name}:\` inline`,
    }),
  );
  return undefined;
}

/** Every string under a key whose role allows references is a well-formed `${…}` template, without captures where none exist yet. */
function checkReferences(
  source: YamlSource,
  kind: SurfaceKind,
  values: Record<string, unknown>,
  place: KeysPlace,
  nodeOf: (path: readonly (string | number)[], at: "key" | "value") => Node | undefined,
  problems: Diagnostic[],
): void {
  for (const [dotted, role] of rolesOf(kind)) {
    if (role.references === undefined) continue;
    const path = dotted.split(".");
    let value: unknown = values;
    for (const seg of path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[seg] : undefined;
    const captures = role.references === "captured" && place.where === "surface";
    // A key of `app:` written as a mapping is named as written: `app.command`.
    const named = (at: readonly (string | number)[]) => `\`${place.prefix}${(kind.keys?.inApp ?? []).includes(String(at[0])) ? "app." : ""}${at.join(".")}\``;
    visitStrings(value, path, (text, at) => {
      const node = nodeOf(at, "value");
      const span = spanOf(source, node);
      if (/\$\{\s*each\b/.test(text)) {
        problems.push(
          diagnostic("bad-reference", `${named(at)} is needed before any step runs, so it cannot use \${each}`, {
            span,
            hint: "write the value, or a `${VAR}` environment reference",
          }),
        );
        return;
      }
      const parsed = parseTemplate(text);
      if (!parsed.ok) {
        problems.push(diagnostic(parsed.error.code, parsed.error.message, { span, hint: parsed.error.hint }));
        return;
      }
      if (!captures && parsed.value.parts.some((p) => p.kind === "captured")) {
        problems.push(
          diagnostic(
            "bad-reference",
            `${named(at)} cannot use \${captured.…}: it is used when the ${place.where === "surface" ? "surface" : "flow"} starts, before any step has run`,
            {
              span,
              hint:
                role.references === "captured"
                  ? "use a `${VAR}` environment reference, or make this a surface of `apps:` that starts after the block that remembers the value"
                  : "use a `${VAR}` environment reference or a literal",
            },
          ),
        );
      }
    });
  }
}

/**
 * No `${…}` where nothing resolves it: a string holding a reference under no role that resolves
 * references (in any form its value may match) would reach the app as written, so the flow is
 * refused when it loads. (An agent-steps kind's keys are resolved when its execution runs.)
 */
function checkUnresolvable(
  source: YamlSource,
  kind: SurfaceKind,
  values: Record<string, unknown>,
  place: KeysPlace,
  nodeOf: (path: readonly (string | number)[], at: "key" | "value") => Node | undefined,
  problems: Diagnostic[],
): void {
  if (kind.steps === "agent_steps") return;
  const walk = (v: unknown, forms: readonly SchemaNode[], at: readonly (string | number)[], resolves: boolean): void => {
    const role = forms.reduce<KeyRole>((r, f) => ({ ...r, ...roleOf(f) }), {});
    if (resolves || role.references !== undefined || role.secret) return;
    if (typeof v === "string") {
      const parsed = parseTemplate(v);
      const ref = parsed.ok ? parsed.value.parts.find((p) => p.kind !== "literal") : undefined;
      if (ref === undefined) return;
      const shown = ref.kind === "env" ? `\${${ref.name}}` : ref.kind === "captured" ? `\${captured.${ref.name}}` : "";
      const name = `${place.prefix}${(kind.keys?.inApp ?? []).includes(String(at[0])) ? "app." : ""}${at.join(".")}`;
      problems.push(
        diagnostic(
          "bad-reference",
          `\`${name}\` cannot hold \`${shown}\`: ${titleOf(kind)} does not resolve references in it, so it would reach the app as written`,
          {
            span: spanOf(source, nodeOf(at, "value")),
            hint: 'write the value itself (flowproof never passes a literal reference to an app); an adapter that takes references there gives the key `keyRole({ references: "env" })`',
          },
        ),
      );
    } else if (Array.isArray(v)) {
      const items = itemSchemas(forms).flatMap(formsOf);
      v.forEach((x, i) => walk(x, items, [...at, i], false));
    } else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) walk(x, propertySchemas(forms, k).flatMap(formsOf), [...at, k], false);
    }
  };
  const schema = keysSchemaOf(kind);
  for (const [key, value] of Object.entries(values)) {
    if (key === "url") continue;
    const sub = propertiesOf(schema)[key];
    if (sub) walk(value, formsOf(sub), [key], false);
  }
}

function visitStrings(value: unknown, path: readonly (string | number)[], f: (text: string, path: readonly (string | number)[]) => void): void {
  if (typeof value === "string") f(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => visitStrings(v, [...path, i], f));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) visitStrings(v, [...path, k], f);
}
