import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpProject, flowYaml } from "../../test/support/tmp-project.ts";
import { heal, stepFrames } from "./heal.ts";
import { TraceError } from "../diagnostics/diagnostic.ts";
import type { Trace } from "../trace/read.ts";

const project = tmpProject();
afterAll(() => project.remove());

describe("heal", () => {
  test("needs a recorded trace, before anything is launched", async () => {
    const spec = project.write("h.flow.yaml", flowYaml("H", "http://127.0.0.1:9/", ["Send the order"]));
    await expect(heal({ spec, env: {} })).rejects.toBeInstanceOf(TraceError);
  });
});

describe("stepFrames", () => {
  test("picks the bundle's frames inside the step's recording range, relative to the page", () => {
    const dir = join(project.dir, ".flowproof", "recordings", "t1", "recording");
    mkdirSync(dir, { recursive: true });
    for (const f of ["frame-0-aaaaaaaa.png", "frame-120-bbbbbbbb.png", "frame-300-cccccccc.png", "frame-900-dddddddd.png", "notes.txt"])
      writeFileSync(join(dir, f), "");
    const trace: Trace = {
      path: join(project.dir, "h.trace.jsonl"),
      header: {
        format: "flowproof-trace",
        version: 1,
        trace_id: "t1",
        recorded_at: "2026-01-01T00:00:00Z",
        app: { name: "web", adapter: "web" },
        env: { os: "linux", resolution: [1, 1] },
        recording: { format: "filmstrip/1", dir: ".flowproof/recordings/t1" },
      },
      steps: [],
    };
    const s = {
      id: "s0001",
      intent: "x",
      action: { type: "click" as const, params: {} },
      selectors: [],
      sync: { pre: [], post: [] },
      artifacts: { recording: { start_ms: 100, end_ms: 300 } },
    };
    expect(stepFrames(trace, s, project.dir)).toEqual([
      ".flowproof/recordings/t1/recording/frame-120-bbbbbbbb.png",
      ".flowproof/recordings/t1/recording/frame-300-cccccccc.png",
    ]);
    expect(stepFrames(trace, { ...s, artifacts: {} }, project.dir)).toEqual([]);
  });
});
