// An adapter's keys on their way from the flow to the adapter, as their roles say (docs/plugins.md,
// "Keys"): record copies the recorded ones into the trace header as written; every record and
// replay builds the launch config from the header's (recorded keys) and the spec's (the others,
// secrets included), resolving `${…}` only then. Knows no app kind. Never prints.
import { filePaths } from "../plugins/file-paths.ts";
import { isAbsolute, resolve, dirname } from "node:path";
import type { KeyRole, LaunchContext } from "../plugins/api.ts";
import { AppInfo } from "../trace/schema.ts";
import { keyctlPath, readKeyring } from "../plugins/keyring.ts";
import { resolveText, UnresolvedReferenceError } from "../engine/templates.ts";
import { parseTemplate } from "../grammar/index.ts";
import { TraceError, diagnostic } from "../diagnostics/diagnostic.ts";
import {
  formsOf,
  itemSchemas,
  keysSchemaOf,
  propertiesOf,
  propertySchemas,
  roleOf,
  rolesOf,
  type SchemaNode,
  type SurfaceCatalog,
  type SurfaceKind,
} from "../spec/surface-kinds.ts";

type Values = Readonly<Record<string, unknown>>;

/** App entry fields the core itself writes; every other field of an entry is the adapter's. */
const CORE_ENTRY_FIELDS: readonly string[] = Object.keys(AppInfo.properties);

/** Where a recorded key lands in the header: its name there, and whether beside `app` (single-surface `top`). */
function placement(key: string, role: KeyRole, single: boolean): { name: string; top: boolean } {
  const r = role.recorded;
  const as = typeof r === "object" ? r.as : undefined;
  return { name: as ?? key.split(".").pop()!, top: single && typeof r === "object" && r.top === true };
}

const valueAt = (values: Values | undefined, path: readonly string[]): unknown => {
  let v: unknown = values;
  for (const seg of path) v = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Values)[seg] : undefined;
  return v;
};

/**
 * What record writes for keys as written: app entry fields and, in a single-surface flow, fields
 * beside `app` (keys recorded with `top`). Secrets never appear.
 */
export function recordedKeys(kind: SurfaceKind, keys: Values | undefined, single: boolean): { entry: Record<string, unknown>; top: Record<string, unknown> } {
  const entry: Record<string, unknown> = {};
  const top: Record<string, unknown> = {};
  for (const [path, role] of rolesOf(kind)) {
    if (role.recorded === undefined || role.secret) continue;
    const value = valueAt(keys, path.split("."));
    if (value === undefined) continue;
    const at = placement(path, role, single);
    (at.top ? top : entry)[at.name] = structuredClone(value);
  }
  return { entry, top };
}

/** The names of the app entry fields a kind records keys into (`connection`, `login_user`, …), beside the core's `name`, `adapter`, `url`. */
export function recordedEntryNames(kind: SurfaceKind, single: boolean): string[] {
  return [...rolesOf(kind)].flatMap(([path, role]) => {
    if (role.recorded === undefined || role.secret) return [];
    const at = placement(path, role, single);
    return at.top ? [] : [at.name];
  });
}

/** The names of every header field beside `app` that some kind records keys into. */
export function topFieldNames(catalog: SurfaceCatalog): string[] {
  const out = new Set<string>();
  for (const kind of catalog.kinds.values()) for (const [path, role] of rolesOf(kind)) if (placement(path, role, true).top) out.add(path);
  return [...out];
}

/** A resolved launch: the adapter's config, and what its LaunchContext carries besides. */
export interface Launch {
  readonly config: Record<string, unknown>;
  readonly context: Pick<LaunchContext, "written" | "recorded">;
}

export interface LaunchSources {
  /** The recorded header entry (`app`, or the surface's `apps` entry). */
  readonly entry: Readonly<AppInfo> | Values;
  /** The header's fields beside `app` (shared keys of every surface). */
  readonly top: Values;
  /** The keys as the flow spec writes them now (a surface's own); the source of every unrecorded key. */
  readonly spec: Values | undefined;
  /** A multi-surface flow's top-level keys in the spec, which `shared` keys fall back to. */
  readonly sharedSpec?: Values | undefined;
  /** How messages name the place: "the flow", "surface `clerk`". */
  readonly where: string;
  /** A surface recorded inside a multi-surface flow (no `top` placement of its own). */
  readonly surface?: boolean;
}

export interface ResolveContext {
  readonly flowPath: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Gains every resolved value, so every message redacts it. */
  readonly secrets: Map<string, string>;
  /** The captures so far (an `apps:` surface starting at its first block). */
  readonly captures?: ReadonlyMap<string, string>;
}

/**
 * The launch config of a surface of `kind`: recorded keys from the header, the others (secrets
 * included) from the spec, `${…}` resolved where a key's role allows references (each value
 * joining `secrets`), flow-relative paths made absolute. A pinned key whose spec value differs
 * from the recorded one stops the run: the trace needs recording again.
 */
export function launchOf(kind: SurfaceKind, sources: LaunchSources, ctx: ResolveContext): Launch {
  const schema = keysSchemaOf(kind);
  const roles = rolesOf(kind);
  const config: Record<string, unknown> = {};
  const written: Record<string, unknown> = {};
  const recordedNames = new Set<string>();
  for (const [key, sub] of Object.entries(propertiesOf(schema))) {
    if (key === "url") continue;
    const role = roleOf(sub);
    let raw: unknown;
    if (role.recorded !== undefined && !role.secret) {
      const at = placement(key, role, !sources.surface);
      recordedNames.add(at.name);
      raw = at.top ? sources.top[key] : (sources.entry as Values)[at.name];
      if (raw === undefined && role.shared) raw = sources.top[key];
    } else {
      raw = sources.spec?.[key];
      if (raw === undefined && role.shared) raw = sources.sharedSpec?.[key];
    }
    if (raw === undefined) continue;
    written[key] = raw;
    config[key] = resolveValue(raw, sub, role, key, ctx);
  }
  for (const [path, role] of roles) {
    if (role.recorded === undefined || !path.includes(".")) continue;
    const at = placement(path, role, !sources.surface);
    recordedNames.add(at.name);
    if (!role.pinned) continue;
    const recorded = (sources.entry as Values)[at.name];
    const now = valueAt(sources.spec, path.split("."));
    if (recorded !== now) {
      const name = `\`${path}\``;
      throw new TraceError(
        diagnostic(
          "bad-trace",
          `${sources.where}'s ${name} is ${now === undefined ? "gone" : `\`${String(now)}\``} but the trace was recorded ${recorded === undefined ? "without one" : `with \`${String(recorded)}\``}`,
          {
            hint: `record the flow again after changing or removing its ${name}`,
          },
        ),
      );
    }
  }
  fillCredentials(kind, config, ctx);
  // An agent-steps kind's keys reach the agent as its execution's arguments, resolved when it runs.
  if (kind.steps !== "agent_steps") assertResolved(config, sources.where);
  const recorded = Object.fromEntries(Object.entries(sources.entry).filter(([k]) => !CORE_ENTRY_FIELDS.includes(k) && !recordedNames.has(k)));
  return { config, context: { written, ...(Object.keys(recorded).length > 0 ? { recorded } : {}) } };
}

/**
 * The credential key the adapter declares, when the flow does not give it: filled on Linux from
 * the core's store (`flowproof config <kind>`), the password registered as a secret. Nothing is
 * filled without keyctl or stored credentials; the adapter then reports the missing key itself.
 */
function fillCredentials(kind: SurfaceKind, config: Record<string, unknown>, ctx: ResolveContext): void {
  const c = kind.credentials;
  if (!c?.key || c.read || config[c.key] !== undefined || process.platform !== "linux" || !keyctlPath(ctx.env)) return;
  const stored = readKeyring(
    kind.kind,
    (c.fields ?? []).map((f) => f.name),
    ctx.env,
  );
  if (!stored) return;
  ctx.secrets.set(`${c.key}.password`, stored.password);
  config[c.key] = { ...stored.fields, user: stored.user, password: stored.password };
}

/**
 * Resolves a value as the roles of every schema it may match say (a union's branches, an
 * intersection's parts, nested objects, list items, records); values without references pass as written.
 */
function resolveValue(raw: unknown, schema: SchemaNode, role: KeyRole, path: string, ctx: ResolveContext): unknown {
  return resolveIn(raw, formsOf(schema), role, path, ctx);
}

/** Whether a value can match a schema form by its JSON type (a form that names no type fits anything). */
function fits(raw: unknown, form: SchemaNode): boolean {
  const type = form["type"];
  const types = Array.isArray(type) ? type : typeof type === "string" ? [type] : undefined;
  if (types === undefined) return true;
  const actual = Array.isArray(raw)
    ? "array"
    : raw === null
      ? "null"
      : typeof raw === "object"
        ? "object"
        : typeof raw === "number"
          ? Number.isInteger(raw)
            ? ["integer", "number"]
            : "number"
          : typeof raw;
  return types.some((t) => (Array.isArray(actual) ? actual.includes(t) : actual === t));
}

function resolveIn(raw: unknown, allForms: readonly SchemaNode[], outer: KeyRole, path: string, ctx: ResolveContext): unknown {
  // Only the forms the value can match lend it their roles: `window: "Payments"` takes the string
  // form's, `window: {title, width}` the object form's (whose numbers stay numbers).
  const fitting = allForms.filter((form) => fits(raw, form));
  const forms = fitting.length > 0 ? fitting : allForms;
  const role = forms.reduce<KeyRole>((r, form) => ({ ...r, ...roleOf(form) }), outer);
  if (role.references !== undefined || role.secret) {
    const text = (v: unknown, at: string): unknown => {
      if (typeof v === "number" || typeof v === "boolean") v = String(v);
      if (typeof v === "string") {
        const value = resolveText(v, { env: ctx.env, captures: new Map(ctx.captures ?? []), secrets: ctx.secrets }).value;
        // A literal secret (a password written in the flow) is as secret as a `${VAR}` one.
        if (role.secret && value !== "" && ![...ctx.secrets.values()].includes(value)) ctx.secrets.set(at, value);
        return value;
      }
      if (Array.isArray(v)) return v.map((x, i) => text(x, `${at}.${i}`));
      if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, text(x, `${at}.${k}`)]));
      return v;
    };
    return text(raw, path);
  }
  // A path key (a downloads folder, a program) of a confined run must lie inside its root.
  if (role.path === "flow-relative" && typeof raw === "string")
    return filePaths().file(`\`${path}\``, isAbsolute(raw) ? raw : resolve(dirname(ctx.flowPath), raw), dirname(ctx.flowPath));
  if (Array.isArray(raw)) {
    const items = itemSchemas(forms).flatMap(formsOf);
    return items.length > 0 ? raw.map((v, i) => resolveIn(v, items, {}, `${path}.${i}`, ctx)) : structuredClone(raw);
  }
  if (typeof raw === "object" && raw !== null) {
    return Object.fromEntries(
      Object.entries(raw as Values).map(([k, v]) => {
        const subs = propertySchemas(forms, k).flatMap(formsOf);
        return [k, subs.length > 0 ? resolveIn(v, subs, {}, `${path}.${k}`, ctx) : structuredClone(v)];
      }),
    );
  }
  return structuredClone(raw);
}

/**
 * The last check before an adapter launches, whatever its schema says: no string of the config
 * still holds a `${…}` reference. Fails closed naming the key; the adapter never receives one.
 */
export function assertResolved(config: Values, where: string): void {
  const visit = (v: unknown, at: string): void => {
    if (typeof v === "string") {
      const parsed = parseTemplate(v);
      const ref = parsed.ok ? parsed.value.parts.find((p) => p.kind !== "literal") : undefined;
      if (!parsed.ok || ref !== undefined) {
        const shown = ref === undefined ? "a `${…}` reference" : ref.kind === "env" ? `\`\${${ref.name}}\`` : `\`\${captured.${ref.name}}\``;
        throw new UnresolvedReferenceError(
          `${where}'s \`${at}\` still holds ${shown} when the app starts: its adapter's keys schema gives it no role that resolves references, so flowproof stops rather than pass the literal reference to the app` +
            ` (give the key \`keyRole({ references: "env" })\` in the adapter's keys schema, or write the value without \`\${…}\`)`,
        );
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${at}.${i}`));
    else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) visit(x, at === "" ? k : `${at}.${k}`);
  };
  visit(config, "");
}
