// Calls into the page: the injected page API (one Runtime.evaluate per call, installed on demand),
// the one table of CDP failures that only mean "the page was between documents", and the Attempt
// shapes every driver method answers with.
import { FlowproofError, type Attempt, type Selector } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import type { PageApi, ProbeFailure, Rung, ScopeMethods } from "./injected/protocol.ts";
import { installerOf } from "./injected/installer.ts";
import { pageScript } from "./injected/bundle.ts";

let installer: string | undefined;

/** The page script's installer, run in every new document and again when a document lacks it; built on first use. */
export function pageInstaller(): string {
  installer ??= installerOf(pageScript());
  return installer;
}

/**
 * CDP failures that mean the document went away under the call (a navigation, a frame swap): the
 * attempt is retried, never reported as the page's fault. Every transient decision reads this table.
 */
const TRANSIENT_CDP_FAILURES: readonly string[] = [
  "Execution context was destroyed",
  "Cannot find default execution context",
  "Cannot find context with specified id",
  "Inspected target navigated or closed",
  "uniqueContextId not found",
];

/** What a step says when a call met a document being replaced. */
export const NAVIGATING = "the page was navigating";

/** True when `failure` (a CDP error, an Error, or a page exception's text) is one of TRANSIENT_CDP_FAILURES. */
export function isTransient(failure: unknown): boolean {
  const text = failure instanceof Error ? failure.message : String(failure);
  return TRANSIENT_CDP_FAILURES.some((t) => text.includes(t));
}

export type ApiMethod = keyof PageApi | keyof ScopeMethods;

/** A page call that met a navigation (or a document the script could not be installed in). */
export interface Transient {
  readonly transient: string;
}

export const ok = <T>(value: T, tier?: string): Attempt<T> => (tier ? { ok: true, value, tier } : { ok: true, value });
type Failed = Extract<Attempt, { ok: false }>["failed"];
export const fail = (failed: Failed | ProbeFailure, detail: string, retryable = true): Attempt<never> => ({ ok: false, failed, detail, retryable });
/** `Go back` / `Go forward` with no entry that way in the flow's history (the blank page a tab opens on is none): the same words in every engine. */
export const noHistoryEntry = (direction: "back" | "forward"): Attempt<never> =>
  fail(
    "not-found",
    direction === "back"
      ? "there is no earlier page to go back to in this flow's history"
      : "there is no later page to go forward to (nothing was gone back from)",
    false,
  );

export function toRungs(ladder: readonly Selector[]): Rung[] {
  return ladder.map((s) => ({ tier: s.tier, payload: s.payload }));
}

/**
 * The expression that calls `method` of the page API with `arg`, or reports the API missing. With
 * `afterward`, an expression evaluated in the same round trip once the call answered `ok` (its
 * value in the answer's `afterward`): what a step would otherwise ask the page next.
 */
export function pageCallExpression(method: ApiMethod, arg: unknown, afterward?: string): string {
  const call = `globalThis.__flowproof.${method}(${JSON.stringify(arg)})`;
  const then = afterward === undefined ? call : `((a) => { if (a && a.ok === true) a.afterward = ${afterward}; return a; })(${call})`;
  return `globalThis.__flowproof ? ${then} : ({ __flowproofMissing: true })`;
}

/**
 * Calls the injected page API; installs it first when the document does not have it yet. A page
 * script that throws is a bug in flowproof and throws; a document going away is a Transient.
 */
export async function callPage<T>(session: Session, method: ApiMethod, arg: unknown, afterward?: string): Promise<T | Transient> {
  const expression = pageCallExpression(method, arg, afterward);
  for (let attempt = 0; attempt < 2; attempt++) {
    let res;
    try {
      res = await session.send("Runtime.evaluate", { expression, returnByValue: true });
    } catch (error) {
      if (isTransient(error)) return { transient: NAVIGATING };
      throw error;
    }
    if (res.exceptionDetails) {
      const text = res.exceptionDetails.exception?.description ?? res.exceptionDetails.text;
      if (isTransient(text)) return { transient: NAVIGATING };
      throw new FlowproofError({ code: "browser-error", message: `page script failed: ${text.split("\n")[0]}` });
    }
    const value = res.result.value as T | { __flowproofMissing: true };
    if (value && typeof value === "object" && "__flowproofMissing" in value) {
      try {
        await session.send("Runtime.evaluate", { expression: pageInstaller(), returnByValue: false });
      } catch (error) {
        // The document that lacked the script is being replaced: the next attempt meets the new one.
        if (isTransient(error)) return { transient: NAVIGATING };
        throw error;
      }
      continue;
    }
    return value as T;
  }
  return { transient: "the page script could not be installed" };
}

/** A hover whose target is not under the pointer once it got there: the same words on every engine. */
export function notHovered(at: { readonly x: number; readonly y: number }): Attempt<never> {
  return fail(
    "receives-pointer",
    `the pointer moved onto it at (${Math.round(at.x)}, ${Math.round(at.y)}) but it is not hovered (it moved away or something covers it)`,
  );
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** A page the server answered with an error status (500 and up): never the app, so named at navigation, in every engine's words alike. */
export function serverError(url: string, status: number): Attempt<never> {
  const text = STATUS_TEXT[status];
  return fail(
    "not-found",
    `${url} answered HTTP ${status}${text ? ` ${text}` : ""}: the app under test is running but could not serve the page (its log says why)`,
    false,
  );
}
