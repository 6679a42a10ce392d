// The bundled demo: every example flow loads, its committed trace validates against the schema,
// and replays to PASS against the demo app — what `./scripts/demo.sh` shows a newcomer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startDemoServer, type DemoServer } from "../../examples/demo/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { expectValidTrace } from "../support/schemas.ts";
import { validate } from "../../src/commands/validate.ts";
import { run } from "../../src/commands/run.ts";
import { runCli } from "../support/cli.ts";

const FLOWS = join(import.meta.dir, "..", "..", "examples", "demo", "flows");
const specs = readdirSync(FLOWS)
  .filter((f) => f.endsWith(".flow.yaml"))
  .sort();
let server: DemoServer;

beforeAll(async () => {
  requireChromium();
  server = await startDemoServer(0);
});
afterAll(() => server.stop());

describe("bundled demo flows", () => {
  test("there are several", () => {
    expect(specs.length).toBeGreaterThanOrEqual(4);
  });
  test.each(specs)("%s validates and replays its committed trace to PASS", async (file) => {
    const spec = join(FLOWS, file);
    expect(validate({ spec }).steps).toBeGreaterThan(0);
    expectValidTrace(spec.replace(/\.flow\.yaml$/, ".trace.jsonl"));
    const result = await run({ spec, env: { ...process.env, DEMO_URL: server.url } });
    expect(result.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(result.report.passed).toBe(true);
  });
});

test("the bundled flows give the same verdict three times in a row (--repeat-each 3)", async () => {
  const r = await runCli(["run", FLOWS, "--repeat-each", "3", "--recording-detail", "off", "--json"], { cwd: FLOWS, env: { DEMO_URL: server.url } });
  const out = JSON.parse(r.stdout) as { flows: { spec: string; outcome: string; report: { repeat?: { outcomes: string[] } } }[]; flaky: number };
  expect(out.flows.map((f) => [f.spec, f.outcome, f.report.repeat?.outcomes])).toEqual(specs.map((s) => [s, "passed", ["passed", "passed", "passed"]]));
  expect(out.flaky).toBe(0);
  expect(r.code).toBe(0);
}, 120_000);
