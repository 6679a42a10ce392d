// The debug snapshot of a failed replay through the real CLI and real Chromium: debug/dom.html
// (open shadow roots included) and debug/console.log in the run bundle, the failed step's detail naming them and suggesting
// the text the page does show, and no secret value in any file written.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { resealed } from "../support/trace.ts";

const TOKEN = "tok-CANARY-51e2";
let server: TestServer;
let project: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  project.remove();
});

describe("debug snapshot of a failed replay", () => {
  test("writes the page and its console, names them in the failure with a did-you-mean, and redacts secrets", async () => {
    const spec = project.write(
      "signin.flow.yaml",
      [
        "name: Sign in",
        "app: web",
        `url: ${server.url}/debug.html`,
        "steps:",
        '  - rules: Type ${TOKEN} into the "Token" field',
        '  - rules: Click "Sign in"',
        "  - assert: page shows Welcome",
        "",
      ].join("\n"),
    );
    expect((await runCli(["record", spec], { cwd: project.dir, env: { TOKEN } })).code).toBe(0);
    // The app renamed its button: the trace still asks for the old name.
    const tracePath = join(project.dir, "signin.trace.jsonl");
    writeFileSync(tracePath, resealed(readFileSync(tracePath, "utf8").replace('"text":"Sign in"', '"text":"Sing in"')));
    const run = await runCli(["run", spec, "--json"], { cwd: project.dir, env: { TOKEN, FLOWPROOF_STEP_TIMEOUT_MS: "1000" } });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as { report: { steps: Array<{ status: string; detail?: string }> }; run_dir: string };
    const failed = out.report.steps.find((s) => s.status === "failed")!;
    expect(failed.detail).toContain("— did you mean 'Sign in'?");
    expect(failed.detail).toContain("(captured: debug/dom.html, debug/console.log)");
    const runDir = out.run_dir;
    const dom = readFileSync(join(runDir, "debug", "dom.html"), "utf8");
    expect(dom).toContain("token ${TOKEN}");
    expect(dom).not.toContain("static-attr-pw-77");
    // An open shadow root is written as declarative shadow DOM, its password value left out like any other.
    expect(dom).toContain(
      '<session-badge><template shadowrootmode="open"><span class="badge">Signed out in shadow</span><input type="password"></template></session-badge>',
    );
    expect(dom).not.toContain("shadow-pw-88");
    const log = readFileSync(join(runDir, "debug", "console.log"), "utf8");
    expect(log).toContain("console.log: page ready {build: 7}");
    expect(log).toContain("console.log: token typed ${TOKEN}");
    // The page logged the field at every key: no line gives away half the token or more.
    expect(log).toContain("console.log: token typed ${TOKEN}…");
    expect(log).not.toContain(TOKEN.slice(0, Math.ceil(TOKEN.length / 2)));
    const written = project.files().filter((f) => f.startsWith(".flowproof/"));
    expect(written.length).toBeGreaterThan(3);
    for (const file of written) expect({ file, leaked: readFileSync(join(project.dir, file)).includes(TOKEN) }).toEqual({ file, leaked: false });
  });

  test("a recording that fails on a misspelt target suggests the text the page shows", async () => {
    const spec = project.write(
      "typo.flow.yaml",
      ["name: Typo", "app: web", `url: ${server.url}/debug.html`, "steps:", '  - rules: Click "Sing in"', ""].join("\n"),
    );
    const rec = await runCli(["record", spec], { cwd: project.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "1000" } });
    expect(rec.code).toBe(1);
    expect(rec.stderr).toContain("matched nothing — did you mean 'Sign in'?; no trace was written");
  });

  test("a page whose script threw before it rendered: the failure names the uncaught error, at record and at replay", async () => {
    let broken = false;
    server.setRoute("/crashes.html", () => {
      const script = broken ? "document.title = process.env.NODE_ENV;" : "";
      return new Response(
        `<!doctype html><title>App</title><div id="root"></div><script>${script}document.getElementById("root").innerHTML = "<button>Save</button>";</script>`,
        {
          headers: { "content-type": "text/html" },
        },
      );
    });
    const spec = project.write(
      "crashes.flow.yaml",
      ["name: Crashes", "app: web", `url: ${server.url}/crashes.html`, "steps:", '  - rules: Click "Save"', ""].join("\n"),
    );
    expect((await runCli(["record", spec], { cwd: project.dir })).code).toBe(0);
    broken = true;
    const env = { FLOWPROOF_STEP_TIMEOUT_MS: "1000" };
    const run = await runCli(["run", spec, "--json"], { cwd: project.dir, env });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as { report: { steps: Array<{ status: string; detail?: string }> } };
    expect(out.report.steps.find((s) => s.status === "failed")?.detail).toContain("— the page threw an uncaught error: ReferenceError: process is not defined");
    const rec = await runCli(["record", spec], { cwd: project.dir, env });
    expect(rec.code).toBe(1);
    expect(rec.stderr).toContain("— the page threw an uncaught error: ReferenceError: process is not defined");
  });
});
