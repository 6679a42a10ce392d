// The per-flow execution context passed to every handler: the driver, the values in scope, the
// clock and the secret redactor. No module-level state: one context per flow execution.
import type { AppDriver, AssertionPlugin, RunMode } from "../plugins/api.ts";
import type { LeakWatch } from "./secret-scan.ts";

/** A monotonic clock in milliseconds; injected so tests and the recorder own time. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface ExecutionContext {
  readonly driver: AppDriver;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `${captured.name}` values; flow-scoped, never persisted. */
  readonly captures: Map<string, string>;
  readonly clock: Clock;
  /** The flow's start URL (resolved); `Go to /path` is relative to it. */
  readonly baseUrl: string;
  /** Resolved secret values (from `${VAR}`) seen so far, for redaction of every output. */
  readonly secrets: Map<string, string>;
  /** Bound for a page navigation (Go to, Reload). */
  readonly navigationTimeoutMs: number;
  /** What structured steps (`assert_xxx`, `assert_no_secret_leak`) need; absent = none can run. */
  readonly structured?: StructuredContext;
}

/** The run-wide facts structured steps use: the assertion kinds, the mode, where files go, the leak scan. */
export interface StructuredContext {
  /** Assertion plugins (built-in and the project's) by step key. */
  readonly assertions: ReadonlyMap<string, AssertionPlugin>;
  readonly mode: RunMode;
  /** Directory of the flow file. */
  readonly baseDir: string;
  /** The flow file's stem (`checkout` for `checkout.flow.yaml`). */
  readonly flowStem: string;
  /** Where this execution's evidence files go. */
  readonly artifactDir: string;
  readonly log: (line: string) => void;
  /** The secrets `assert_no_secret_leak` steps of this run watch for. */
  readonly leaks: LeakWatch;
}

/** Replaces every resolved `${VAR}` value in `text` by its reference. */
export function redact(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  const entries = [...secrets.entries()].sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of entries) {
    if (value.length < 3) continue;
    out = out.split(value).join(`\${${name}}`);
  }
  return out;
}
