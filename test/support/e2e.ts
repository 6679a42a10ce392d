// The prelude of a browser end-to-end test file: Chromium is required (a missing browser fails
// the file with instructions, never skips it), the fixture page server runs, and a throwaway
// project directory exists; both go away after the file's last test.
import { afterAll, expect } from "bun:test";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "./schemas.ts";
import { requireChromium } from "./chromium.ts";
import { startServer, type TestServer } from "./server.ts";
import { tmpProject, type TmpProject } from "./tmp-project.ts";

export interface WebE2e {
  readonly server: TestServer;
  readonly project: TmpProject;
}

/** Call at the top level of a test file: `const { server, project } = await webE2e();`. */
export async function webE2e(): Promise<WebE2e> {
  requireChromium();
  const server = await startServer();
  const project = tmpProject();
  afterAll(() => {
    server.stop();
    project.remove();
  });
  return { server, project };
}

/** Records the flow at `spec` with the rules grammar, then replays it: every step passes both times, and the trace and result are valid. */
export async function expectGreen(spec: string): Promise<void> {
  const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
  expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
  expect(recorded.ok).toBe(true);
  expectValidTrace(recorded.trace_path!);
  const replay = await run({ spec, recordingDetail: "off" });
  expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
  expect(replay.report.passed).toBe(true);
  expectValidResult(replay.report_path);
}
