import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { TraceError } from "../diagnostics/diagnostic.ts";
import type { TraceHeader, TraceStep } from "../trace/schema.ts";
import { sealKind } from "../trace/seal.ts";
import { serializeTrace } from "../trace/write.ts";
import { loadFlowFile } from "./flow-load.ts";
import { targetOfFlow } from "./execution.ts";
import { resealTrace } from "./reseal.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const STEP: TraceStep = {
  id: "s0001",
  intent: 'Click "Go"',
  action: { type: "click", params: {} },
  selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Go" } }],
  sync: { pre: [], post: [] },
  artifacts: {},
};

let project: TmpProject | undefined;
afterEach(() => project?.remove());

/** A project with a flow and its trace as record writes it, then `edit`ed (the seal dropped unless `key` signs it). */
function setUp(edit: (h: TraceHeader) => TraceHeader = (h) => h, key?: string): { spec: string; trace: string } {
  project = tmpProject("flowproof-reseal-");
  const spec = project.write("a.flow.yaml", flowYaml("A", "http://127.0.0.1:9/", ['Click "Go"']));
  const flow = loadFlowFile(spec);
  const target = targetOfFlow(flow);
  const header: TraceHeader = {
    format: "flowproof-trace",
    version: 1,
    trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
    recorded_at: "2025-01-02T03:04:05.678Z",
    app: target.app,
    env: { os: "linux", resolution: [1280, 800] },
    spec: { name: "A", path: "a.flow.yaml", hash: flow.hash },
    ...target.top,
  };
  const text = serializeTrace(edit(header), [STEP], key);
  const unsealed = key === undefined ? text.replace(/,"integrity":\{[^}]*\}/, "") : text;
  return { spec, trace: project.write("a.trace.jsonl", unsealed) };
}

const headerOf = (path: string) => JSON.parse(readFileSync(path, "utf8").split("\n")[0]!) as TraceHeader;

async function refusal(run: () => Promise<unknown>): Promise<TraceError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof TraceError) return error;
    throw error;
  }
  throw new Error("expected a TraceError");
}

describe("resealTrace", () => {
  test("seals an unsealed trace whole, and signs it when the key is set", async () => {
    const { spec, trace } = setUp();
    expect(sealKind(headerOf(trace))).toBe("none");
    expect(await resealTrace({ spec, env: {} })).toEqual({ trace_path: trace, was: "none", now: "sealed" });
    expect(headerOf(trace).integrity).toMatchObject({ scope: "trace", steps: 1 });
    expect(await resealTrace({ spec, env: { FLOWPROOF_TRACE_KEY: KEY } })).toEqual({ trace_path: trace, was: "sealed", now: "signed" });
    expect(readFileSync(trace, "utf8")).not.toContain(KEY);
  });

  test("refuses a header that disagrees with the flow, and leaves the trace as it is", async () => {
    const { spec, trace } = setUp((h) => ({ ...h, app: { ...h.app, url: "http://elsewhere/" } }));
    const before = readFileSync(trace, "utf8");
    expect((await refusal(() => resealTrace({ spec, env: {} }))).message).toContain(
      'the trace\'s `app.url` is "http://elsewhere/", but the flow\'s `url:` is "http://127.0.0.1:9/"',
    );
    expect(readFileSync(trace, "utf8")).toBe(before);
  });

  test("refuses a stale trace, and a signed one it cannot verify", async () => {
    const stale = setUp((h) => ({ ...h, spec: { ...h.spec!, hash: `sha256:${"0".repeat(64)}` } }));
    expect((await refusal(() => resealTrace({ spec: stale.spec, env: {} }))).message).toContain("a stale trace is recorded again, not sealed");
    project!.remove();
    const signed = setUp((h) => h, KEY);
    const noKey = await refusal(() => resealTrace({ spec: signed.spec, env: {} }));
    expect(noKey.code).toBe("trace-signature");
    expect(noKey.message).toEndWith("a.trace.jsonl is signed: sealing it again without FLOWPROOF_TRACE_KEY would drop its signature");
    expect((await refusal(() => resealTrace({ spec: signed.spec, env: { FLOWPROOF_TRACE_KEY: "another key, long enough" } }))).code).toBe("trace-signature");
  });
});
