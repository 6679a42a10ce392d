// Suite benchmark: serial vs `--workers 2` on a generated 40-flow suite.
//
//   node_modules/.bin/bun bench/suite-workers.ts [--flows N] [--latency-ms MS]
//
// Generates N flows (default 40) against a local app whose API answers after MS ms (default 300,
// the latency of a real backend), records them once (`run --record-missing`, untimed), then times
// `flowproof run <dir>` serially and with `--workers 2` through the real CLI, and prints both wall
// times, the ratio (target ≥ 1.6×) and whether the verdicts are identical.
// A measurement, not a test: exits 0 whatever the figures; 1 when verdicts differ or a flow fails;
// 2 without Chromium.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { findBrowser } from "../plugins/web/launch.ts";

const MAIN = resolve(import.meta.dir, "..", "src", "cli", "main.ts");
const TARGET_RATIO = 1.6;

function numberFlag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`bench: --${name} needs a whole number`);
    process.exit(2);
  }
  return n;
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title></head><body>
<h1>Orders</h1>
<label for="q">Customer</label><input id="q" placeholder="Customer">
<button id="find">Find</button>
<p id="out"></p>
<script>
document.getElementById("find").addEventListener("click", async () => {
  const q = document.getElementById("q").value;
  const r = await fetch("/api/orders?customer=" + encodeURIComponent(q));
  const j = await r.json();
  document.getElementById("out").textContent = j.count + " orders for " + j.customer;
});
</script></body></html>`;

function startApp(latencyMs: number): { url: string; stop(): void } {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      if (u.pathname === "/api/orders") {
        await Bun.sleep(latencyMs);
        const customer = u.searchParams.get("customer") ?? "";
        return Response.json({ customer, count: customer.length });
      }
      return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; ms: number }> {
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited, new Response(proc.stderr).text()]);
  return { code, stdout, ms: performance.now() - t0 };
}

if (import.meta.main) {
  if (!findBrowser(process.env, { headless: true }).path) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME");
    process.exit(2);
  }
  const flows = numberFlag("flows", 40);
  const latencyMs = numberFlag("latency-ms", 300);
  const app = startApp(latencyMs);
  const dir = mkdtempSync(join(tmpdir(), "flowproof-bench-suite-"));
  const names = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Margaret"];
  try {
    for (let i = 0; i < flows; i++) {
      const who = `${names[i % names.length]}${i}`;
      writeFileSync(
        join(dir, `flow-${String(i).padStart(2, "0")}.flow.yaml`),
        [
          `name: Orders of ${who}`,
          "app: web",
          `url: ${app.url}/`,
          "steps:",
          `  - rules: Type ${who} into the "Customer" field`,
          '  - rules: Press the "Find" button',
          `  - assert: page shows orders for ${who}`,
          `  - rules: Type ${who}x into the "Customer" field`,
          '  - rules: Press the "Find" button',
          `  - assert: page shows orders for ${who}x`,
          "",
        ].join("\n"),
      );
    }
    console.log(`bench: ${flows} flows of 6 steps, API latency ${latencyMs} ms, ${navigator.hardwareConcurrency} cores`);
    const rec = await cli(["run", ".", "--record-missing", "--author", "rules", "--recording-detail", "off", "--json"], dir);
    if (rec.code !== 0) {
      console.error(`bench: recording the suite failed (exit ${rec.code})\n${rec.stdout.slice(0, 2000)}`);
      process.exit(1);
    }
    const serial = await cli(["run", ".", "--recording-detail", "off", "--json"], dir);
    const parallel = await cli(["run", ".", "--recording-detail", "off", "--json", "--workers", "2"], dir);
    const verdicts = (s: string) => (JSON.parse(s) as { flows: Array<{ spec: string; outcome: string }> }).flows.map((f) => `${f.spec}:${f.outcome}`).join(",");
    const same = serial.code === parallel.code && verdicts(serial.stdout) === verdicts(parallel.stdout);
    const ratio = serial.ms / parallel.ms;
    console.log(`serial       ${(serial.ms / 1000).toFixed(1)} s (exit ${serial.code})`);
    console.log(`--workers 2  ${(parallel.ms / 1000).toFixed(1)} s (exit ${parallel.code})`);
    console.log(`ratio        ${ratio.toFixed(2)}× faster (target ≥ ${TARGET_RATIO}×) ${ratio >= TARGET_RATIO ? "OK" : "BELOW TARGET"}`);
    console.log(`verdicts     ${same ? "identical" : "DIFFERENT"}`);
    process.exit(same && serial.code === 0 ? 0 : 1);
  } finally {
    app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
