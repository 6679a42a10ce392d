// The audit views of run records: the control map of one run, and the difference between two
// runs with its regression rule. Pure: records in, structured views out.
import type { ControlVerdict, RunRecord } from "./run-record.ts";

export interface AuditControl {
  readonly id: string;
  /** The suite matrix entry (`browsers:`) this verdict was reached in; a control has one verdict per browser. */
  readonly browser?: string;
  readonly title?: string;
  readonly flow: string;
  readonly verdict: ControlVerdict;
  readonly reason?: string;
  /** Asserted: the lanes the flow checks (`egress`, `secret_leak`). */
  readonly lanes?: readonly string[];
  /** Enforced: the agent's containment tier in that run. */
  readonly containment?: string;
  readonly evidence: { readonly trace: string; readonly blocked?: readonly string[] };
}

export interface AuditMap {
  readonly suite: string;
  readonly run: string;
  readonly controls: readonly AuditControl[];
}

/** A control as the diff names it: its id, and the browser of a suite matrix when there is one. */
interface ControlKey {
  readonly id: string;
  readonly browser?: string;
}

export interface AuditDiff {
  readonly base: string;
  readonly head: string;
  readonly added: readonly (ControlKey & { readonly verdict: ControlVerdict })[];
  readonly removed: readonly (ControlKey & { readonly verdict: ControlVerdict })[];
  readonly changed: readonly (ControlKey & { readonly old: ControlVerdict; readonly new: ControlVerdict })[];
}

export function auditMap(record: RunRecord): AuditMap {
  const controls: AuditControl[] = [];
  for (const f of record.flows) {
    const c = f.control;
    if (!c) continue;
    controls.push({
      id: c.id,
      ...(f.browser ? { browser: f.browser } : {}),
      ...(c.title ? { title: c.title } : {}),
      flow: f.flow,
      verdict: c.verdict,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.lanes ? { lanes: c.lanes } : {}),
      ...(c.containment ? { containment: c.containment } : {}),
      evidence: c.evidence,
    });
  }
  controls.sort((a, b) => a.id.localeCompare(b.id) || (a.browser ?? "").localeCompare(b.browser ?? ""));
  return { suite: record.suite, run: record.run_id, controls };
}

export function auditDiff(base: RunRecord, head: RunRecord): AuditDiff {
  // Under a `browsers:` matrix a control has a verdict per browser: each is compared with its own.
  const keyed = (r: RunRecord) =>
    new Map(
      auditMap(r).controls.map((c) => [
        JSON.stringify([c.id, c.browser ?? ""]),
        { key: { id: c.id, ...(c.browser ? { browser: c.browser } : {}) }, verdict: c.verdict },
      ]),
    );
  const before = keyed(base);
  const after = keyed(head);
  const added = [...after].filter(([k]) => !before.has(k)).map(([, c]) => ({ ...c.key, verdict: c.verdict }));
  const removed = [...before].filter(([k]) => !after.has(k)).map(([, c]) => ({ ...c.key, verdict: c.verdict }));
  const changed = [...after]
    .filter(([k, c]) => before.has(k) && before.get(k)!.verdict !== c.verdict)
    .map(([k, c]) => ({ ...c.key, old: before.get(k)!.verdict, new: c.verdict }));
  return { base: base.run_id, head: head.run_id, added, removed, changed };
}

/** A regression: a control removed, or a control (new or changed) whose verdict is now fail or capability-error. */
export function isRegression(diff: AuditDiff): boolean {
  const bad = (v: ControlVerdict) => v === "fail" || v === "capability-error";
  return diff.removed.length > 0 || diff.added.some((c) => bad(c.verdict)) || diff.changed.some((c) => bad(c.new));
}
