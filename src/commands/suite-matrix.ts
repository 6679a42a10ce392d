// A suite's matrix (`browsers: [chromium, firefox]`, a list an adapter declares with a `matrix`
// key role): every flow of that adapter runs once per entry, each run its own unit with its own
// key (flow + entry) for ordering, sharding, run folders and results. A flow that writes the
// entry's field itself (`browser: {name: firefox}`) runs once, in its own; other flows run once;
// a run whose environment already sets the role's variable (`--browser`) runs every flow once.
// Pure.
import type { Flow } from "../spec/flow.ts";
import type { SuiteMatrix } from "../spec/suite.ts";
import type { PlannedFlow } from "./suite-plan.ts";

/** One run of a flow in a suite: the flow's plan, and the matrix entry it runs as (if any). */
export interface MatrixUnit extends PlannedFlow {
  /** The matrix entry (`firefox`): names the result and keys its run folder. */
  readonly variant?: string;
  /** The environment the entry's run (and its hooks) adds: `FLOWPROOF_BROWSER=firefox`. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The entry a flow writes for itself (`browser.name`), in a single-surface flow or any of its surfaces. */
function ownEntry(flow: Flow, m: SuiteMatrix): string | undefined {
  const field = (keys: Readonly<Record<string, unknown>> | undefined): string | undefined => {
    const v = keys?.[m.path];
    const f = v && typeof v === "object" ? (v as Record<string, unknown>)[m.role.field] : undefined;
    return typeof f === "string" ? f : undefined;
  };
  return (
    field(flow.keys) ??
    Object.values(flow.apps ?? {})
      .map((s) => field(s.keys))
      .find((v) => v !== undefined)
  );
}

/** Whether the matrix's adapter runs the flow (its app, or one of its surfaces). */
function usesKind(flow: Flow, kind: string): boolean {
  return flow.app === kind || Object.values(flow.apps ?? {}).some((s) => s.app === kind);
}

/**
 * The units of a suite run: `flows` (in order, each with its loaded flow when it loaded) expanded
 * by the suite's matrix, renumbered in order. Without a matrix, or when `env` sets its variable,
 * the flows as they are (the keys and output of a suite without a matrix).
 */
export function expandMatrix(
  flows: readonly { readonly plan: PlannedFlow; readonly flow?: Flow }[],
  matrix: Readonly<Record<string, SuiteMatrix>> | undefined,
  env: Readonly<Record<string, string | undefined>>,
): MatrixUnit[] {
  const m = Object.values(matrix ?? {})[0];
  if (!m || env[m.role.env]?.trim()) return flows.map((f) => f.plan);
  const out: MatrixUnit[] = [];
  for (const { plan, flow } of flows) {
    if (!flow || !usesKind(flow, m.kind)) out.push(plan);
    else {
      const own = ownEntry(flow, m);
      if (own !== undefined) out.push({ ...plan, variant: own, env: { [m.role.env]: own } });
      else for (const entry of m.entries) out.push({ ...plan, variant: entry, env: { [m.role.env]: entry } });
    }
  }
  return out.map((u, position) => ({ ...u, position }));
}

/** A unit's key: the flow's path, with its matrix entry when it has one (`checkout.flow.yaml [firefox]`). */
export function unitKey(unit: { readonly rel: string; readonly variant?: string }): string {
  return unit.variant ? `${unit.rel} [${unit.variant}]` : unit.rel;
}

/** Units grouped by flow file, in order: the runs of one flow in each browser of the matrix. */
export function byFlow<T extends { readonly plan: { readonly rel: string } }>(units: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const u of units) groups.set(u.plan.rel, [...(groups.get(u.plan.rel) ?? []), u]);
  return [...groups.values()];
}
