import { expect, test } from "bun:test";
import { parseTrace, resealed } from "./trace.ts";
import { parseTrace as readTraceText } from "../../src/trace/read.ts";
import { serializeTrace } from "../../src/trace/write.ts";

test("the first line is the header, every further non-empty line a step", () => {
  const t = parseTrace<{ version: number }, { id: string }>('{"version":1}\n{"id":"s0001"}\n\n{"id":"s0002"}\n');
  expect(t.header.version).toBe(1);
  expect(t.steps.map((s) => s.id)).toEqual(["s0001", "s0002"]);
});

test("an empty trace is an error, not an empty header", () => {
  expect(() => parseTrace("\n")).toThrow("an empty trace");
});

test("an edited trace sealed again reads as whole; the edit alone does not", () => {
  const header = {
    format: "flowproof-trace",
    version: 1,
    trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
    recorded_at: "2025-01-02T03:04:05.678Z",
    app: { name: "web", adapter: "web" },
    env: { os: "linux", resolution: [1280, 800] },
    spec: { name: "Demo", hash: `sha256:${"a".repeat(64)}` },
  } as const;
  const step = {
    id: "s0001",
    intent: 'Click "Save"',
    action: { type: "click", params: {} },
    selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Save" } }],
    sync: { pre: [], post: [] },
    artifacts: {},
  } as const;
  const edited = serializeTrace(structuredClone(header) as never, [structuredClone(step) as never]).replace('"Save"', '"Store"');
  expect(() => readTraceText(edited, "t.trace.jsonl")).toThrow("its header or steps were edited");
  expect(readTraceText(resealed(edited), "t.trace.jsonl").steps[0]!.selectors[0]!.payload).toEqual({ text: "Store" });
});
