import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../../test/support/cli.ts";
import { startScriptedModel } from "../../test/support/model-server.ts";
import { tmpProject } from "../../test/support/tmp-project.ts";

const p = tmpProject("flowproof-from-doc-cli-");
const model = await startScriptedModel();
afterAll(() => {
  model.stop();
  p.remove();
});

// An Xray export: the password is in the data cell beside the action asking for it.
const XRAY = 'Action,Data,Expected Result\nGo to /login,,page shows Sign in\nEnter the password,Secr3t!,\nPress the "Sign in" button,,The dashboard opens\n';

describe("flowproof author-from-doc", () => {
  test("writes the draft and says it is one to review, with the record command to run next", async () => {
    p.write("xray.csv", XRAY);
    const r = await runCli(["author-from-doc", "xray.csv", "--app", "web", "--name", "Sign in", "-o", "sign-in.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("DRAFT written to sign-in.flow.yaml: 3 steps from xray.csv (Xray / Jira)");
    expect(r.stdout).toContain("   2 plain (TODO)  Enter the password (data: ${PASSWORD})\n");
    expect(r.stdout).toContain("This is a draft to review, not a test yet: nothing was run.");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("  flowproof record sign-in.flow.yaml");
    expect(r.stderr).toContain("warning: 1 plain step needs an authoring model to record");
    expect(r.stdout + r.stderr + p.read("sign-in.flow.yaml")).not.toContain("Secr3t!");
    const v = await runCli(["validate", "sign-in.flow.yaml"], { cwd: p.dir, env: model.env() });
    expect([v.code, v.stdout.trim()]).toEqual([0, "OK: sign-in.flow.yaml (Sign in: 4 steps)"]);
  });

  test("--json gives the per-step outcome", async () => {
    p.write("xray2.csv", XRAY);
    const r = await runCli(["author-from-doc", "xray2.csv", "--app", "web", "--name", "Sign in", "--out", "two.flow.yaml", "--json"], { cwd: p.dir });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual(["draft", "document", "model", "steps", "secrets", "todo", "next"]);
    expect(j["steps"]).toEqual([
      {
        step: 1,
        where: "table 1, row 2",
        source: "Go to /login",
        outcome: "rules",
        rules: ["Go to /login"],
        expected: { source: "page shows Sign in", outcome: "assert", assert: "page shows Sign in" },
      },
      {
        step: 2,
        where: "table 1, row 3",
        source: "Enter the password",
        data: "${PASSWORD}",
        outcome: "intent",
        intent: "Enter the password (data: ${PASSWORD})",
        secrets: ["PASSWORD"],
      },
      {
        step: 3,
        where: "table 1, row 4",
        source: 'Press the "Sign in" button',
        outcome: "rules",
        rules: ['Press the "Sign in" button'],
        expected: { source: "The dashboard opens", outcome: "todo" },
      },
    ]);
    expect([j["secrets"], j["model"], j["next"]]).toEqual([["PASSWORD"], null, "flowproof record two.flow.yaml"]);
  });

  test("a document it cannot segment: what it looked for, exit 2, nothing written", async () => {
    p.write("letter.md", "Dear team,\n\nplease test the login.\n");
    const r = await runCli(["author-from-doc", "letter.md", "--app", "web", "--name", "x", "-o", "letter.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: letter.md: found no test steps in the document; it has no table [document-no-steps]");
    expect(r.stderr).toContain("hint: flowproof looks for a table (or `Label: value` lines) with an action column");
    expect(existsSync(join(p.dir, "letter.flow.yaml"))).toBe(false);
  });

  test("--app, --name and --out are required", async () => {
    const r = await runCli(["author-from-doc", "x.csv", "--name", "x", "-o", "x.flow.yaml"], { cwd: p.dir });
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringContaining("author-from-doc needs --app (web, sap, notepad, calc, vision, or a project plugin's kind whose steps are UI steps)"),
    ]);
    const bad = await runCli(["author-from-doc", "x.csv", "--app", "mobile", "--name", "x", "-o", "x.flow.yaml"], { cwd: p.dir });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--app must be one of web, sap, notepad, calc, vision, not "mobile"')]);
  });

  test("with the authoring model, the translated draft needs no TODO for the step", async () => {
    p.write("model.csv", "Step,Expected Result\nOpen the login page,The sign-in form shows\n");
    model.script("Open the login page", '{"steps": ["Go to /login"], "assert": "page shows Sign in", "another_app": null, "unclear": null}');
    const r = await runCli(["author-from-doc", "model.csv", "--app", "web", "--name", "Open", "-o", "model.flow.yaml"], { cwd: p.dir, env: model.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(", 1 model call (scripted-model)");
    expect(r.stdout).toContain("   1 translated    Go to /login; assert: page shows Sign in");
    expect(readFileSync(join(p.dir, "model.flow.yaml"), "utf8")).toContain(
      "  - rules: Go to /login\n  # expected result translated by the model: The sign-in form shows\n  - assert: page shows Sign in\n",
    );
  });
});
