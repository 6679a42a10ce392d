// The only reader of trace files: parses JSON lines, validates each against the v1 schema,
// refuses other formats and newer versions with a TraceError naming file:line.
import { readFileSync, existsSync } from "node:fs";
import Ajv from "ajv";
import { TraceHeader, TraceStep, TRACE_FORMAT, TRACE_VERSION, type TraceHeader as Header, type TraceStep as Step } from "./schema.ts";
import { TraceError, diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";

export interface Trace {
  readonly path: string;
  readonly header: Header;
  readonly steps: readonly Step[];
}

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const validateHeader = ajv.compile(TraceHeader);
const validateStep = ajv.compile(TraceStep);

function spanAt(file: string, line: number, lineText: string) {
  return { file, line, column: 1, length: Math.max(1, Math.min(lineText.length, 80)), lineText: lineText.slice(0, 200) };
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
      problems.push(diagnostic("bad-trace", `line ${line} is not valid JSON (${(error as Error).message})`, {
        span: spanAt(file, line, lineText),
        hint: "re-record the flow with `flowproof record <flow.yaml>`; traces are written by flowproof, not by hand",
      }));
      // The first non-empty line is the header slot even when it is broken.
      header ??= {} as Header;
      return;
    }
    if (header === undefined) {
      const obj = (value ?? {}) as Record<string, unknown>;
      if (obj["format"] !== TRACE_FORMAT) {
        problems.push(diagnostic("bad-trace", `the first line is not a flowproof trace header (format is ${JSON.stringify(obj["format"])}, expected "${TRACE_FORMAT}")`, {
          span: spanAt(file, line, lineText),
          hint: "pass the .trace.jsonl written by `flowproof record`, or re-record the flow",
        }));
        header = {} as Header;
        return;
      }
      if (typeof obj["version"] === "number" && obj["version"] > TRACE_VERSION) {
        throw new TraceError(diagnostic("trace-version", `trace version ${obj["version"]} is newer than this flowproof supports (version ${TRACE_VERSION})`, {
          span: spanAt(file, line, lineText),
          hint: "upgrade flowproof to the version that recorded this trace",
        }));
      }
      if (!validateHeader(value)) {
        problems.push(diagnostic("bad-trace", `the trace header does not match trace format v${TRACE_VERSION}: ${ajv.errorsText(validateHeader.errors)}`, {
          span: spanAt(file, line, lineText),
          hint: "re-record the flow with `flowproof record <flow.yaml>`",
        }));
      }
      header = value as Header;
      return;
    }
    if (!validateStep(value)) {
      problems.push(diagnostic("bad-trace", `step line ${line} does not match trace format v${TRACE_VERSION}: ${ajv.errorsText(validateStep.errors)}`, {
        span: spanAt(file, line, lineText),
        hint: "re-record the flow with `flowproof record <flow.yaml>`",
      }));
      return;
    }
    steps.push(value as Step);
  });
  if (header === undefined) {
    problems.push(diagnostic("bad-trace", "the trace is empty", { hint: "re-record the flow with `flowproof record <flow.yaml>`" }));
  }
  if (problems.length > 0) throw new TraceError(problems);
  return { path: file, header: header as Header, steps };
}

/** Reads and validates a trace file; `label` is how the path appears in messages (default: `path`). */
export function readTraceFile(path: string, specHint?: string, label: string = path): Trace {
  if (!existsSync(path)) {
    throw new TraceError(diagnostic("missing-trace", `no trace at ${label}`, {
      hint: specHint ? `record it first: flowproof record ${specHint}` : "record the flow first with `flowproof record <flow.yaml>`",
    }));
  }
  return { ...parseTrace(readFileSync(path, "utf8"), label), path };
}
