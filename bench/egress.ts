// Egress containment benchmark: what containing an agent costs.
//
//   node_modules/.bin/bun bench/egress.ts [--runs N]
//
// Records one agent flow whose agent (a real Node program) makes 20 model requests through the
// proxy, and one that makes a single request, then replays each N times contained and N times
// with FLOWPROOF_CONTAINMENT=off, alternating, after one untimed round of each. Prints the median
// time of the agent step for both, and the overhead of containment: the fixed part (namespace
// setup, the containment program's start) from the one-request flow, and what each further
// request adds (the loopback relay it crosses) from the difference.
// A measurement, not a test: exits 0 whatever the figures; 1 when a run fails; 2 on bad arguments.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { record, run } from "../src/index.ts";
import { containmentSupport } from "../plugins/agent/containment.ts";
import { median } from "./stats.ts";

const REQUESTS = 20;

function parseRuns(argv: readonly string[]): number {
  const i = argv.findIndex((a) => a === "--runs" || a.startsWith("--runs="));
  if (i === -1) return 5;
  const raw = argv[i]!.includes("=") ? argv[i]!.split("=")[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench: --runs needs a whole number ≥ 1, not ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
}

const agentSource = (requests: number) => `
let last = "";
for (let i = 0; i < ${requests}; i++) {
  const res = await fetch(process.env.OPENAI_BASE_URL + "/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer " + process.env.OPENAI_API_KEY }, body: JSON.stringify({ model: "m", messages: [{ role: "user", content: process.env.FLOWPROOF_PROMPT + " #" + i }] }) });
  last = (await res.json()).choices[0].message.content;
}
console.log(last);
`;

async function main(): Promise<number> {
  const runs = parseRuns(process.argv.slice(2));
  const support = containmentSupport(process.env);
  if (!support.enforced) {
    console.error(`bench: this machine cannot contain an agent (${support.reason}); nothing to compare`);
    return 2;
  }
  let n = 0;
  const model = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = (await req.json()) as { model: string };
      n++;
      return Response.json({
        id: `c${n}`,
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: `answer ${n}` }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    },
  });
  const dir = mkdtempSync(join(tmpdir(), "flowproof-bench-egress-"));
  try {
    const node = Bun.which("node") ?? process.execPath;
    const flowOf = async (requests: number) => {
      writeFileSync(join(dir, `agent${requests}.mjs`), agentSource(requests));
      const spec = join(dir, `agent${requests}.flow.yaml`);
      writeFileSync(
        spec,
        [
          `name: ${requests} requests`,
          "app: agent",
          "agent:",
          `  command: ${node} agent${requests}.mjs`,
          "steps:",
          "  - prompt: answer",
          "  - assert: reply contains answer",
          "",
        ].join("\n"),
      );
      const recorded = await record({
        spec,
        author: "rules",
        env: { ...process.env, FLOWPROOF_AGENT_UPSTREAM: `http://127.0.0.1:${model.port}/v1`, FLOWPROOF_AGENT_KEY: "bench" },
      });
      if (!recorded.ok || recorded.trace_path === null) throw new Error(`the recording failed: ${recorded.error ?? "no trace"}`);
      return spec;
    };
    const sample = async (spec: string, contained: boolean) => {
      const env = { ...process.env, ...(contained ? {} : { FLOWPROOF_CONTAINMENT: "off" }) };
      const r = await run({ spec, env });
      if (r.report.outcome !== "passed")
        throw new Error(`a ${contained ? "contained" : "uncontained"} replay ${r.report.outcome}: ${r.report.steps[0]?.detail ?? ""}`);
      return r.report.steps[0]?.duration_ms ?? r.report.duration_ms;
    };
    const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
    const overheads: number[] = [];
    for (const requests of [1, REQUESTS]) {
      const spec = await flowOf(requests);
      await sample(spec, true);
      await sample(spec, false);
      const on: number[] = [];
      const off: number[] = [];
      for (let i = 0; i < runs; i++) {
        on.push(await sample(spec, true));
        off.push(await sample(spec, false));
      }
      const m = median(on) - median(off);
      overheads.push(m);
      console.log(
        `agent flow of ${requests} model request(s), ${runs} replays each: agent step median contained ${fmt(median(on))}, not contained ${fmt(median(off))}, overhead ${fmt(m)} (${((m / median(off)) * 100).toFixed(1)} %)`,
      );
      console.log(`  samples contained [${on.join(", ")}]  not contained [${off.join(", ")}]`);
    }
    console.log(
      `containment: fixed ≈ ${fmt(overheads[0]!)} per agent execution, ≈ ${((overheads[1]! - overheads[0]!) / (REQUESTS - 1)).toFixed(1)} ms per further model request`,
    );
    return 0;
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    model.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exit(await main());
