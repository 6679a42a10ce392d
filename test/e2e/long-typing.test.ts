// Typing long text in real Chromium: 20,000 characters finish well within a bound and read back
// equal (a plain textarea, and a React-controlled one whose state receives all of it); a page that
// takes each key slowly stops the typing at the step's bound with a message naming the typing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { requireChromium } from "../support/chromium.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";

const SPA = join(import.meta.dir, "..", "fixtures", "spa");
let server: TestServer;
let project: TmpProject;

/** 20,000 characters: words, punctuation, a few newlines, an accent, and an end marker. */
const LONG =
  Array.from({ length: 400 }, (_, i) => (i % 50 === 49 ? `line ${i} é.\n` : `word${i}, more text; `))
    .join("")
    .padEnd(19_990, "x")
    .slice(0, 19_990) + "END-MARK-9";

beforeAll(async () => {
  requireChromium();
  project = tmpProject("flowproof-typing-");
  server = await startServer();
  server.setRoute(
    "/typing/plain.html",
    () =>
      new Response(
        `<!doctype html><title>Plain</title><label>Notes <textarea id="n"></textarea></label>
<button id="check">Check</button><p id="out"></p>
<script>document.getElementById("check").addEventListener("click", () => {
  const v = document.getElementById("n").value;
  document.getElementById("out").textContent = "value " + v.length + " " + (v === ${JSON.stringify(LONG)} ? "equal" : "different at " + [...v].findIndex((c, i) => c !== ${JSON.stringify(LONG)}[i]) + " " + JSON.stringify(v.slice(920, 940)));
});</script>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  );
  // Every key press costs the page 300 ms (a handler doing heavy work per key).
  server.setRoute(
    "/typing/slow.html",
    () =>
      new Response(
        `<!doctype html><title>Slow</title><label>Notes <textarea id="n"></textarea></label>
<script>document.getElementById("n").addEventListener("keydown", () => { const until = performance.now() + 300; while (performance.now() < until); });</script>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  );
  server.setRoute(
    "/typing/react.html",
    () =>
      new Response(`<!doctype html><title>React notes</title><div id="root"></div><script src="/typing/react.js"></script>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  const built = await Bun.build({
    entrypoints: [join(SPA, "long-text.entry.jsx")],
    outdir: join(project.dir, "bundle"),
    target: "browser",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!built.success)
    throw new AggregateError(built.logs, "bundling the React page failed (it needs the devDependencies react and react-dom: run `npm install`)");
  server.setRoute(
    "/typing/react.js",
    () => new Response(Bun.file(join(project.dir, "bundle", "long-text.entry.js")), { headers: { "content-type": "text/javascript" } }),
  );
}, 60_000);
afterAll(() => {
  server?.stop();
  project?.remove();
});

const flow = (name: string, page: string, steps: readonly string[]) =>
  `name: ${name}\napp: web\nurl: ${server.url}/typing/${page}\nsteps:\n${steps.map((s) => `  - ${s}`).join("\n")}\n`;
/** The long text as a flow step: YAML's double-quoted form keeps the newlines. */
const typeStep = `${JSON.stringify(`Type ${LONG.replaceAll('"', "'")} into the "Notes" field`)}`;

describe("typing long text", () => {
  test("20,000 characters finish within a bound and read back equal, on record and replay", async () => {
    expect([...LONG].length).toBe(20_000);
    const spec = project.write("plain.flow.yaml", flow("Plain", "plain.html", [typeStep, 'Click "Check"', "assert: page shows value 20000 equal"]));
    const started = performance.now();
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: process.env });
    expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
    expect(recorded.ok).toBe(true);
    // Key by key it took minutes; as a paste, a second or two (browser start included).
    expect(performance.now() - started).toBeLessThan(20_000);
    const replayed = await run({ spec, recordingDetail: "off", env: process.env });
    expect(replayed.report.steps.map((s) => s.status)).toEqual(["passed", "passed", "passed"]);
  }, 90_000);

  test("a React-controlled textarea receives the whole value in its state", async () => {
    const spec = project.write(
      "react.flow.yaml",
      flow("React", "react.html", [typeStep, 'assert: page shows React holds 20000 characters ending "xxEND-MARK-9"']),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: process.env });
    expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
    expect(recorded.ok).toBe(true);
  }, 90_000);

  test("a page that takes keys slowly stops the typing at the step's bound, the message naming the typing", async () => {
    const spec = project.write("slow.flow.yaml", flow("Slow", "slow.html", [typeStep]));
    const env = { ...process.env, FLOWPROOF_STEP_TIMEOUT_MS: "1000", FLOWPROOF_NAVIGATION_TIMEOUT_MS: "1000" };
    const started = performance.now();
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", env });
    expect(recorded.ok).toBe(false);
    const step = recorded.step_results[0]!;
    expect(step.status).toBe("failed");
    expect(step.detail).toMatch(/^the "Notes" field: typing 20000 characters did not finish within 2000 ms \(\d+ of 20000 typed\)/);
    expect(step.detail).not.toContain("stopped responding");
    // The bound, plus the keys already sent and the browser's start and stop: not the minutes typing all of it would take.
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 90_000);
});
