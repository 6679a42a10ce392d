// The one error shape shared by spec loading, the grammar, the engine and the CLI.
// Leaf module: imports nothing else from src/.

/** A place in a flow file. `line` and `column` are 1-based; `column` counts UTF-16 units. */
export interface SourceSpan {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Length of the highlighted region in UTF-16 units (at least 1 when rendered). */
  readonly length: number;
  /** The authored source line (holds `${VAR}` references, never resolved values). */
  readonly lineText: string;
}

/** Stable, documented diagnostic codes (see docs/errors.md). */
export const DIAGNOSTIC_CODES = {
  "yaml-syntax": "The file is not valid YAML.",
  "yaml-comment": "YAML read part of a value as a comment (` #…` after unquoted text): quote the value.",
  "unknown-key": "A mapping has a key flowproof does not know.",
  "missing-key": "A required key is absent.",
  "bad-value": "A key has a value of the wrong type or shape.",
  "unknown-step": "A step's text matches no form of the rules grammar.",
  "refused-step": "A step's text is a form the grammar refuses on purpose.",
  "unsupported-step": "A step parses but cannot run on this app kind or in this version.",
  "unsupported-feature": "A key or form of the flow format that this version of flowproof does not run yet.",
  "bad-reference": "A ${...} reference is malformed or used where it is not allowed.",
  "unverified-drag": "A Drag step is not immediately followed by an assertion step.",
  "unresolved-reference": "A ${VAR} or ${captured.name} reference has no value at execution.",
  "missing-trace": "The flow has no recorded trace to replay.",
  "bad-trace":
    "A trace file is malformed, does not match the trace format, is not whole (cut short, edited, no steps, no flow named), or was recorded from another flow or app.",
  "trace-version": "A trace was written by a newer flowproof than this one.",
  "unsealed-trace":
    "A trace has no whole-trace seal (written by an older flowproof, or its `integrity` removed): replayed only with --allow-unsealed or FLOWPROOF_ALLOW_UNSEALED=1.",
  "trace-signature":
    "FLOWPROOF_TRACE_KEY is set and a trace is unsigned or its signature does not match (edited after signing, or another key); or the key itself is unusable.",
  "no-browser": "No browser (Chromium, or Firefox for a flow that runs in it) could be found or started.",
  "browser-error": "The browser or the DevTools connection failed.",
  "adapter-unavailable": "An app adapter (a built-in or a project's plugin) could not open on this machine; the message names the adapter and why.",
  "driver-error":
    "An app's driver, or a process it runs for the flow (an agent's MCP server), failed or stopped answering outside a step's own check: a frame capture or a redaction query that never came back, an MCP server that exited.",
  interrupted: "The run was stopped (SIGINT, SIGTERM or SIGHUP) before this work could start or finish.",
  "step-failed": "A step did not complete or an assertion did not hold.",
  usage: "The command line is malformed.",
  "io-error": "A file could not be read or written; a run whose evidence could not be written whole is errored in every file that was written.",
  "plugin-error": "A plugin could not be loaded or returned a malformed answer.",
  "model-config": "The authoring model's provider is configured incompletely or contradictorily (FLOWPROOF_AI_*).",
  "model-error": "The authoring model's provider failed: unreachable, timed out, or answered with an error.",
  "needs-clarification": "A plain step is too ambiguous to author; the clarification lists what is needed.",
  "unsupported-platform":
    "The flow's app kind or the command needs another operating system (SAP GUI and Windows apps need Windows; a vision app needs an X11 display or Windows).",
  "sap-error": "SAP GUI could not be reached or refused the session: not running, scripting disabled, unknown connection, or a refused login.",
  "sap-call": "A SAP GUI Scripting call failed: SAP's own message for it, or a member the control does not have.",
  "com-error":
    "A Windows COM call failed; the message names the call and its HRESULT (a class that is not registered, an interface the object lacks, a server that went away).",
  "credential-store":
    "The OS credential store could not read, write or delete the credentials flowproof keeps there: the Windows Credential Manager (the message names the call and its Win32 error), or the Linux kernel keyring (no `keyctl` program: `apt-get install keyutils`; or keyctl's own refusal).",
  "app-launch": "A desktop program could not be started, ended before its window appeared, or its window (awaited by title) never appeared.",
  "no-ocr-model":
    "The OCR model a surface that reads pixels needs (tesseract's English model) was found in none of the places flowproof looks; the message lists each place.",
  "document-unreadable": "`author-from-doc` cannot read the document: a format it does not read, or a damaged file.",
  "document-no-steps": "`author-from-doc` found no test steps in the document, or none of them can become a step of a flow.",
  "listen-failed": "`capture` could not listen on the address and port it was given.",
  "outside-root":
    "A path or `file:` URL a flow reads or writes lies outside the root (`--root`, or the MCP server's root), or a symlink inside it leads out; the message names the path and the root.",
  "hooks-off":
    "A flow's suite.yaml would run a shell command (`env_from`, `before_each`, `after_each`, `server.command`) through an MCP server started with `--no-hooks`; nothing ran, and the message names the key and the command.",
  "limit-exceeded":
    'An input is larger than a documented limit (docs/flow-format.md, "Limits"): the message names the limit and, where one does, the variable that raises it.',
} as const;

/**
 * A code a plugin declares for its own errors (an adapter's `errors`), namespaced by its kind:
 * `inventory/not-signed-on`. Documented by the plugin; the core accepts only declared ones.
 */
export type PluginErrorCode = `${string}/${string}`;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES | PluginErrorCode;

export interface DiagnosticNote {
  readonly message: string;
  readonly span?: SourceSpan;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  /** One sentence: what is wrong. */
  readonly message: string;
  readonly span?: SourceSpan;
  /** What to write or do instead. */
  readonly hint?: string;
  readonly notes?: readonly DiagnosticNote[];
}

/** Base of every error flowproof throws on purpose; carries one or more diagnostics. */
export class FlowproofError extends Error {
  readonly code: DiagnosticCode;
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: Diagnostic | readonly Diagnostic[], options?: { cause?: unknown }) {
    const list: readonly Diagnostic[] = Array.isArray(diagnostics) ? diagnostics : [diagnostics as Diagnostic];
    const first = list[0];
    super(first ? first.message : "unknown error", options);
    this.name = new.target.name;
    this.code = first ? first.code : "io-error";
    this.diagnostics = list;
  }
}

/** A flow or suite file failed to load or validate. */
export class SpecError extends FlowproofError {}
/** A trace is malformed, missing or of an unsupported version. */
export class TraceError extends FlowproofError {}
/** A CDP call failed; `method` names the protocol method. */
export class ProtocolError extends FlowproofError {
  readonly method: string;
  constructor(method: string, message: string, options?: { cause?: unknown }) {
    super({ code: "browser-error", message: `${method}: ${message}` }, options);
    this.method = method;
  }
}
/** A plugin could not be loaded or answered out of contract. */
export class PluginError extends FlowproofError {}

/**
 * The diagnostics of anything thrown: a FlowproofError's own, anything else one `io-error` with
 * its message. The one conversion the CLI, the MCP server and the library use.
 */
export function diagnosticsOf(error: unknown): readonly Diagnostic[] {
  if (error instanceof FlowproofError) return error.diagnostics;
  return [{ code: "io-error", message: error instanceof Error ? error.message : String(error) }];
}

/** Convenience constructor that omits undefined optional fields (exactOptionalPropertyTypes). */
export function diagnostic(
  code: DiagnosticCode,
  message: string,
  extra: { span?: SourceSpan | undefined; hint?: string | undefined; notes?: readonly DiagnosticNote[] | undefined } = {},
): Diagnostic {
  return {
    code,
    message,
    ...(extra.span ? { span: extra.span } : {}),
    ...(extra.hint ? { hint: extra.hint } : {}),
    ...(extra.notes && extra.notes.length > 0 ? { notes: extra.notes } : {}),
  };
}
