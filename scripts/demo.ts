// The bundled demo: serves the example app on a free local port and replays every example flow
// under examples/demo/flows with its committed trace (`--record` re-records the traces first).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startDemoServer } from "../examples/demo/server.ts";
import { record } from "../src/commands/record.ts";
import { run } from "../src/commands/run.ts";
import { displayPath } from "../src/commands/paths.ts";
import { FlowproofError } from "../src/diagnostics/diagnostic.ts";
import { renderDiagnostics } from "../src/diagnostics/render.ts";

const FLOWS_DIR = join(import.meta.dir, "..", "examples", "demo", "flows");
const LABEL = { passed: "PASS", failed: "FAIL", skipped: "SKIP", errored: "ERROR" } as const;

async function main(): Promise<number> {
  const rerecord = process.argv.includes("--record");
  const server = await startDemoServer(0);
  const env = { ...process.env, DEMO_URL: server.url };
  const log = (line: string) => process.stderr.write(`${line}\n`);
  console.log(`demo app on ${server.url}`);
  const flows = readdirSync(FLOWS_DIR)
    .filter((f) => f.endsWith(".flow.yaml"))
    .sort();
  let failures = 0;
  try {
    for (const file of flows) {
      const spec = join(FLOWS_DIR, file);
      try {
        if (rerecord) {
          const r = await record({ spec, author: "rules", env, log });
          if (!r.ok) throw new Error(r.error ?? "recording failed");
          console.log(`Recorded ${displayPath(r.trace_path!)}`);
        }
        const result = await run({ spec, env, log });
        console.log(`\n${result.report.name}  (${displayPath(spec)})`);
        for (const s of result.report.steps)
          console.log(`  [${LABEL[s.status]}] ${s.id} ${s.intent}${s.detail && s.status !== "skipped" ? ` — ${s.detail}` : ""}`);
        if (result.report.error) console.log(`  error: ${result.report.error}${result.error_hint ? `\n  hint: ${result.error_hint}` : ""}`);
        console.log(`${result.report.passed ? "PASS" : "FAIL"}: ${result.report.name} (${result.report.duration_ms} ms) -> ${displayPath(result.report_path)}`);
        if (!result.report.passed) failures++;
      } catch (error) {
        failures++;
        console.log(`\nERROR: ${file}\n${error instanceof FlowproofError ? renderDiagnostics(error.diagnostics) : String(error)}`);
      }
    }
  } finally {
    server.stop();
  }
  console.log(`\n${failures === 0 ? "PASS" : "FAIL"}: ${flows.length - failures}/${flows.length} demo flows passed`);
  return failures === 0 ? 0 : 1;
}

process.exit(await main());
