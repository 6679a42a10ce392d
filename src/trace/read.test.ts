import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TraceError } from "../diagnostics/diagnostic.ts";
import { parseTrace, readTraceFile } from "./read.ts";
import type { TraceHeader, TraceStep } from "./schema.ts";
import { serializeTrace } from "./write.ts";
import { sealOf, stepLines } from "./seal.ts";
import { createHash } from "node:crypto";

const HEADER: TraceHeader = {
  format: "flowproof-trace",
  version: 1,
  trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
  recorded_at: "2025-01-02T03:04:05.678Z",
  app: { name: "Demo", adapter: "web", url: "http://127.0.0.1:3000/" },
  env: { os: "linux", resolution: [1280, 800] },
  spec: { name: "Demo", path: "demo.flow.yaml", hash: `sha256:${"a".repeat(64)}` },
};

const step = (n: number, extra: Partial<TraceStep> = {}): TraceStep => ({
  id: `s${String(n).padStart(4, "0")}`,
  intent: `Click "B${n}"`,
  action: { type: "click", params: {} },
  selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: `B${n}` } }],
  sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: 5000 }], post: [] },
  artifacts: {},
  ...extra,
});

const headerLine = JSON.stringify(HEADER);
const stepLine = (n: number) => JSON.stringify(step(n));

/** The TraceError a call throws; fails the test when it does not throw one. */
function traceError(run: () => unknown): TraceError {
  try {
    run();
  } catch (error) {
    if (error instanceof TraceError) return error;
    throw error;
  }
  throw new Error("expected a TraceError");
}

describe("parseTrace", () => {
  test("reads back what serializeTrace wrote", () => {
    const steps = [step(1), step(2, { action: { type: "type_text", params: { text: "Ada", replace: true } } })];
    const trace = parseTrace(serializeTrace(HEADER, steps), "a.trace.jsonl");
    expect(trace).toEqual({ path: "a.trace.jsonl", header: { ...HEADER, integrity: sealOf(HEADER, steps) }, steps });
  });

  test("skips blank lines, including a missing final newline", () => {
    const trace = parseTrace(`${headerLine}\n\n${stepLine(1)}\n   \n${stepLine(2)}`, "a.trace.jsonl");
    expect(trace.steps.map((s) => s.id)).toEqual(["s0001", "s0002"]);
  });

  test("reports a line that is not JSON as bad-trace with its line number", () => {
    const e = traceError(() => parseTrace(`${headerLine}\n${stepLine(1)}\n{not json\n`, "a.trace.jsonl"));
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics).toHaveLength(1);
    expect(e.diagnostics[0]!.message).toStartWith("line 3 is not valid JSON");
    expect(e.diagnostics[0]!.span).toMatchObject({ file: "a.trace.jsonl", line: 3, column: 1, lineText: "{not json" });
    expect(e.diagnostics[0]!.hint).toContain("flowproof record");
  });

  test("counts blank lines when numbering a bad line", () => {
    const e = traceError(() => parseTrace(`${headerLine}\n\n\nnope\n`, "t.jsonl"));
    expect(e.diagnostics[0]!.span?.line).toBe(4);
  });

  test("refuses a first line of another format", () => {
    const e = traceError(() => parseTrace(`${JSON.stringify({ format: "har", version: 1 })}\n`, "x.jsonl"));
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics[0]!.message).toContain('format is "har", expected "flowproof-trace"');
    expect(e.diagnostics[0]!.span?.line).toBe(1);
  });

  test("refuses a newer version with trace-version naming both versions", () => {
    const e = traceError(() => parseTrace(`${JSON.stringify({ ...HEADER, version: 2 })}\n${stepLine(1)}\n`, "a.trace.jsonl"));
    expect(e.code).toBe("trace-version");
    expect(e.diagnostics).toHaveLength(1);
    expect(e.diagnostics[0]!.message).toBe("trace version 2 is newer than this flowproof supports (version 1)");
    expect(e.diagnostics[0]!.hint).toContain("upgrade flowproof");
  });

  test("refuses a header that does not match the schema", () => {
    const { env: _env, ...noEnv } = HEADER;
    const e = traceError(() => parseTrace(`${JSON.stringify(noEnv)}\n`, "a.trace.jsonl"));
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics[0]!.message).toContain("env");
  });

  test("refuses a step without selectors, naming its line", () => {
    const { selectors: _s, ...noSelectors } = step(1);
    const e = traceError(() => parseTrace(`${headerLine}\n${JSON.stringify(noSelectors)}\n`, "a.trace.jsonl"));
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics[0]!.message).toStartWith("step line 2 does not match trace format v1");
    expect(e.diagnostics[0]!.message).toContain("selectors");
    expect(e.diagnostics[0]!.span?.line).toBe(2);
  });

  test("refuses a bound a timer cannot hold, naming its line", () => {
    const within = {
      ...step(1),
      action: {
        type: "assert",
        params: { kind: "element_state", expect: { scope: "surface", value_contains: "Finished", timeout_ms: 2_200_000_000 }, selector_ref: null },
      },
      selectors: [],
      sync: { pre: [], post: [] },
    };
    const pre = step(2, { sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: 86_400_001 }], post: [] } });
    const e = traceError(() => parseTrace(`${headerLine}\n${JSON.stringify(within)}\n${JSON.stringify(pre)}\n`, "a.trace.jsonl"));
    expect(e.diagnostics.map((d) => d.span?.line)).toEqual([2, 3]);
    expect(e.diagnostics[0]!.message).toContain("timeout_ms");
    const ok = {
      ...within,
      action: { ...within.action, params: { ...within.action.params, expect: { ...within.action.params.expect, timeout_ms: 86_400_000 } } },
    };
    expect(parseTrace(`${headerLine}\n${JSON.stringify(ok)}\n`, "a.trace.jsonl").steps).toHaveLength(1);
  });

  test("refuses a text_anchor rung whose text is not a string, naming the rung, the key and the tier's shape", () => {
    const bad = { ...step(1), selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: 42 } }] };
    const e = traceError(() => parseTrace(`${headerLine}\n${JSON.stringify(bad)}\n`, "a.trace.jsonl"));
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics[0]!.message).toBe(
      "step line 2: selector 1 (text_anchor) has text 42 (number), not a string; a text_anchor payload is {text, box?, window?, field_box?}",
    );
  });

  test("refuses a drag whose drop target's rung is of no shape of its tier", () => {
    const bad = { ...step(1), action: { type: "drag", params: { onto: [{ tier: "native_id", provenance: "rules", payload: { css: ["#bin"] } }] } } };
    const e = traceError(() => parseTrace(`${headerLine}\n${JSON.stringify(bad)}\n`, "a.trace.jsonl"));
    expect(e.diagnostics[0]!.message).toStartWith(
      'step line 2: drop-target selector 1 (native_id) has css ["#bin"] (a list), not a string; a native_id payload is {css} | {id, name?} | {automation_id, name?}',
    );
  });

  test("refuses an agent step of an unknown kind, naming the step and the kinds", () => {
    const agentRun = {
      ...step(1),
      selectors: [],
      sync: { pre: [], post: [] },
      action: {
        type: "agent_run",
        params: {
          agent: { command: "node agent.js" },
          steps: [
            { kind: "prompt", text: "Hi" },
            { kind: "whisper", text: "psst" },
          ],
          timeout_ms: 300_000,
        },
      },
    };
    const e = traceError(() => parseTrace(`${headerLine}\n${JSON.stringify(agentRun)}\n`, "a.trace.jsonl"));
    expect(e.diagnostics[0]!.message).toBe(
      'step line 2: agent step 2 of 2 has kind "whisper"; expected "prompt", "follow_up", "tool_call", "reply", "no_egress"',
    );
    const sound = { ...agentRun, action: { ...agentRun.action, params: { ...agentRun.action.params, steps: [{ kind: "prompt", text: "Hi" }] } } };
    expect(parseTrace(`${headerLine}\n${JSON.stringify(sound)}\n`, "a.trace.jsonl").steps).toHaveLength(1);
  });

  test("refuses an unknown action type", () => {
    const bad = { ...step(1), action: { type: "teleport", params: {} } };
    const e = traceError(() => parseTrace(`${headerLine}\n${JSON.stringify(bad)}\n`, "a.trace.jsonl"));
    expect(e.code).toBe("bad-trace");
  });

  test("collects every problem of the file", () => {
    const { selectors: _s, ...noSelectors } = step(2);
    const text = [headerLine, "{oops", JSON.stringify(noSelectors), stepLine(3), JSON.stringify({ ...step(4), id: "step4" }), ""].join("\n");
    const e = traceError(() => parseTrace(text, "a.trace.jsonl"));
    expect(e.diagnostics.map((d) => [d.code, d.span?.line])).toEqual([
      ["bad-trace", 2],
      ["bad-trace", 3],
      ["bad-trace", 5],
    ]);
  });

  test.each(["", "\n\n", "   \n"])("refuses an empty trace %p", (text) => {
    const e = traceError(() => parseTrace(text, "a.trace.jsonl"));
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics[0]!.message).toBe("the trace is empty");
  });

  test("keeps a very long bad line out of the span's text", () => {
    const long = `{${"x".repeat(500)}`;
    const e = traceError(() => parseTrace(`${headerLine}\n${long}\n`, "a.trace.jsonl"));
    expect(e.diagnostics[0]!.span!.lineText.length).toBeLessThanOrEqual(200);
  });
});

describe("a trace that is not whole", () => {
  const sealed = serializeTrace(HEADER, [step(1), step(2), step(3)])
    .trim()
    .split("\n");

  test.each([
    ["its last step dropped", () => sealed.slice(0, 3).join("\n"), "the trace holds 2 steps where its header says 3: it was cut short or edited"],
    ["only one step kept", () => sealed.slice(0, 2).join("\n"), "the trace holds 1 step where its header says 3: it was cut short or edited"],
    [
      "a step edited",
      () => sealed.map((l, i) => (i === 2 ? l.replace('"B2"', '"B9"') : l)).join("\n"),
      "the trace is not the one it was recorded with (its SHA-256 differs from its seal's): its header or steps were edited, or it was damaged",
    ],
    [
      "its header's app edited",
      () => sealed.map((l, i) => (i === 0 ? l.replace("127.0.0.1:3000", "127.0.0.1:4000") : l)).join("\n"),
      "the trace is not the one it was recorded with (its SHA-256 differs from its seal's): its header or steps were edited, or it was damaged",
    ],
    [
      "an older steps-only seal over an edited step",
      () => [JSON.stringify({ ...HEADER, integrity: { steps: 1, sha256: createHash("sha256").update(stepLine(1)).digest("hex") } }), stepLine(2)].join("\n"),
      "the trace's steps are not the ones it was recorded with (their SHA-256 differs from the header's): it was edited or damaged",
    ],
    ["only the header", () => sealed[0]!, "the trace has a header and no steps: it was cut short"],
    ["an unsealed header and no steps", () => headerLine, "the trace has a header and no steps: it was cut short"],
    [
      "a sealed trace without its flow's hash",
      () => serializeTrace({ ...HEADER, spec: { name: "Demo" } }, [step(1)]).trim(),
      "the trace header has no `spec.hash`, so nothing can tell whether its flow changed since it was recorded",
    ],
    [
      "no flow named",
      () => `${JSON.stringify({ ...HEADER, spec: undefined })}\n${stepLine(1)}`,
      "the trace header names no flow (`spec` is missing), so nothing can tell which flow it replays",
    ],
  ])("is refused as bad-trace: %s", (_name, text, message) => {
    const e = traceError(() => parseTrace(text(), "a.trace.jsonl"));
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics.map((d) => d.message)).toEqual([message]);
    expect(e.diagnostics[0]!.span).toMatchObject({ file: "a.trace.jsonl", line: 1 });
    expect(e.diagnostics[0]!.hint).toContain("flowproof record");
  });

  test("the seal ignores how a line is spaced or its keys ordered, not what it says", () => {
    const respaced = sealed.map((l, i) => (i === 0 ? l : JSON.stringify(JSON.parse(l), null, 0).replace(/,"/g, ', "'))).join("\n");
    expect(parseTrace(respaced, "a.trace.jsonl").steps).toHaveLength(3);
  });

  test("a trace written before traces were sealed, or sealed by an older flowproof over its steps, parses (its seal policy decides whether it replays)", () => {
    expect(parseTrace(`${headerLine}\n${stepLine(1)}\n${stepLine(2)}`, "a.trace.jsonl").steps).toHaveLength(2);
    const older = {
      ...HEADER,
      integrity: {
        steps: 2,
        sha256: createHash("sha256")
          .update(stepLines([step(1), step(2)]).join("\n"))
          .digest("hex"),
      },
    };
    expect(parseTrace(`${JSON.stringify(older)}\n${stepLine(1)}\n${stepLine(2)}`, "a.trace.jsonl").steps).toHaveLength(2);
  });
});

describe("readTraceFile", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("reads a trace file from disk", () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-read-"));
    const path = join(dir, "a.trace.jsonl");
    writeFileSync(path, serializeTrace(HEADER, [step(1)]));
    const trace = readTraceFile(path);
    expect(trace.path).toBe(path);
    expect(trace.steps).toEqual([step(1)]);
  });

  test("names the file in a bad trace's span", () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-read-"));
    const path = join(dir, "a.trace.jsonl");
    writeFileSync(path, `${headerLine}\nnope\n`);
    expect(traceError(() => readTraceFile(path)).diagnostics[0]!.span?.file).toBe(path);
  });

  test("shows the label instead of the path in messages but keeps the real path", () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-read-"));
    const path = join(dir, "a.trace.jsonl");
    writeFileSync(path, serializeTrace(HEADER, [step(1)]));
    expect(readTraceFile(path, "a.flow.yaml", "a.trace.jsonl").path).toBe(path);
    writeFileSync(path, `${headerLine}\nnope\n`);
    expect(traceError(() => readTraceFile(path, "a.flow.yaml", "a.trace.jsonl")).diagnostics[0]!.span?.file).toBe("a.trace.jsonl");
    expect(traceError(() => readTraceFile(join(dir, "gone.jsonl"), "a.flow.yaml", "gone.jsonl")).message).toBe("no trace at gone.jsonl");
  });

  test("with a seal policy, refuses an unsealed trace unless the policy allows it", () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-read-"));
    const path = join(dir, "a.trace.jsonl");
    writeFileSync(path, `${headerLine}\n${stepLine(1)}\n`);
    expect(readTraceFile(path).steps).toHaveLength(1);
    expect(traceError(() => readTraceFile(path, "a.flow.yaml", "a.trace.jsonl", { allowUnsealed: false })).code).toBe("unsealed-trace");
    expect(readTraceFile(path, "a.flow.yaml", "a.trace.jsonl", { allowUnsealed: true }).steps).toHaveLength(1);
    writeFileSync(path, serializeTrace(HEADER, [step(1)], "k".repeat(20)));
    expect(readTraceFile(path, "a.flow.yaml", "a.trace.jsonl", { allowUnsealed: false }).warnings).toEqual([
      "a.trace.jsonl is signed, but FLOWPROOF_TRACE_KEY is not set, so its signature was not verified (set FLOWPROOF_TRACE_KEY to verify it)",
    ]);
  });

  test("reports a missing file as missing-trace with a flowproof record hint", () => {
    const e = traceError(() => readTraceFile("/nonexistent/flowproof/a.trace.jsonl", "a.flow.yaml"));
    expect(e.code).toBe("missing-trace");
    expect(e.message).toBe("no trace at /nonexistent/flowproof/a.trace.jsonl");
    expect(e.diagnostics[0]!.hint).toBe("record it first: flowproof record a.flow.yaml");
  });

  test("gives a generic record hint when it does not know the flow", () => {
    const e = traceError(() => readTraceFile("/nonexistent/flowproof/a.trace.jsonl"));
    expect(e.diagnostics[0]!.hint).toContain("flowproof record <flow.yaml>");
  });
});

describe("parseTrace with a broken first line", () => {
  test("blames line 1 only and does not take the next line for the header", () => {
    try {
      parseTrace('{oops\n{"id":"s0001"}\n', "t.jsonl");
      throw new Error("expected a TraceError");
    } catch (error) {
      const d = (error as TraceError).diagnostics;
      expect(d.map((x) => x.span?.line)).toEqual([1, 2]);
      expect(d[0]!.message).toContain("line 1 is not valid JSON");
      expect(d.some((x) => x.message.includes("first line is not a flowproof trace header"))).toBe(false);
    }
  });
});
