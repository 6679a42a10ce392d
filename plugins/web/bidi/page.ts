// Calls into a Firefox page over WebDriver BiDi: an expression evaluated in the page's realm with
// its value carried back as JSON (BiDi's own serialisation is typed and lossy for plain data), and
// the injected page API (the same bundle as on Chromium) called through it, installed on demand.
import { FlowproofError } from "../../../src/plugins/api.ts";
import { NAVIGATING, pageCallExpression, pageInstaller, type ApiMethod, type Transient } from "../page-calls.ts";
import type { BidiConnection } from "./connection.ts";

/** BiDi failures that mean the document went away under the call (a navigation): the attempt is retried. */
const TRANSIENT_BIDI_FAILURES: readonly string[] = [
  "no such frame",
  "Realm",
  "dead object",
  "was destroyed",
  "DiscardedBrowsingContext",
  "AbortError",
  "navigated",
  "no such handle",
  "Script evaluation was interrupted",
];

/** True when `failure` (a BiDi error, or a page exception's text) is one of TRANSIENT_BIDI_FAILURES. */
export function isBidiTransient(failure: unknown): boolean {
  const text = failure instanceof Error ? failure.message : String(failure);
  return TRANSIENT_BIDI_FAILURES.some((t) => text.includes(t));
}

/** The expression that evaluates `expression` (awaited when a promise) and answers it as JSON text. */
export function jsonExpression(expression: string): string {
  return `(async () => { const v = await (${expression}\n); return v === undefined ? "__undefined" : JSON.stringify(v); })()`;
}

interface EvaluateResult {
  readonly type: "success" | "exception";
  readonly result?: { readonly type: string; readonly value?: unknown };
  readonly exceptionDetails?: { readonly text: string };
}

export class BidiPage {
  readonly connection: BidiConnection;
  readonly context: string;

  constructor(connection: BidiConnection, context: string) {
    this.connection = connection;
    this.context = context;
  }

  /** Evaluates `expression` in the page; its value as plain data, or a Transient when the document went away. Throws on a page exception. */
  async evaluate<T>(expression: string, timeoutMs?: number): Promise<T | Transient> {
    let res: EvaluateResult;
    try {
      res = await this.connection.send<EvaluateResult>(
        "script.evaluate",
        { expression: jsonExpression(expression), target: { context: this.context }, awaitPromise: true, resultOwnership: "none" },
        timeoutMs,
      );
    } catch (error) {
      if (isBidiTransient(error)) return { transient: NAVIGATING };
      throw error;
    }
    if (res.type === "exception") {
      const text = res.exceptionDetails?.text ?? "an exception";
      if (isBidiTransient(text)) return { transient: NAVIGATING };
      throw new FlowproofError({ code: "browser-error", message: `page script failed: ${text.split("\n")[0]}` });
    }
    const value = res.result?.value;
    if (typeof value !== "string" || value === "__undefined") return undefined as T;
    return JSON.parse(value) as T;
  }

  /** Evaluates `expression`; undefined when it failed in any way (best-effort reads). */
  async tryEvaluate<T>(expression: string): Promise<T | undefined> {
    const value = await this.evaluate<T>(expression).catch(() => undefined);
    return value !== null && typeof value === "object" && "transient" in (value as object) ? undefined : (value as T | undefined);
  }

  /**
   * Calls the injected page API; installs it first when the document lacks it. `afterward` is
   * evaluated in the same round trip once the call answered ok (see pageCallExpression).
   */
  async call<T>(method: ApiMethod, arg: unknown, afterward?: string): Promise<T | Transient> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const value = await this.evaluate<T | { __flowproofMissing: true }>(pageCallExpression(method, arg, afterward));
      if (value && typeof value === "object" && "transient" in value) return value as Transient;
      if (value && typeof value === "object" && "__flowproofMissing" in value) {
        const installed = await this.evaluate<unknown>(`(() => { ${pageInstaller()}; return 0; })()`);
        if (installed && typeof installed === "object" && "transient" in installed) return installed as Transient;
        continue;
      }
      return value as T;
    }
    return { transient: "the page script could not be installed" };
  }

  /** Waits for one rendering update of the document (best effort: it may be navigating away). */
  async nextFrame(): Promise<void> {
    await this.evaluate("new Promise((r) => requestAnimationFrame(() => r(0)))", 5000).catch(() => undefined);
  }
}
