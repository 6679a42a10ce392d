// author-from-doc on a PDF that Chromium printed from an HP ALM-style design-steps page (a real
// PDF: wrapped cells, centred headers), through the real CLI, with and without the scripted model.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { startScriptedModel, type ScriptedModel } from "../support/model-server.ts";
import { printHtmlToPdf } from "../support/print-pdf.ts";
import { tmpProject } from "../support/tmp-project.ts";

const ALM_PAGE = `<!doctype html><html><head><style>
  body { font: 12px sans-serif; } table { border-collapse: collapse; width: 100%; }
  th, td { border: 1px solid #444; padding: 6px; } td { vertical-align: top; }
</style></head><body>
<h1>Test: Sign in and out</h1><p>Subject: Portal / Login — Designer: QA team</p>
<table>
  <tr><th>Step Name</th><th>Description</th><th>Expected Result</th><th>Actual Result</th></tr>
  <tr><td>Step 1</td><td>Go to /login</td><td>page shows Sign in</td><td></td></tr>
  <tr><td>Step 2</td><td>Log in as the user ada with the password Tr0ub4dor&amp;3, using the sign-in form that the portal shows on its start page for every visitor</td><td>The dashboard greets the user by name</td><td></td></tr>
  <tr><td>Step 3</td><td>Open the confirmation email in Outlook</td><td>The mail says the login happened</td><td></td></tr>
  <tr><td>Step 4</td><td>Press the “Sign out” button</td><td>page shows Signed out</td><td></td></tr>
</table>
<p>Approved by the test manager.</p>
</body></html>`;

const STEP_2 = "Log in as the user ada with the password ${PASSWORD}, using the sign-in form that the portal shows on its start page for every visitor";

const p = tmpProject("flowproof-from-pdf-");
let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
  writeFileSync(join(p.dir, "alm-export.pdf"), await printHtmlToPdf(ALM_PAGE));
});
afterAll(() => {
  model.stop();
  p.remove();
});

describe("author-from-doc on a printed PDF", () => {
  test("without a model: rules where the text parses, TODO markers elsewhere, the password never copied", async () => {
    const r = await runCli(["author-from-doc", "alm-export.pdf", "--app", "web", "--name", "Sign in and out", "-o", "plain.flow.yaml", "--json"], {
      cwd: p.dir,
    });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as {
      document: { shape: string };
      steps: Array<{ name: string; source: string; outcome: string; another_app?: string; expected?: { outcome: string } }>;
      secrets: string[];
    };
    expect(j.document.shape).toBe("hp-alm");
    expect(j.steps.map((s) => [s.name, s.source, s.outcome, s.expected?.outcome])).toEqual([
      ["Step 1", "Go to /login", "rules", "assert"],
      ["Step 2", STEP_2, "intent", "todo"],
      ["Step 3", "Open the confirmation email in Outlook", "another-app", "todo"],
      ["Step 4", 'Press the "Sign out" button', "rules", "assert"],
    ]);
    expect(j.secrets).toEqual(["PASSWORD"]);
    const draft = readFileSync(join(p.dir, "plain.flow.yaml"), "utf8");
    expect(draft + r.stdout + r.stderr).not.toContain("Tr0ub4dor");
    expect(draft).toContain("# TODO (another app: Outlook)");
    const v = await runCli(["validate", "plain.flow.yaml"], { cwd: p.dir, env: model.env() });
    expect([v.code, v.stdout.trim()]).toEqual([0, "OK: plain.flow.yaml (Sign in and out: 5 steps)"]);
  });

  test("with the scripted model: the prose step is translated, and the draft validates without a model", async () => {
    model.script(
      STEP_2,
      JSON.stringify({
        steps: ['Type ada into the "User" field', 'Type ${PASSWORD} into the "Password" field', 'Press the "Sign in" button'],
        assert: "page shows Welcome, ada",
        another_app: null,
        unclear: null,
      }),
    );
    const r = await runCli(["author-from-doc", "alm-export.pdf", "--app", "web", "--name", "Sign in and out", "-o", "model.flow.yaml"], {
      cwd: p.dir,
      env: model.env(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("DRAFT written to model.flow.yaml: 4 steps from alm-export.pdf (HP ALM / Quality Center), 1 model call (scripted-model)");
    expect(model.requests.map((q) => q.step)).toEqual([STEP_2]);
    expect(model.requests[0]!.raw).not.toContain("Tr0ub4dor");
    const v = await runCli(["validate", "model.flow.yaml"], { cwd: p.dir });
    expect([v.code, v.stdout.trim()]).toEqual([0, "OK: model.flow.yaml (Sign in and out: 8 steps)"]);
  });
});
