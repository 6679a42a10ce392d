import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadFlowText } from "../../../test/support/surfaces.ts";
import { renderDraft, type DraftMeta } from "./draft.ts";
import { firstPass, type DraftStep } from "./outcome.ts";
import { readMarkdown } from "./read-markdown.ts";
import { redactSecrets } from "./secrets.ts";
import { segment } from "./segment.ts";
import { SHAPE_LABELS } from "./shapes.ts";

const meta: DraftMeta = {
  name: "Log in: happy path",
  app: "web",
  startUrl: true,
  document: "login.pdf",
  shape: "HP ALM / Quality Center",
  out: "login.flow.yaml",
  secrets: [{ variable: "PASSWORD", steps: [2] }],
};
const src = (index: number, action: string, expected?: string) => ({
  index,
  name: `Step ${index}`,
  action,
  where: `row ${index + 1}`,
  ...(expected ? { expected } : {}),
});

const STEPS: DraftStep[] = [
  {
    source: src(1, "Go to /login", "page shows Sign in"),
    outcome: "rules",
    rules: ["Go to /login"],
    expected: { outcome: "assert", assert: "page shows Sign in" },
  },
  { source: src(2, 'Type ${PASSWORD} into the "Password" field'), outcome: "rules", rules: ['Type ${PASSWORD} into the "Password" field'] },
  { source: src(3, "Note: open the order #1002", "The order opens"), outcome: "intent", intent: "Note: open the order #1002", expected: { outcome: "todo" } },
  {
    source: src(4, "Log in", "Welcome shows"),
    outcome: "translated",
    rules: ['Press the "Log in" button'],
    expected: { outcome: "translated", assert: "page shows Welcome" },
  },
  { source: src(5, "Open Outlook", "Mail arrived"), outcome: "another-app", anotherApp: "Outlook", expected: { outcome: "todo" } },
  { source: src(6, "Blur the field"), outcome: "refused", refusal: { message: "Blur is not something a user does.", hint: "write `Press Tab`" } },
];

describe("renderDraft", () => {
  const { text, lines } = renderDraft(meta, STEPS);

  test("is a flow that loads, every step where the line map says", () => {
    const loaded = loadFlowText("login.flow.yaml", text, { plainStepsAreRules: false });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
    expect(loaded.flow.name).toBe("Log in: happy path");
    expect(loaded.flow.steps.map((s) => [s.form, s.text])).toEqual([
      ["rules", "Go to /login"],
      ["assert", "page shows Sign in"],
      ["rules", 'Type ${PASSWORD} into the "Password" field'],
      ["plain", "Note: open the order #1002"],
      ["rules", 'Press the "Log in" button'],
      ["assert", "page shows Welcome"],
    ]);
    expect(loaded.flow.steps.map((s) => lines.get(s.span.line))).toEqual([
      { step: 0, kind: "rules" },
      { step: 0, kind: "assert" },
      { step: 1, kind: "rules" },
      { step: 2, kind: "intent" },
      { step: 3, kind: "rules" },
      { step: 3, kind: "assert" },
    ]);
  });

  test("says it is a draft and which command comes next", () => {
    expect(text.split("\n").slice(0, 3)).toEqual([
      "# DRAFT written by `flowproof author-from-doc` from login.pdf (HP ALM / Quality Center, 6 steps).",
      "# Nothing here has been run. Review it and every TODO, then record it against the app:",
      "#   flowproof record login.flow.yaml",
    ]);
    expect(text).toContain("url: ${APP_URL}");
  });

  test("marks every decision for the reviewer", () => {
    expect(text).toContain("  # TODO set PASSWORD before record: the document's value was not copied into this draft");
    expect(text).toContain("  # TODO plain step: record grounds it with the authoring model");
    expect(text).toContain("  # TODO expected: The order opens");
    expect(text).toContain("  # translated by the model: check it says what the step means");
    expect(text).toContain("  # TODO (another app: Outlook): not a step of this flow");
    expect(text).toContain("  # TODO expected: Mail arrived");
    expect(text).toContain("  # TODO refused by the grammar: Blur is not something a user does. Write instead: write `Press Tab`");
  });

  test("a kind without a start page has no start URL", () => {
    expect(renderDraft({ ...meta, app: "notepad", startUrl: false, secrets: [] }, STEPS.slice(0, 1)).text).not.toContain("url:");
  });

  test("keys the kind requires that a draft cannot fill get one TODO after `app:`", () => {
    const text = renderDraft({ ...meta, app: "vision", startUrl: false, needs: ["window", "tenant"], secrets: [] }, STEPS.slice(0, 1)).text;
    expect(text).toContain(
      "app: vision\n# TODO `app: vision` needs `window`, `tenant`: write them here before record (docs/plugins.md lists each kind's keys)\nsteps:\n",
    );
    expect(renderDraft({ ...meta, needs: [] }, STEPS.slice(0, 1)).text).not.toContain("needs");
  });
});

describe("the draft shown in docs/authoring.md", () => {
  test("is what the export in it gives, word for word", () => {
    const doc = readFileSync(join(import.meta.dir, "../../../docs/authoring.md"), "utf8");
    const section = doc.slice(doc.indexOf("## Drafts from manual test cases"));
    const shown = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const exported =
      "| Step Name | Description | Expected Result |\n| --- | --- | --- |\n| Step 1 | Go to /login | page shows Sign in |\n" +
      "| Step 2 | Log in as ada with password Tr0ub4dor | The dashboard opens |\n| Step 3 | Open the confirmation email in Outlook | |\n" +
      "| Step 4 | Press the “Sign out” button | page shows Signed out |\n";
    const seg = segment(readMarkdown(new TextEncoder().encode(exported)));
    if (!seg.ok) throw new Error(seg.message);
    const { steps, secrets } = redactSecrets(seg.steps);
    const { text } = renderDraft(
      { name: "Sign in and out", app: "web", startUrl: true, document: "login.md", shape: SHAPE_LABELS[seg.shape], out: "login.flow.yaml", secrets },
      steps.map((s) => firstPass(s, "web").draft),
    );
    expect(text).toBe(shown);
  });
});
