// The app kinds a flow may name, as spec/ sees them: each adapter's declared keys, grammar, steps,
// capabilities and platforms (the adapter contract, docs/plugins.md), passed in by the caller.
// spec/ never names a kind itself: everything kind-specific is read from here. Pure.
import type { AdapterCredentials, AdapterGrammar, AdapterKeys, AdapterPlatforms, KeyRole, StepsKind } from "../plugins/adapter-api.ts";
import { KEY_ROLE } from "../plugins/adapter-api.ts";
import type { AssertionSugar, ParseContext } from "../grammar/index.ts";

/** What spec/ knows of one app kind: an adapter plugin's declarations (AdapterPlugin is one). */
export interface SurfaceKind {
  readonly kind: string;
  readonly title?: string;
  readonly capabilities: readonly string[];
  readonly keys?: AdapterKeys<never>;
  readonly grammar?: AdapterGrammar;
  readonly steps?: StepsKind;
  readonly executionArgs?: (keys: Readonly<Record<string, unknown>>, steps: readonly unknown[]) => Readonly<Record<string, unknown>>;
  readonly platforms?: AdapterPlatforms;
  readonly leakCorpus?: boolean;
  /** The schema of the facts its drivers report into the trace header's app entry. */
  readonly facts?: object;
  /** Its fallback credentials: `key` is filled from the core's store when a flow does not give it. */
  readonly credentials?: Pick<AdapterCredentials, "key" | "fields" | "read">;
}

/** Every app kind a flow may name: the built-in adapters and the project's own. */
export interface SurfaceCatalog {
  readonly kinds: ReadonlyMap<string, SurfaceKind>;
  /** Kinds announced for a later version, refused by name (`unsupported-feature`) rather than as unknown. */
  readonly planned?: readonly string[];
}

export const catalogOf = (kinds: readonly SurfaceKind[], planned: readonly string[] = []): SurfaceCatalog => ({
  kinds: new Map(kinds.map((k) => [k.kind, k])),
  planned,
});

/** A JSON Schema object as spec/ reads it. */
export type SchemaNode = Readonly<Record<string, unknown>>;

/** The keys schema of a kind that declares none: an optional `url:` start page. */
export const DEFAULT_KEYS_SCHEMA: SchemaNode = {
  type: "object",
  properties: { url: { type: "string", minLength: 1, description: "Where the flow starts; may hold ${VAR} references." } },
  additionalProperties: false,
};

export const keysSchemaOf = (kind: SurfaceKind): SchemaNode => (kind.keys?.schema as SchemaNode | undefined) ?? DEFAULT_KEYS_SCHEMA;

/** The properties of an object schema (none when it is not one). */
export function propertiesOf(schema: SchemaNode | undefined): Readonly<Record<string, SchemaNode>> {
  const props = schema?.["properties"];
  return typeof props === "object" && props !== null ? (props as Record<string, SchemaNode>) : {};
}

/** The keys a kind takes (its schema's properties; `url` included when it lists it). */
export const keyNamesOf = (kind: SurfaceKind): string[] => Object.keys(propertiesOf(keysSchemaOf(kind)));

/** The keys a kind takes beside `app:` (not the ones written inside `app:` as a mapping). */
export const topKeysOf = (kind: SurfaceKind): string[] => keyNamesOf(kind).filter((k) => !(kind.keys?.inApp ?? []).includes(k));

export const roleOf = (schema: SchemaNode | undefined): KeyRole => (schema?.[KEY_ROLE] as KeyRole | undefined) ?? {};

/** A schema node and every branch of its unions and intersections (`anyOf`, `oneOf`, `allOf`), flattened. */
export function formsOf(schema: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [schema];
  for (const word of ["anyOf", "oneOf", "allOf"]) {
    const branches = schema[word];
    if (Array.isArray(branches)) for (const b of branches) if (typeof b === "object" && b !== null) out.push(...formsOf(b as SchemaNode));
  }
  return out;
}

/** The schemas a mapping's key `k` may match in any form: `properties`, `patternProperties`, `additionalProperties` (records). */
export function propertySchemas(forms: readonly SchemaNode[], k: string): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const form of forms) {
    const own = propertiesOf(form)[k];
    if (own) out.push(own);
    const patterns = form["patternProperties"];
    if (typeof patterns === "object" && patterns !== null)
      for (const [re, sub] of Object.entries(patterns)) if (new RegExp(re, "u").test(k)) out.push(sub as SchemaNode);
    const extra = form["additionalProperties"];
    if (!own && typeof extra === "object" && extra !== null) out.push(extra as SchemaNode);
  }
  return out;
}

/** The schemas a list's items may match in any form (`items` as one schema). */
export function itemSchemas(forms: readonly SchemaNode[]): SchemaNode[] {
  return forms.flatMap((f) => (typeof f["items"] === "object" && f["items"] !== null && !Array.isArray(f["items"]) ? [f["items"] as SchemaNode] : []));
}

/** Whether the kind requires `key` (its schema's `required`). */
export const requires = (kind: SurfaceKind, key: string): boolean => ((keysSchemaOf(kind)["required"] as string[] | undefined) ?? []).includes(key);

/** Every role declared in a kind's keys schema, by dotted path (`login.password`), nested objects included. */
export function rolesOf(kind: SurfaceKind): Map<string, KeyRole> {
  const out = new Map<string, KeyRole>();
  const visit = (schema: SchemaNode, prefix: string): void => {
    for (const [key, sub] of Object.entries(propertiesOf(schema))) {
      const path = prefix === "" ? key : `${prefix}.${key}`;
      // A key written in one of several forms (`window: "Payments"` or `window: {title, …}`):
      // the roles of every form hold at its path, and each mapping form's keys below it.
      const forms = Array.isArray(sub["anyOf"]) ? (sub["anyOf"] as SchemaNode[]) : [];
      const role = [sub, ...forms].reduce<KeyRole>((r, form) => ({ ...r, ...roleOf(form) }), {});
      if (Object.keys(role).length > 0) out.set(path, role);
      for (const form of [sub, ...forms]) visit(form, path);
    }
  };
  visit(keysSchemaOf(kind), "");
  return out;
}

/** How messages name a kind: its title, else `app: <kind>`. */
export const titleOf = (kind: SurfaceKind): string => kind.title ?? `\`app: ${kind.kind}\``;

/** How a sentence names a surface of a kind: its title ("the inventory console"), else "an `app: <kind>` surface". */
export const surfaceName = (kind: SurfaceKind): string => kind.title ?? `${article(`app: ${kind.kind}`)} \`app: ${kind.kind}\` surface`;

/** "a"/"an" before a word, for messages such as "an `app: api` flow". */
export const article = (word: string): string => (/^[`'"]?[aeiou]/i.test(word) ? "an" : "a");

/** What to write for `app:`: the kinds a flow may name there, from the catalog (`app: <kind>, one of web, api, …`). */
export function appKindHint(catalog: SurfaceCatalog): string {
  return `app: <kind>, one of ${[...catalog.kinds.keys()].join(", ")}`;
}

/** The kind that `app:` written as a mapping names (`app: {command, window_title}`), if any adapter claims that form. */
export function inAppKind(catalog: SurfaceCatalog): SurfaceKind | undefined {
  return [...catalog.kinds.values()].find((k) => (k.keys?.inApp?.length ?? 0) > 0);
}

/** The kinds (other than `except`) that take `key` at the top level, in catalog order. */
export function ownersOf(catalog: SurfaceCatalog, key: string, except?: string): SurfaceKind[] {
  return [...catalog.kinds.values()].filter((k) => k.kind !== except && topKeysOf(k).includes(key));
}

/** The grammar context for steps on a surface of `kind`: its vocabulary (named by its title), and every other kind's sugar (to refuse it by name). */
export function grammarContext(catalog: SurfaceCatalog, kind: SurfaceKind | undefined, name: string): ParseContext {
  const own = kind?.grammar?.sugar ?? [];
  const foreign: AssertionSugar[] = [];
  for (const other of catalog.kinds.values()) {
    if (other === kind) continue;
    for (const s of other.grammar?.sugar ?? []) {
      if (!own.some((o) => o.phrase === s.phrase) && !foreign.some((f) => f.phrase === s.phrase)) foreign.push(s);
    }
  }
  return { surface: { name: kind ? surfaceName(kind) : name, ...(kind?.grammar ?? {}) }, ...(foreign.length > 0 ? { foreignSugar: foreign } : {}) };
}
