// Egress containment benchmark: what containing an agent costs.
//
//   node_modules/.bin/bun bench/egress.ts [--runs N]
//
// Records one agent flow whose agent (a real Node program) makes 20 model requests through the
// proxy, then replays it N times contained and N times with FLOWPROOF_CONTAINMENT=off,
// alternating, after one untimed round of each. Prints the median time of the agent step and of
// the whole replay for both, and the overhead of containment (namespace setup, the containment
// program's start, the loopback relay every request crosses).
// A measurement, not a test: exits 0 whatever the figures; 1 when a run fails; 2 on bad arguments.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { record, run } from "../src/index.ts";
import { containmentSupport } from "../plugins/agent/containment.ts";

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

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const AGENT = `
let last = "";
for (let i = 0; i < ${REQUESTS}; i++) {
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
      const body = await req.json() as { model: string };
      n++;
      return Response.json({ id: `c${n}`, object: "chat.completion", created: 0, model: body.model, choices: [{ index: 0, message: { role: "assistant", content: `answer ${n}` }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    },
  });
  const dir = mkdtempSync(join(tmpdir(), "flowproof-bench-egress-"));
  try {
    const node = Bun.which("node") ?? process.execPath;
    writeFileSync(join(dir, "agent.mjs"), AGENT);
    const spec = join(dir, "agent.flow.yaml");
    writeFileSync(spec, ["name: Twenty requests", "app: agent", "agent:", `  command: ${node} agent.mjs`, "steps:", "  - prompt: answer", "  - assert: reply contains answer", ""].join("\n"));
    const recorded = await record({ spec, author: "rules", env: { ...process.env, FLOWPROOF_AGENT_UPSTREAM: `http://127.0.0.1:${model.port}/v1`, FLOWPROOF_AGENT_KEY: "bench" } });
    if (!recorded.ok || recorded.trace_path === null) {
      console.error(`bench: the recording failed: ${recorded.error ?? "no trace"}`);
      return 1;
    }
    const sample = async (contained: boolean) => {
      const env = { ...process.env, ...(contained ? {} : { FLOWPROOF_CONTAINMENT: "off" }) };
      const t0 = performance.now();
      const r = await run({ spec, env });
      const wall = performance.now() - t0;
      if (r.report.outcome !== "passed") throw new Error(`a ${contained ? "contained" : "uncontained"} replay ${r.report.outcome}: ${r.report.steps[0]?.detail ?? ""}`);
      return { wall, step: r.report.steps[0]?.duration_ms ?? wall };
    };
    await sample(true);
    await sample(false);
    const on: { wall: number; step: number }[] = [];
    const off: { wall: number; step: number }[] = [];
    for (let i = 0; i < runs; i++) {
      on.push(await sample(true));
      off.push(await sample(false));
    }
    const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
    const stepOn = median(on.map((s) => s.step)), stepOff = median(off.map((s) => s.step));
    const wallOn = median(on.map((s) => s.wall)), wallOff = median(off.map((s) => s.wall));
    console.log(`agent flow of ${REQUESTS} model requests, ${runs} replays each (median)`);
    console.log(`  agent step   contained ${fmt(stepOn)}   not contained ${fmt(stepOff)}   overhead ${fmt(stepOn - stepOff)} (${(((stepOn - stepOff) / stepOff) * 100).toFixed(1)} %), ${((stepOn - stepOff) / REQUESTS).toFixed(1)} ms per request if spread`);
    console.log(`  whole replay contained ${fmt(wallOn)}   not contained ${fmt(wallOff)}`);
    console.log(`  samples (step ms) contained [${on.map((s) => s.step).join(", ")}]  not contained [${off.map((s) => s.step).join(", ")}]`);
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
