import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { FlowproofError, SpecError } from "../diagnostics/diagnostic.ts";
import { authorFromDoc, type AuthorFromDocOptions } from "./author-from-doc.ts";
import { validate } from "./validate.ts";
import { buildDocx } from "../../test/support/docx.ts";
import { startScriptedModel, type ScriptedModel } from "../../test/support/model-server.ts";
import { tmpProject } from "../../test/support/tmp-project.ts";

const p = tmpProject("flowproof-from-doc-");
let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => {
  model.stop();
  p.remove();
});

/** No model configured: the environment holds none of the FLOWPROOF_AI_* / OPENAI_* / ANTHROPIC_* variables. */
const NO_MODEL = { PATH: process.env["PATH"] };
const run = (o: Partial<AuthorFromDocOptions> & Pick<AuthorFromDocOptions, "doc" | "out">) =>
  authorFromDoc({ app: "web", name: "Log in", env: NO_MODEL, ...o });
const failure = async (o: Parameters<typeof run>[0]) => {
  const e = await run(o).catch((error: unknown) => error);
  if (!(e instanceof FlowproofError)) throw new Error(`expected a FlowproofError, got ${String(e)}`);
  return e.diagnostics[0]!;
};

/** An Azure DevOps test-case export, as exceljs writes it. */
async function azureXlsx(name: string): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Test Cases");
  sheet.addRow(["ID", "Work Item Type", "Title", "Test Step", "Step Action", "Step Expected"]);
  sheet.addRow([4711, "Test Case", "Log in", null, null, null]);
  sheet.addRow([null, null, null, 1, "Go to /login", "page shows Sign in"]);
  sheet.addRow([null, null, null, 2, "<DIV><P>Enter the user name ada in the name box</P></DIV>", "<P>The name is accepted</P>"]);
  sheet.addRow([null, null, null, 3, 'Type "Welcome1!" into the "Password" field', null]);
  sheet.addRow([null, null, null, 4, 'Press the "Sign in" button', "An email is sent to ada"]);
  sheet.addRow([null, null, null, 5, "Open Outlook and click the activation link", "The account is active"]);
  sheet.addRow([null, null, null, 6, 'Blur the "Email" field', null]);
  const path = join(p.dir, name);
  writeFileSync(path, new Uint8Array(await workbook.xlsx.writeBuffer()));
  return path;
}

describe("authorFromDoc without a model", () => {
  let result: Awaited<ReturnType<typeof run>>;
  let draft: string;
  const out = join(p.dir, "azure.flow.yaml");
  beforeAll(async () => {
    result = await run({ doc: await azureXlsx("azure.xlsx"), out });
    draft = readFileSync(out, "utf8");
  });

  test("gives each step its outcome, deterministically", () => {
    expect(result.document).toEqual({ path: join(p.dir, "azure.xlsx"), format: "xlsx", shape: "azure-devops", shape_label: "Azure DevOps" });
    expect(result.model).toBeNull();
    expect(result.steps.map((s) => [s.step, s.name, s.outcome, s.expected?.outcome])).toEqual([
      [1, "1", "rules", "assert"],
      [2, "2", "intent", "todo"],
      [3, "3", "rules", undefined],
      [4, "4", "rules", "another-app"],
      [5, "5", "another-app", "todo"],
      [6, "6", "refused", undefined],
    ]);
    expect(result.steps[4]!.another_app).toBe("Outlook");
    expect(result.steps[5]!.refusal?.hint).toContain("Press Tab");
    expect(result.next).toBe(`flowproof record ${out}`);
  });

  test("never copies the password: a ${VAR} and a TODO naming it", () => {
    expect(result.secrets).toEqual(["PASSWORD"]);
    expect(result.steps[2]).toMatchObject({ rules: ['Type ${PASSWORD} into the "Password" field'], secrets: ["PASSWORD"] });
    expect(draft).not.toContain("Welcome1");
    expect(JSON.stringify(result)).not.toContain("Welcome1");
    expect(draft).toContain("# TODO set PASSWORD before record");
  });

  test("writes the draft with its TODO markers", () => {
    expect(draft).toContain("  - rules: Go to /login\n  - assert: page shows Sign in\n");
    expect(draft).toContain(
      "  # TODO plain step: record grounds it with the authoring model (FLOWPROOF_AI_*), or rewrite it as a `rules:` step\n  - Enter the user name ada in the name box\n  # TODO expected: The name is accepted\n",
    );
    expect(draft).toContain("  # TODO (another app: a mail client) expected: An email is sent to ada\n");
    expect(draft).toContain("  # TODO (another app: Outlook): not a step of this flow");
    expect(result.todo).toBe(draft.split("\n").filter((l) => l.trim().startsWith("# TODO")).length);
  });

  test("validates as record will read it with a model; without one, the plain step is what validate refuses", () => {
    expect(validate({ spec: out, env: model.env() })).toMatchObject({ name: "Log in", app: "web", steps: 5 });
    const e = (() => {
      try {
        validate({ spec: out, env: NO_MODEL });
      } catch (error) {
        return error;
      }
    })();
    expect(e).toBeInstanceOf(SpecError);
    expect((e as SpecError).diagnostics.map((d) => [d.code, d.span?.lineText.trim()])).toEqual([["unknown-step", "- Enter the user name ada in the name box"]]);
  });

  test("never overwrites an existing file", async () => {
    expect(await failure({ doc: join(p.dir, "azure.xlsx"), out })).toMatchObject({
      code: "usage",
      message: `${out} already exists; author-from-doc never overwrites a flow`,
    });
  });
});

describe("authorFromDoc with the authoring model", () => {
  test("one call per step the grammar did not take, a retry with the parser's error, the password never sent", async () => {
    const doc = join(p.dir, "alm.docx");
    writeFileSync(
      doc,
      buildDocx([
        "Test Plan: Login",
        {
          table: [
            ["Step Name", "Description", "Expected Result"],
            ["Step 1", "Open the login page", "The sign-in form is displayed"],
            ["Step 2", "Log in as ada with password Tr0ub4dor!", "The dashboard shows “Welcome”"],
            ["Step 3", "Press the “Sign out” button", "page shows Signed out"],
            ["Step 4", "Check the SMS on the phone", ""],
          ],
        },
      ]),
    );
    model.script("Open the login page", '{"steps": ["Go to /login"], "assert": "page shows Sign in", "another_app": null, "unclear": null}');
    model.script(
      "Log in as ada with password ${PASSWORD}",
      '{"steps": ["Type ada into the \\"User\\" field", "Type ${PASSWORD} into the \\"Password\\" field", "Click Sign in"], "assert": "page shows Welcome"}',
      '{"steps": ["Type ada into the \\"User\\" field", "Type ${PASSWORD} into the \\"Password\\" field", "Click \\"Sign in\\""], "assert": "page shows Welcome"}',
    );
    const before = model.requests.length;
    const out = join(p.dir, "alm.flow.yaml");
    const r = await run({ doc, out, env: { ...NO_MODEL, ...model.env() } });
    const requests = model.requests.slice(before);
    expect(requests.map((q) => q.step)).toEqual(["Open the login page", "Log in as ada with password ${PASSWORD}", "Log in as ada with password ${PASSWORD}"]);
    expect(requests[2]!.body.messages.at(-1)!.content).toContain("steps[2] `Click Sign in` does not parse: `Click` needs a quoted target.");
    expect(requests.map((q) => q.raw).join("")).not.toContain("Tr0ub4dor");
    expect(r.model).toEqual({ backend: "openai-compatible", model: "scripted-model", calls: 3 });
    expect(r.document.shape).toBe("hp-alm");
    expect(r.steps.map((s) => [s.outcome, s.rules, s.expected?.outcome, s.expected?.assert])).toEqual([
      ["translated", ["Go to /login"], "translated", "page shows Sign in"],
      ["translated", ['Type ada into the "User" field', 'Type ${PASSWORD} into the "Password" field', 'Click "Sign in"'], "translated", "page shows Welcome"],
      ["rules", ['Press the "Sign out" button'], "assert", "page shows Signed out"],
      ["another-app", undefined, undefined, undefined],
    ]);
    const draft = readFileSync(out, "utf8");
    expect(draft).not.toContain("Tr0ub4dor");
    expect(draft).toContain("  # translated by the model: check it says what the step means\n  - rules: Go to /login\n");
    expect(validate({ spec: out, env: NO_MODEL })).toMatchObject({ steps: 8 });
  });

  test("a failing model is an error, never a silent draft without it", async () => {
    const doc = p.write("fail.md", "| Action | Expected Result |\n| --- | --- |\n| Do the thing nobody scripted | |\n");
    const d = await failure({ doc, out: join(p.dir, "fail.flow.yaml"), env: { ...NO_MODEL, ...model.env() } });
    expect(d.code).toBe("model-error");
  });
});

describe("authorFromDoc checks the draft as validate reads it", () => {
  test("a rules step the flow loader refuses goes back to a plain step, saying why", async () => {
    // A Drag must be followed by an assertion (unverified-drag): as a plain step, record grounds it.
    const doc = p.write("drag.md", '| Step | Expected |\n| --- | --- |\n| Drag "Card" onto "Done" | |\n| Go to /board | page shows Board |\n');
    const out = join(p.dir, "nested", "dir", "drag.flow.yaml");
    const r = await run({ doc, out });
    expect(r.steps.map((s) => s.outcome)).toEqual(["intent", "rules"]);
    expect(r.steps[0]!.note).toStartWith("flowproof validate: ");
    expect(readFileSync(out, "utf8")).toContain(`  # (${r.steps[0]!.note})\n  - Drag "Card" onto "Done"\n`);
    expect(validate({ spec: out, env: model.env() })).toMatchObject({ steps: 3 });
  });
});

describe("authorFromDoc refuses", () => {
  test("a document without test steps, saying what it looked for", async () => {
    const doc = p.write("notes.md", "# Release notes\n\n| Version | Date |\n| --- | --- |\n| 1.2 | today |\n");
    const d = await failure({ doc, out: join(p.dir, "notes.flow.yaml") });
    expect(d.code).toBe("document-no-steps");
    expect(d.message).toBe(`${doc}: found no test steps in the document; its tables start with \`Version | Date\``);
    expect(d.hint).toContain("Step Action");
  });

  test("a test case none of whose steps happen in this app", async () => {
    const doc = p.write("mail.csv", "Action,Expected Result\nOpen Outlook,The mail is there\nCheck the SMS on the phone,\n");
    const d = await failure({ doc, out: join(p.dir, "mail.flow.yaml") });
    expect(d).toMatchObject({ code: "document-no-steps", message: `${doc}: none of its 2 steps can become a step of a flow (2 another-app)` });
  });
});

describe("--app names any loaded kind whose steps are UI steps", () => {
  /** A project whose own plugin adds the `mail` kind (steps `ui`, no keys: it takes the `url:` start page), titled "Outlook". */
  const project = tmpProject("flowproof-from-doc-plugin-");
  project.write("package.json", JSON.stringify({ name: "mail-project", private: true }));
  project.write(
    "plugins/mail.ts",
    `import { defineAdapter } from "flowproof";\nexport const plugin = defineAdapter({ kind: "mail", title: "Outlook", capabilities: ["pointer", "keyboard"], open: async () => { throw new Error("not opened"); } });\n`,
  );
  afterAll(() => project.remove());

  test("a project plugin's kind is drafted like a built-in: its `app:`, its start page, and its own app's steps kept", async () => {
    const doc = project.write("mail.csv", 'Action,Expected Result\nOpen Outlook,The inbox shows\nPress the "Send" button,\n');
    const out = join(project.dir, "mail.flow.yaml");
    const r = await run({ doc, out, app: "mail" });
    const draft = readFileSync(out, "utf8");
    expect(draft).toContain("app: mail\n# TODO the page the test case starts on: set APP_URL, or write the URL here\nurl: ${APP_URL}\nsteps:\n");
    // "Outlook" is the app under test here (the adapter's title), not another app.
    expect(r.steps.map((s) => s.outcome)).toEqual(["intent", "rules"]);
    expect(r.warnings).toBeUndefined();
  });

  test("a kind that is not loaded, or whose steps are not UI steps, is a usage error listing the kinds it can draft", async () => {
    const doc = project.write("one.csv", "Action\nGo to /inbox\n");
    for (const [app, why] of [
      ["mobile", ""],
      ["api", ": its steps are not UI steps (`steps: structured`), which a draft cannot hold"],
    ] as const) {
      const e = await run({ doc, out: join(project.dir, `${app}.flow.yaml`), app }).catch((error: unknown) => error);
      expect(e).toMatchObject({ code: "usage", message: `--app must be one of web, sap, notepad, calc, vision, mail, not "${app}"${why}` });
    }
  });
});
