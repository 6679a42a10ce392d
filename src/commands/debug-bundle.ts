// After a replay's first failed step: the surface's debug snapshot in the run bundle
// (`debug/dom.html`, `debug/console.log`, every secret value redacted: by the surface before it
// serialises the page, then again in every form a text can hold it), and the step's detail
// told where it is — and, when its target was a text the page does not show, the nearest text
// the page does show. Best effort: a surface without snapshots, or one that cannot answer, leaves
// the results as they were.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { EVIDENCE_CSP, type AppDriver, type DebugSnapshot } from "../plugins/api.ts";
import type { StepResult } from "../engine/loop.ts";
import type { TraceStep } from "../trace/schema.ts";
import { anchorTextOf } from "../trace/selector.ts";
import { redact } from "../engine/context.ts";
import { nearest } from "../spec/suggest.ts";
import { writeFileAtomic } from "../diagnostics/atomic-write.ts";

export const DEBUG_DIR = "debug";
const SNAPSHOT_TIMEOUT_MS = 5_000;

/** The text a step's target names (its first text rung), if any. */
export function targetText(step: TraceStep | undefined): string | undefined {
  for (const rung of step?.selectors ?? []) {
    const text = anchorTextOf(rung);
    if (text?.trim()) return text.trim();
  }
  return undefined;
}

/** `— did you mean 'X'?` when the page does not show the target's text but shows something close. */
export function didYouMean(text: string | undefined, anchors: readonly string[]): string | undefined {
  if (!text) return undefined;
  const wanted = text.toLowerCase();
  if (anchors.some((a) => a.toLowerCase() === wanted)) return undefined;
  return nearest(text, anchors);
}

/**
 * ` — the page threw N uncaught error(s); the first: …` when the surface saw uncaught errors (a
 * page whose script failed shows nothing a step can find); "" otherwise. The first error,
 * shortened and redacted.
 */
export function pageErrors(snapshot: DebugSnapshot, secrets: ReadonlyMap<string, string>): string {
  const errors = snapshot.errors ?? [];
  if (errors.length === 0) return "";
  const first = errors[0]!.split("\n")[0]!.trim();
  const shown = first.length > 160 ? `${first.slice(0, 159)}…` : first;
  return ` — the page threw ${errors.length === 1 ? "an uncaught error" : `${errors.length} uncaught errors; the first`}: ${redact(shown, secrets)}`;
}

/** A text snapshot as an HTML page that shows it as written: escaped, under the evidence policy. */
function textPage(text: string): string {
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<!DOCTYPE html>\n<html><head><meta http-equiv="Content-Security-Policy" content="${EVIDENCE_CSP}"><meta charset="utf-8"><title>debug snapshot</title></head><body><pre>${escaped}</pre></body></html>\n`;
}

/** Writes the snapshot (redacted) under `runDir/debug/`; returns the bundle-relative paths. */
export function writeDebugFiles(runDir: string, snapshot: DebugSnapshot, secrets: ReadonlyMap<string, string>): string[] {
  mkdirSync(join(runDir, DEBUG_DIR), { recursive: true });
  const files = [`${DEBUG_DIR}/dom.html`, `${DEBUG_DIR}/console.log`];
  writeFileAtomic(join(runDir, files[0]!), snapshot.html === true ? redact(snapshot.dom, secrets) : textPage(redact(snapshot.dom, secrets)));
  writeFileAtomic(join(runDir, files[1]!), redact(snapshot.console.length > 0 ? `${snapshot.console.join("\n")}\n` : "(no console output)\n", secrets));
  return files;
}

/** The surface's snapshot (secrets redacted as the surface serialises it), or undefined when it has none or does not answer in time. */
export async function snapshotOf(driver: AppDriver, secrets: ReadonlyMap<string, string>): Promise<DebugSnapshot | undefined> {
  const snap = driver.debugSnapshot?.bind(driver);
  if (!snap) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), SNAPSHOT_TIMEOUT_MS)));
  // A surface that refuses at once (an api surface of a multi-surface flow has no page) has no snapshot either.
  const answer = Promise.resolve()
    .then(() => snap((text) => redact(text, secrets)))
    .catch(() => undefined);
  return Promise.race([answer, limit]).finally(() => clearTimeout(timer));
}

/** ` — did you mean 'X'?` for a failed step whose target text the page does not show (recording writes no files); "" otherwise. */
export async function suggestionFor(driver: AppDriver, step: TraceStep | undefined, secrets: ReadonlyMap<string, string>): Promise<string> {
  const text = targetText(step);
  if (!text) return "";
  const snapshot = await snapshotOf(driver, secrets);
  const guess = snapshot ? didYouMean(text, snapshot.anchors) : undefined;
  return guess ? ` — did you mean '${redact(guess, secrets)}'?` : "";
}

/** Captures the debug snapshot for the first failed or errored step and amends its detail. */
export async function captureDebug(
  driver: AppDriver,
  runDir: string,
  steps: readonly TraceStep[],
  results: readonly StepResult[],
  secrets: ReadonlyMap<string, string>,
): Promise<StepResult[]> {
  const i = results.findIndex((r) => r.status === "failed" || r.status === "errored");
  if (i === -1) return [...results];
  const snapshot = await snapshotOf(driver, secrets);
  if (!snapshot) return [...results];
  let files: string[];
  try {
    files = writeDebugFiles(runDir, snapshot, secrets);
  } catch {
    return [...results];
  }
  const failed = results[i]!;
  const guess = didYouMean(targetText(steps.find((s) => s.id === failed.id)), snapshot.anchors);
  const detail = `${failed.detail ?? failed.status}${guess ? ` — did you mean '${redact(guess, secrets)}'?` : ""}${pageErrors(snapshot, secrets)} (captured: ${files.join(", ")})`;
  return results.map((r, k) => (k === i ? { ...r, detail } : r));
}
