// The only reader of trace files: parses JSON lines, validates each against the v1 schema,
// refuses other formats and newer versions with a TraceError naming file:line, and refuses a
// trace that is not whole (no steps, no flow named, a text that does not match its seal). Given a
// seal policy (every replaying command gives one), it also refuses an unsealed trace unless the
// policy allows it, and checks the signature when FLOWPROOF_TRACE_KEY is set (seal.ts).
import { readFileSync, existsSync } from "node:fs";
import type { ErrorObject } from "ajv";
import { AGENT_PROTOCOLS, TRACE_FORMAT, TRACE_VERSION, type TraceHeader as Header, type TraceStep as Step } from "./schema.ts";
import { TraceError, diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { checkSeal, sealProblem, type SealPolicy } from "./seal.ts";
import { selectorProblem } from "./selector.ts";
import { agentRunProblem } from "./agent-params.ts";
// Compiled ahead of time from the schema in ./schema.ts by `bun run gen`: compiling the large step
// schema at run time would cost every replaying command a noticeable share of its start-up.
import { validateHeader, validateStep } from "./validators.generated.js";

export interface Trace {
  readonly path: string;
  readonly header: Header;
  readonly steps: readonly Step[];
  /** What the seal policy noticed without refusing (a signed trace replayed without the key). */
  readonly warnings?: readonly string[];
}

/** Every schema error of a line, as one sentence: `data/path message, …`. */
function errorsText(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "No errors";
  return errors.map((e) => `data${e.instancePath} ${e.message ?? "is invalid"}`).join(", ");
}

function spanAt(file: string, line: number, lineText: string) {
  return { file, line, column: 1, length: Math.max(1, Math.min(lineText.length, 80)), lineText: lineText.slice(0, 200) };
}

/** What is wrong with an `agent_run` step's cassette, naming the turn; undefined for other steps or a sound cassette. */
function cassetteProblemOf(step: unknown): string | undefined {
  const action = (step as { action?: { type?: unknown; params?: Record<string, unknown> } } | null)?.action;
  if (action?.type !== "agent_run" || action.params?.["cassette"] === undefined) return undefined;
  const cassette = action.params["cassette"];
  if (!Array.isArray(cassette)) return "the agent cassette is not a list of turns";
  for (const [i, turn] of cassette.entries()) {
    const t = turn as Record<string, unknown> | null;
    const at = `cassette turn ${i + 1} of ${cassette.length}`;
    if (t === null || typeof t !== "object" || Array.isArray(t)) return `${at} is not an object {protocol, request, response}`;
    if (!(AGENT_PROTOCOLS as readonly unknown[]).includes(t["protocol"]))
      return `${at} has protocol ${JSON.stringify(t["protocol"])}; expected ${AGENT_PROTOCOLS.map((p) => JSON.stringify(p)).join(", ")}`;
    for (const key of ["request", "response"]) {
      if (t[key] === null || typeof t[key] !== "object" || Array.isArray(t[key]))
        return `${at} has ${t[key] === undefined ? "no" : "a non-object"} \`${key}\`; expected the JSON body as an object`;
    }
    if (t["status"] !== undefined && !(Number.isInteger(t["status"]) && (t["status"] as number) >= 100 && (t["status"] as number) <= 599))
      return `${at} has status ${JSON.stringify(t["status"])}; expected an HTTP status from 100 to 599`;
  }
  return undefined;
}

/** What is wrong with a step's selector rungs (its target's, a drag's drop target's) or its agent_run params, in one sentence; undefined when they are sound. */
function shapeProblemOf(step: unknown): string | undefined {
  const s = (step ?? {}) as { selectors?: unknown; action?: { type?: unknown; params?: { onto?: unknown } } };
  const ladders: [string, unknown][] = [
    ["selector", s.selectors],
    ["drop-target selector", s.action?.params?.onto],
  ];
  for (const [what, ladder] of ladders) {
    if (!Array.isArray(ladder)) continue;
    for (const [i, rung] of ladder.entries()) {
      const problem = selectorProblem(rung, `${what} ${i + 1}`);
      if (problem) return problem;
    }
  }
  return s.action?.type === "agent_run" ? agentRunProblem(s.action.params) : undefined;
}

/** Parses trace text; `file` is used for diagnostics only. Throws TraceError listing every problem. */
export function parseTrace(text: string, file: string): Trace {
  const rawLines = text.split("\n");
  const problems: Diagnostic[] = [];
  let header: Header | undefined;
  const steps: Step[] = [];
  rawLines.forEach((lineText, i) => {
    if (lineText.trim() === "") return;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (error) {
      problems.push(
        diagnostic("bad-trace", `line ${line} is not valid JSON (${(error as Error).message})`, {
          span: spanAt(file, line, lineText),
          hint: "re-record the flow with `flowproof record <flow.yaml>`; traces are written by flowproof, not by hand",
        }),
      );
      // The first non-empty line is the header slot even when it is broken.
      header ??= {} as Header;
      return;
    }
    if (header === undefined) {
      const obj = (value ?? {}) as Record<string, unknown>;
      if (obj["format"] !== TRACE_FORMAT) {
        problems.push(
          diagnostic("bad-trace", `the first line is not a flowproof trace header (format is ${JSON.stringify(obj["format"])}, expected "${TRACE_FORMAT}")`, {
            span: spanAt(file, line, lineText),
            hint: "pass the .trace.jsonl written by `flowproof record`, or re-record the flow",
          }),
        );
        header = {} as Header;
        return;
      }
      if (typeof obj["version"] === "number" && obj["version"] > TRACE_VERSION) {
        throw new TraceError(
          diagnostic("trace-version", `trace version ${obj["version"]} is newer than this flowproof supports (version ${TRACE_VERSION})`, {
            span: spanAt(file, line, lineText),
            hint: "upgrade flowproof to the version that recorded this trace",
          }),
        );
      }
      if (!validateHeader(value)) {
        problems.push(
          diagnostic("bad-trace", `the trace header does not match trace format v${TRACE_VERSION}: ${errorsText(validateHeader.errors)}`, {
            span: spanAt(file, line, lineText),
            hint: "re-record the flow with `flowproof record <flow.yaml>`",
          }),
        );
      }
      header = value as Header;
      return;
    }
    const cassette = cassetteProblemOf(value);
    if (cassette) {
      problems.push(
        diagnostic("bad-trace", `step line ${line}: ${cassette}`, {
          span: spanAt(file, line, lineText),
          hint: "a cassette is written by `flowproof record`: undo the hand edit, or re-record the flow",
        }),
      );
      return;
    }
    if (!validateStep(value)) {
      // A rung or an agent step that is off names itself; anything else lists the schema's errors.
      const named = shapeProblemOf(value);
      problems.push(
        diagnostic(
          "bad-trace",
          named ? `step line ${line}: ${named}` : `step line ${line} does not match trace format v${TRACE_VERSION}: ${errorsText(validateStep.errors)}`,
          {
            span: spanAt(file, line, lineText),
            hint: "re-record the flow with `flowproof record <flow.yaml>`",
          },
        ),
      );
      return;
    }
    steps.push(value as Step);
  });
  if (header === undefined) {
    problems.push(diagnostic("bad-trace", "the trace is empty", { hint: "re-record the flow with `flowproof record <flow.yaml>`" }));
  }
  if (problems.length > 0) throw new TraceError(problems);
  const whole = wholenessProblem(header as Header, steps);
  if (whole)
    throw new TraceError(
      diagnostic("bad-trace", whole, {
        span: spanAt(file, 1, rawLines.find((l) => l.trim() !== "") ?? ""),
        hint: "re-record the flow with `flowproof record <flow.yaml>` (or `flowproof heal` to review what changed); a trace is written whole by flowproof, never cut or edited by hand",
      }),
    );
  return { path: file, header: header as Header, steps };
}

/** Why a well-formed trace is not whole: no steps, no flow named, or a text that is not the one it was sealed with. */
function wholenessProblem(header: Header, steps: readonly Step[]): string | undefined {
  if (steps.length === 0) return "the trace has a header and no steps: it was cut short";
  if (header.spec === undefined) return "the trace header names no flow (`spec` is missing), so nothing can tell which flow it replays";
  // Every sealed trace records its flow's hash: without it, a flow edited since could not be told from the one recorded.
  if (header.integrity?.scope === "trace" && header.spec.hash === undefined)
    return "the trace header has no `spec.hash`, so nothing can tell whether its flow changed since it was recorded";
  return sealProblem(header, steps);
}

/**
 * Reads and validates a trace file; `label` is how the path appears in messages (default: `path`).
 * With `policy`, the trace's seal is judged too (an unsealed trace refused unless allowed, the
 * signature verified when a key is set); without one, it is read as it is (to show it).
 */
export function readTraceFile(path: string, specHint?: string, label: string = path, policy?: SealPolicy): Trace {
  if (!existsSync(path)) {
    throw new TraceError(
      diagnostic("missing-trace", `no trace at ${label}`, {
        hint: specHint ? `record it first: flowproof record ${specHint}` : "record the flow first with `flowproof record <flow.yaml>`",
      }),
    );
  }
  const trace = { ...parseTrace(readFileSync(path, "utf8"), label), path };
  if (!policy) return trace;
  const warnings = checkSeal(trace.header, trace.steps, policy, label, specHint);
  return warnings.length > 0 ? { ...trace, warnings } : trace;
}
