// What decides a replay's verdict comes from the flow file: its known failure (`expect:`), its app
// (kind, start URL and recorded keys), what the browser is given (`mock:`, `session:`, `browser:`),
// its `redact:` rules and its `effects:` mode. Replay opens the app from the trace header, so the
// header must say exactly what recording the flow as written now would: a header that disagrees
// (edited by hand, even with its seal recomputed) is refused, naming both values. What the flow
// takes from its suite.yaml (a default `browser:`, a named `session:` identity) is the recording's:
// an edited suite.yaml does not change a recorded flow (docs/suites.md).
import { readFileSync } from "node:fs";
import type { TraceHeader } from "../trace/schema.ts";
import { parseYaml } from "../spec/yaml.ts";
import { rolesOf } from "../spec/surface-kinds.ts";
import { stableJson } from "../trace/stable-json.ts";
import { TraceError, diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Flow } from "../spec/flow.ts";
import type { SurfaceCatalog } from "../spec/surface-kinds.ts";
import { targetOfFlow } from "./execution.ts";
import { recordedEntryNames, topFieldNames } from "./launch-config.ts";
import { displayPath } from "./paths.ts";

type Values = Readonly<Record<string, unknown>>;

/** A value as a message shows it: strings quoted, objects as compact JSON (cut at 120 characters), nothing as "none". */
function shown(value: unknown): string {
  if (value === undefined) return "none";
  const text = typeof value === "string" ? JSON.stringify(value) : stableJson(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

const same = (a: unknown, b: unknown): boolean => (a === undefined || b === undefined ? a === b : stableJson(a) === stableJson(b));

/** `recorded` is `written`, or an object holding every field of `written` as written (and facts besides). */
function refines(recorded: unknown, written: unknown): boolean {
  if (same(recorded, written)) return true;
  if (typeof recorded !== "object" || recorded === null || Array.isArray(recorded) || typeof written !== "object" || written === null || Array.isArray(written))
    return false;
  return Object.entries(written).every(([k, v]) => same((recorded as Values)[k], v));
}

/** One disagreement: where the trace says it, where the flow does, and both values (session values never shown). */
interface Disagreement {
  readonly trace: string;
  readonly flow: string;
  readonly recorded: unknown;
  readonly now: unknown;
  readonly hidden?: boolean;
}

/** The flow file's own top-level keys as written (before its suite's defaults and identities apply). */
export function writtenKeys(flow: Pick<Flow, "file">): Values {
  const value = parseYaml(flow.file, readFileSync(flow.file, "utf8")).source.doc.toJS() as unknown;
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Values) : {};
}

/** Keys of `kind` whose value came from the suite, not from `written`: a suite default the flow does not write, an identity it names. */
function fromSuite(kind: string | undefined, catalog: SurfaceCatalog, written: Values | undefined): Set<string> {
  const k = kind !== undefined ? catalog.kinds.get(kind) : undefined;
  const out = new Set<string>();
  if (!k) return out;
  for (const [path, role] of rolesOf(k)) {
    if (path.includes(".")) continue;
    if ((role.suiteDefault && written?.[path] === undefined) || (role.named !== undefined && typeof written?.[path] === "string")) out.add(path);
  }
  return out;
}

/** The app entry fields a flow decides (core and recorded keys), compared with the header's; the adapter's facts (a backend) and what the suite gave are the recording's. */
function entryDisagreements(
  recorded: Values | undefined,
  now: Values,
  kind: string,
  catalog: SurfaceCatalog,
  single: boolean,
  where: string,
  flowWhere: string,
  written: Values | undefined,
): Disagreement[] {
  const k = catalog.kinds.get(kind);
  const suite = fromSuite(kind, catalog, written);
  const core = ["name", "adapter", "url"];
  const names = [...core, ...(k ? recordedEntryNames(k, single).filter((n) => !suite.has(n) && !core.includes(n)) : [])];
  // The core fields are the flow's alone; an adapter's own recorded key may be refined by what the
  // surface reported of itself (a window's geometry as applied gains its x and y).
  const agrees = (name: string) => (core.includes(name) ? same(recorded?.[name], now[name]) : now[name] === undefined || refines(recorded?.[name], now[name]));
  return [...new Set(names)].flatMap((name) =>
    agrees(name)
      ? []
      : [
          {
            trace: `${where}.${name}`,
            flow: name === "url" ? `${flowWhere}url:` : name === "adapter" || name === "name" ? `${flowWhere}app:` : `${flowWhere}${name}`,
            recorded: recorded?.[name],
            now: now[name],
          },
        ],
  );
}

/** Every field of `header` that disagrees with what recording `flow` now would write. */
export function traceDisagreements(header: TraceHeader, flow: Flow, catalog: SurfaceCatalog, written: Values = writtenKeys(flow)): Disagreement[] {
  const target = targetOfFlow(flow, catalog);
  const out: Disagreement[] = [];
  if (header.expect?.fail !== flow.expect?.fail)
    out.push({ trace: "expect.fail", flow: "expect: fail:", recorded: header.expect?.fail, now: flow.expect?.fail });
  const appKeys = typeof written["app"] === "object" && written["app"] !== null ? { ...written, ...(written["app"] as Values) } : written;
  if (flow.app !== "multi") out.push(...entryDisagreements(header.app, target.app, flow.app, catalog, true, "app", "", appKeys));
  const recordedApps = header.app.adapter === "multi" ? (header.apps ?? {}) : {};
  const flowApps = target.apps ?? {};
  for (const name of [...new Set([...Object.keys(recordedApps), ...Object.keys(flowApps)])].sort()) {
    const r = recordedApps[name];
    const n = flowApps[name];
    if (r === undefined || n === undefined)
      out.push({
        trace: `apps.${name}`,
        flow: `apps: ${name}:`,
        recorded: r === undefined ? undefined : r.adapter,
        now: n === undefined ? undefined : n.adapter,
      });
    else
      out.push(
        ...entryDisagreements(
          r,
          n,
          n.adapter,
          catalog,
          false,
          `apps.${name}`,
          `apps: ${name}: `,
          ((written["apps"] ?? {}) as Record<string, Values | undefined>)[name],
        ),
      );
  }
  const headerFields = header as unknown as Values;
  const top = target.top as Values;
  const kinds = flow.app === "multi" ? [...new Set(Object.values(flow.apps ?? {}).map((a) => a.app))] : [flow.app];
  const suite = new Set(kinds.flatMap((k) => [...fromSuite(k, catalog, written)]));
  for (const name of topFieldNames(catalog)) {
    if (suite.has(name)) continue;
    if (!same(headerFields[name], top[name]))
      out.push({ trace: name, flow: `${name}:`, recorded: headerFields[name], now: top[name], ...(name === "session" ? { hidden: true } : {}) });
  }
  if (!same(header.redaction, flow.redact)) out.push({ trace: "redaction", flow: "redact:", recorded: header.redaction, now: flow.redact });
  if (header.effects !== flow.effects) out.push({ trace: "effects", flow: "effects:", recorded: header.effects ?? "on", now: flow.effects ?? "on" });
  return out;
}

/**
 * Refuses (TraceError `bad-trace`, exit code 2) a trace whose header disagrees with the flow as
 * written on anything that decides the verdict, one diagnostic per field naming both values.
 * Called for a replay of a flow that did not change since recording (a changed flow is stale).
 */
export function checkTraceAgreement(header: TraceHeader, tracePath: string, flow: Flow, catalog: SurfaceCatalog): void {
  const found = traceDisagreements(header, flow, catalog);
  if (found.length === 0) return;
  const trace = displayPath(tracePath);
  const file = displayPath(flow.file);
  const diagnostics: Diagnostic[] = found.map((d) =>
    diagnostic(
      "bad-trace",
      d.hidden
        ? `${trace} disagrees with ${file}: the trace's \`${d.trace}\` is not the flow's \`${d.flow}\` (values not shown)`
        : `${trace} disagrees with ${file}: the trace's \`${d.trace}\` is ${shown(d.recorded)}, but the flow's \`${d.flow}\` is ${shown(d.now)}`,
      {
        hint: `the flow decides what a replay checks and where: record it again (flowproof record ${file}); a trace is never edited by hand`,
      },
    ),
  );
  throw new TraceError(diagnostics);
}
