// `flowproof codegen <url>`: a person clicks through the app in a real browser window and gets a
// readable flow. Each action becomes a step as it happens and the flow file is rewritten whole after
// every step; the session ends when the window closes or `stop()` is called, then `--record`
// replays the flow through the normal `record`. Never prints: progress goes to `log`.
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { openCodegenBrowser, type BrowserNavigation, type CodegenBrowser, type CodegenEvent } from "../plugins/builtin.ts";
import { appendStep, navigationStep, portableUrl, stepFor, type CodegenStep, type StepContext } from "./codegen-steps.ts";
import { renderFlow, writeWhole } from "./codegen-file.ts";
import { record } from "./record.ts";

export type { CodegenStep } from "./codegen-steps.ts";

/** The flow file codegen writes when not told where. */
export const DEFAULT_CODEGEN_OUT = "recorded.flow.yaml";
/** The variable the start URL's origin becomes. */
export const DEFAULT_APP_URL_VAR = "APP_URL";

export interface CodegenOptions {
  /** The page to start at (http, https or file URL). */
  readonly url: string;
  /** Where to write the flow (default `recorded.flow.yaml` in the working directory); an existing file is never overwritten. */
  readonly out?: string;
  /** The flow's `name:` (default: `Recorded at <start URL's path>`). */
  readonly name?: string;
  /** The variable the start URL's origin becomes in the flow (default `APP_URL`). */
  readonly appUrlVar?: string;
  /** When the session ends, record the flow through the normal `record` (a step that does not replay gets a `# TODO`). */
  readonly record?: boolean;
  /** Environment for `--record` (default: process.env); the origin's variable is set from the start URL when it is not. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Progress lines (a step captured, the recording's progress). */
  readonly log?: (line: string) => void;
  /** Show the window (default true); headless is for tests that drive the page over CDP. */
  readonly headed?: boolean;
  /** The process lifecycle the `--record` recording runs under (the CLI's or the MCP server's). */
  readonly lifecycle?: Lifecycle;
}

export interface CodegenResult {
  /** The flow file, absolute. */
  readonly flow_path: string;
  readonly steps: readonly CodegenStep[];
  /** Variables the flow reads and what each stands for: the origin's, then each secret field's. */
  readonly variables: readonly { readonly name: string; readonly for: string }[];
  /** How many steps carry a `# TODO`. */
  readonly todos: number;
  /** What the session saw but wrote no step for, each with why and what to write by hand. */
  readonly not_written: readonly string[];
  /** Why the session ended. */
  readonly ended: string;
  /** `--record`: what recording the flow gave. */
  readonly record?: { readonly ok: boolean; readonly trace_path: string | null; readonly error?: string };
}

const fail = (message: string, hint: string) => new FlowproofError({ code: "usage", message, hint });

/** The origin of a start URL (`file://` for a file), refusing what a browser cannot open. */
function originOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail(`${JSON.stringify(url)} is not a URL`, "give the page to start at, e.g. `flowproof codegen http://localhost:3000/login`");
  }
  if (!["http:", "https:", "file:"].includes(parsed.protocol))
    throw fail(
      `codegen opens http, https and file URLs, not ${parsed.protocol}`,
      "give the page to start at, e.g. `flowproof codegen http://localhost:3000/login`",
    );
  return parsed.protocol === "file:" ? "file://" : parsed.origin;
}

/** One codegen session: the window, the steps so far, and the file they are written to. */
export class CodegenSession {
  readonly flowPath: string;
  readonly #steps: CodegenStep[] = [];
  readonly #notWritten: string[] = [];
  readonly #ctx: StepContext;
  readonly #head: { name: string; url: string; startedAt: string };
  readonly #options: CodegenOptions;
  #browser: CodegenBrowser | undefined;
  #ended: Promise<CodegenResult> | undefined;

  private constructor(options: CodegenOptions, flowPath: string, ctx: StepContext) {
    this.#options = options;
    this.flowPath = flowPath;
    this.#ctx = ctx;
    const url = portableUrl(options.url, ctx);
    this.#head = { name: options.name ?? `Recorded at ${new URL(options.url).pathname}`, url, startedAt: new Date().toISOString().replace(/\.\d+Z$/, "Z") };
  }

  /** Opens the window at the start URL and writes the (empty) flow file. */
  static async start(options: CodegenOptions): Promise<CodegenSession> {
    const origin = originOf(options.url);
    const appUrlVar = options.appUrlVar ?? DEFAULT_APP_URL_VAR;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(appUrlVar))
      throw fail(`${JSON.stringify(appUrlVar)} is not a variable name`, "use letters, digits and _, e.g. --app-url-var APP_URL");
    const flowPath = resolve(options.out ?? DEFAULT_CODEGEN_OUT);
    if (existsSync(flowPath)) throw fail(`${flowPath} already exists; codegen never overwrites a flow`, "pass another --out, or move the file away first");
    const session = new CodegenSession(options, flowPath, { origin, appUrlVar, secrets: new Map() });
    session.#write();
    try {
      session.#browser = await openCodegenBrowser({
        url: options.url,
        headed: options.headed ?? true,
        onEvent: (e) => session.#onEvent(e),
        onNavigate: (n) => session.#onNavigate(n),
        onUnknownNavigation: (url, why) => session.#onUnknownNavigation(url, why),
      });
    } catch (error) {
      // No window, no session: the empty flow it would have filled is not left behind.
      rmSync(flowPath, { force: true });
      throw error;
    }
    return session;
  }

  /** The steps so far, in order. */
  get steps(): readonly CodegenStep[] {
    return [...this.#steps];
  }

  /** Resolves once the person closed the window (or `stop()` ended the session), the flow finished and, with `record`, recorded. */
  get done(): Promise<CodegenResult> {
    this.#ended ??= this.#finish();
    return this.#ended;
  }

  /** Ends the session now: closes the window, then finishes as `done` does. */
  async stop(): Promise<CodegenResult> {
    const ended = this.done;
    await this.#browser?.flush();
    await this.#browser?.close();
    return ended;
  }

  #write(): void {
    writeWhole(this.flowPath, renderFlow(this.#head, this.#steps));
  }

  #add(step: CodegenStep): void {
    appendStep(this.#steps, step);
    this.#write();
    const line = `${step.key === "assert" ? "assert: " : ""}${step.text}`;
    this.#options.log?.(`+ ${line}${step.todo !== undefined ? `  (TODO: ${step.todo})` : ""}`);
    this.#browser?.show(`+ ${line}`);
  }

  #onEvent(event: CodegenEvent): void {
    this.#add(stepFor(event, this.#ctx));
  }

  #onNavigate(nav: BrowserNavigation): void {
    this.#add(navigationStep(nav, this.#ctx));
  }

  /** A navigation that may have been the person's (address bar, reload) but got no step: they are told, then and at the end. */
  #onUnknownNavigation(url: string, why: string): void {
    const to = portableUrl(url, this.#ctx);
    const line = `no step for the navigation to ${to}: ${why}; if you did, add \`Go to ${to}\` (or \`Reload the page\`) there yourself`;
    this.#notWritten.push(line);
    this.#options.log?.(`! Not written: ${line}`);
    this.#browser?.show(`! Not written: the navigation to ${to}`);
  }

  get #variables(): { name: string; for: string }[] {
    return [
      { name: this.#ctx.appUrlVar, for: `the app's origin (${this.#ctx.origin})` },
      ...[...this.#ctx.secrets].map(([label, name]) => ({ name, for: `the "${label}" field` })),
    ];
  }

  async #finish(): Promise<CodegenResult> {
    const ended = this.#browser ? await this.#browser.closed : "the session never opened";
    await this.#browser?.close();
    this.#write();
    let recorded: CodegenResult["record"];
    if (this.#options.record && this.#steps.length > 0) recorded = await this.#record();
    return {
      flow_path: this.flowPath,
      steps: this.steps,
      variables: this.#variables,
      todos: this.#steps.filter((s) => s.todo !== undefined).length,
      not_written: [...this.#notWritten],
      ended,
      ...(recorded ? { record: recorded } : {}),
    };
  }

  /** Records the flow; the step it fails at gets a `# TODO` with the reason. */
  async #record(): Promise<NonNullable<CodegenResult["record"]>> {
    const base = this.#options.env ?? process.env;
    const env = { ...base, [this.#ctx.appUrlVar]: base[this.#ctx.appUrlVar] ?? this.#ctx.origin };
    const r = await recordCaptured(this.flowPath, this.#steps, env, this.#options.log, this.#options.lifecycle);
    if (r.flagged) this.#write();
    return r.record;
  }
}

/**
 * Records the flow at `flowPath` (whose steps are `steps`) through the normal `record`. The step it
 * fails at gets a `# TODO` with the reason, in `steps` (the caller rewrites the file: `flagged`).
 */
export async function recordCaptured(
  flowPath: string,
  steps: CodegenStep[],
  env: Readonly<Record<string, string | undefined>>,
  log?: (line: string) => void,
  lifecycle?: Lifecycle,
): Promise<{ record: NonNullable<CodegenResult["record"]>; flagged: boolean }> {
  try {
    const r = await record({ spec: flowPath, env, author: "rules", ...(log ? { log } : {}), ...(lifecycle ? { lifecycle } : {}) });
    let flagged = false;
    if (!r.ok) {
      const at = r.step_results.findIndex((s) => s.status === "failed");
      const step = steps[at];
      if (step) {
        steps[at] = { ...step, todo: `record could not perform this step: ${(r.step_results[at]?.detail ?? r.error ?? "it failed").split("\n")[0]}` };
        flagged = true;
      }
    }
    return { record: { ok: r.ok, trace_path: r.trace_path, ...(r.error !== undefined ? { error: r.error } : {}) }, flagged };
  } catch (error) {
    // The flow could not run at all (a variable unset, a step refused): the person fixes the file and records it.
    if (!(error instanceof FlowproofError)) throw error;
    return { record: { ok: false, trace_path: null, error: error.message }, flagged: false };
  }
}

/**
 * Runs a whole session: opens the window, writes steps as the person acts, and returns once the
 * window is closed or `signal` aborts (Ctrl-C); with `record`, the flow is then recorded.
 */
export async function codegen(options: CodegenOptions & { readonly signal?: AbortSignal }): Promise<CodegenResult> {
  const session = await CodegenSession.start(options);
  const onAbort = () => void session.stop();
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await session.done;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}
