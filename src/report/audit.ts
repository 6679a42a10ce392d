// The audit views of run records: the control map of one run, and the difference between two
// runs with its regression rule. Pure: records in, structured views out.
import type { ControlVerdict, RunRecord } from "./run-record.ts";

export interface AuditControl {
  readonly id: string;
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

export interface AuditDiff {
  readonly base: string;
  readonly head: string;
  readonly added: readonly { readonly id: string; readonly verdict: ControlVerdict }[];
  readonly removed: readonly { readonly id: string; readonly verdict: ControlVerdict }[];
  readonly changed: readonly { readonly id: string; readonly old: ControlVerdict; readonly new: ControlVerdict }[];
}

export function auditMap(record: RunRecord): AuditMap {
  const controls: AuditControl[] = [];
  for (const f of record.flows) {
    const c = f.control;
    if (!c) continue;
    controls.push({
      id: c.id,
      ...(c.title ? { title: c.title } : {}),
      flow: f.flow,
      verdict: c.verdict,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.lanes ? { lanes: c.lanes } : {}),
      ...(c.containment ? { containment: c.containment } : {}),
      evidence: c.evidence,
    });
  }
  controls.sort((a, b) => a.id.localeCompare(b.id));
  return { suite: record.suite, run: record.run_id, controls };
}

export function auditDiff(base: RunRecord, head: RunRecord): AuditDiff {
  const before = new Map(auditMap(base).controls.map((c) => [c.id, c.verdict]));
  const after = new Map(auditMap(head).controls.map((c) => [c.id, c.verdict]));
  const added = [...after].filter(([id]) => !before.has(id)).map(([id, verdict]) => ({ id, verdict }));
  const removed = [...before].filter(([id]) => !after.has(id)).map(([id, verdict]) => ({ id, verdict }));
  const changed = [...after].filter(([id, v]) => before.has(id) && before.get(id) !== v).map(([id, v]) => ({ id, old: before.get(id)!, new: v }));
  return { base: base.run_id, head: head.run_id, added, removed, changed };
}

/** A regression: a control removed, or a control (new or changed) whose verdict is now fail or capability-error. */
export function isRegression(diff: AuditDiff): boolean {
  const bad = (v: ControlVerdict) => v === "fail" || v === "capability-error";
  return diff.removed.length > 0 || diff.added.some((c) => bad(c.verdict)) || diff.changed.some((c) => bad(c.new));
}
