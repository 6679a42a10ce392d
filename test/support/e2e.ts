// The prelude of a browser end-to-end test file: Chromium is required (a missing browser fails
// the file with instructions, never skips it), the fixture page server runs, and a throwaway
// project directory exists; both go away after the file's last test.
import { afterAll, expect } from "bun:test";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import type { SessionPool } from "../../src/commands/session-pool.ts";
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

/** How `expectGreen` runs: extra env over process.env, a shared browser pool, how many replays (default 1). */
export interface GreenOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly pool?: SessionPool;
  readonly replays?: number;
}

/**
 * Records the flow at `spec` with the rules grammar, then replays it (`replays` times): every step
 * passes every time, and the trace and each result are valid. Answers the trace's path.
 */
export async function expectGreen(spec: string, options: GreenOptions = {}): Promise<string> {
  const env = { ...process.env, ...options.env };
  const pool = options.pool ? { pool: options.pool } : {};
  const recorded = await record({ spec, author: "rules", recordingDetail: "off", env, ...pool });
  expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
  expect(recorded.ok).toBe(true);
  expectValidTrace(recorded.trace_path!);
  const replays = options.replays ?? 1;
  expect(replays).toBeGreaterThan(0);
  for (let i = 0; i < replays; i++) {
    const replay = await run({ spec, recordingDetail: "off", env, ...pool });
    expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(replay.report.passed).toBe(true);
    expectValidResult(replay.report_path);
  }
  return recorded.trace_path!;
}
