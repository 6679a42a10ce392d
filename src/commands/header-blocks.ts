// A trace header's adapter blocks, checked against their adapters' own schemas (docs/plugins.md,
// "Header blocks"): each block beside `app` against the key its adapter records there, each app
// entry's own fields against the keys its adapter records and the facts it declares. The format's
// schema leaves these open; a replay opens only from blocks their adapter accepts, and record
// never writes a fact its adapter does not. Knows no app kind.
import { diagnostic, PluginError, TraceError, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { checkSchema } from "../spec/key-schema.ts";
import {
  formsOf,
  keysSchemaOf,
  propertiesOf,
  propertySchemas,
  rolesOf,
  titleOf,
  type SchemaNode,
  type SurfaceCatalog,
  type SurfaceKind,
} from "../spec/surface-kinds.ts";
import { AppInfo, TraceHeader, type AppInfo as Entry, type TraceHeader as Header } from "../trace/schema.ts";

const FORMAT_FIELDS: readonly string[] = Object.keys(TraceHeader.properties);
const CORE_ENTRY_FIELDS: readonly string[] = Object.keys(AppInfo.properties);

/** The schema of a (dotted) key path in a kind's keys schema, through every form of each key on the way. */
function schemasAt(kind: SurfaceKind, path: string): SchemaNode[] {
  const segs = path.split(".");
  let forms: SchemaNode[] = formsOf(keysSchemaOf(kind));
  for (const seg of segs.slice(0, -1)) forms = propertySchemas(forms, seg).flatMap(formsOf);
  // The key's own schemas as declared (a union stays one), each of which a recorded value may satisfy.
  return propertySchemas(forms, segs[segs.length - 1]!);
}

/** By name in the header: the schemas a kind's recorded keys are written under, beside `app` (`top`) or in an app entry. */
function recordedSchemas(kind: SurfaceKind, top: boolean): Map<string, SchemaNode[]> {
  const out = new Map<string, SchemaNode[]>();
  for (const [path, role] of rolesOf(kind)) {
    const r = role.recorded;
    if (r === undefined || role.secret) continue;
    const isTop = typeof r === "object" && r.top === true;
    // A key recorded with `top` sits in a surface's own entry of a multi-surface flow.
    if (top && !isTop) continue;
    const name = isTop ? path : ((typeof r === "object" ? r.as : undefined) ?? path.split(".").pop()!);
    out.set(name, [...(out.get(name) ?? []), ...schemasAt(kind, path)]);
  }
  return out;
}

/** Whether `value` satisfies one of `schemas`; the problems of the first otherwise. */
function problemsOf(value: unknown, schemas: readonly SchemaNode[], name: string): string[] {
  let first: string[] | undefined;
  for (const schema of schemas) {
    const found = checkSchema({ [name]: value }, { type: "object", properties: { [name]: schema } }, "the header");
    if (found.length === 0) return [];
    first ??= found.map((p) => p.message);
  }
  return first ?? [];
}

/** What one app entry (`where`: `app`, `apps.clerk`) holds that its adapter does not accept. */
function entryProblems(entry: Entry, where: string, catalog: SurfaceCatalog): string[] {
  const kind = catalog.kinds.get(entry.adapter);
  if (kind === undefined) return [];
  const keys = recordedSchemas(kind, false);
  const facts = propertiesOf(kind.facts as SchemaNode | undefined);
  const out: string[] = [];
  for (const [field, value] of Object.entries(entry)) {
    if (CORE_ENTRY_FIELDS.includes(field) || value === undefined) continue;
    const schemas = [...(keys.get(field) ?? []), ...(facts[field] ? [facts[field]] : [])];
    if (schemas.length === 0) {
      out.push(`\`${where}.${field}\` is neither a key ${titleOf(kind)} records nor a fact its adapter declares`);
      continue;
    }
    for (const p of problemsOf(value, schemas, field)) out.push(`\`${where}\`: ${p} (${titleOf(kind)})`);
  }
  return out;
}

/** Every problem of the adapter blocks of `header`: one sentence each, naming the field. */
export function headerBlockProblems(header: Header, catalog: SurfaceCatalog): string[] {
  const out: string[] = [];
  const owners = new Map<string, SchemaNode[]>();
  for (const kind of catalog.kinds.values())
    for (const [name, schemas] of recordedSchemas(kind, true)) owners.set(name, [...(owners.get(name) ?? []), ...schemas]);
  for (const [field, value] of Object.entries(header)) {
    if (FORMAT_FIELDS.includes(field) || value === undefined) continue;
    const schemas = owners.get(field);
    if (schemas === undefined) out.push(`\`${field}\` is no field of the trace format, and no adapter records a block of that name`);
    else out.push(...problemsOf(value, schemas, field).map((p) => `\`${field}\`: ${p}`));
  }
  if (header.app.adapter !== "multi") out.push(...entryProblems(header.app, "app", catalog));
  for (const [name, entry] of Object.entries(header.apps ?? {})) out.push(...entryProblems(entry, `apps.${name}`, catalog));
  return out;
}

/** Replay: a header whose adapter blocks their adapters do not accept is refused (`bad-trace`), every problem named. */
export function assertHeaderBlocks(header: Header, catalog: SurfaceCatalog): void {
  const problems = headerBlockProblems(header, catalog);
  if (problems.length === 0) return;
  const hint = "record the flow again; a trace's adapter blocks are checked against the adapters that replay it";
  throw new TraceError(problems.map((p): Diagnostic => diagnostic("bad-trace", `the trace header's ${p}`, { hint })));
}

/** Record: the facts a surface reported are ones its adapter declares (`facts`), in the shape it declares; a plugin error otherwise. */
export function assertRecordedFacts(header: Header, catalog: SurfaceCatalog): void {
  const problems = headerBlockProblems(header, catalog);
  if (problems.length === 0) return;
  throw new PluginError(
    problems.map(
      (p): Diagnostic =>
        diagnostic("plugin-error", `an adapter reported a header fact it does not declare: ${p}`, {
          hint: 'declare every fact `appInfo()` reports in the adapter\'s `facts` schema (docs/plugins.md, "Header blocks")',
        }),
    ),
  );
}
