// No document text makes author-from-doc backtrack: each stage a cell's text passes through (the
// Markdown, CSV and Word readers, segmenting, password redaction, the first pass over the grammar,
// the draft and its check) answers 10^5 characters of adversarial text within the bound.
import { describe, expect, test } from "bun:test";
import { adversarialInputs, slowInputs } from "../../../test/support/fuzz.ts";
import { at, loadFlowText } from "../../../test/support/surfaces.ts";
import { readMarkdown } from "./read-markdown.ts";
import { readCsv } from "./read-sheet.ts";
import { htmlBlocks } from "./read-docx.ts";
import { segment, type SourceStep } from "./segment.ts";
import { findSecretValues, redactSecrets } from "./secrets.ts";
import { firstPass } from "./outcome.ts";
import { renderDraft } from "./draft.ts";
import { anotherApp } from "./other-app.ts";

const PREFIXES = [
  "password ",
  "password: ",
  "Type ",
  'Type a into the "',
  'Enter "',
  "the password is ",
  "Step 1: ",
  "Description: ",
  "1. ",
  "<p>",
  "<a ",
  "&#",
  "| ",
  "**",
  "`",
  "export to ",
  "microsoft ",
  "check the ",
];
const SUFFIXES = [" as the password", '" field', " excel", " outlook", "\n2. a", ":", " |", "**"];
const AROUND = [
  ["Type ", ' into the "Password" field'],
  ["Use ", " as the new password"],
  ['password is "', '"'],
  ["<b>", "</b>"],
] as const;
const inputs = adversarialInputs(PREFIXES, SUFFIXES, AROUND);
/** The whole pipeline is slower per input: the shapes that reach its password and grammar forms. */
const pipelineInputs = adversarialInputs(["password ", 'Type a into the "', "<a "], [" as the password"], [["Type ", ' into the "Password" field']]);
const web = at("web");
const enc = (s: string) => new TextEncoder().encode(s);

/** A one-step table with `text` in every column, through segmenting, redaction, the first pass and the draft check. */
function pipeline(text: string): void {
  const seg = segment([
    {
      kind: "table",
      rows: [
        ["Step", "Action", "Test data", "Expected result"],
        ["1", text, "", text],
      ],
    },
  ]);
  if (!seg.ok) return;
  const { steps, secrets } = redactSecrets(seg.steps);
  const drafts = steps.map((s: SourceStep) => firstPass(s, "web", web).draft);
  const { text: draft } = renderDraft(
    { name: "fuzz", app: "web", startUrl: true, document: "doc.csv", shape: "Generic", out: "fuzz.flow.yaml", secrets },
    drafts,
  );
  loadFlowText("fuzz.flow.yaml", draft, { plainStepsAreRules: false });
}

describe("author-from-doc answers 10^5 characters of adversarial text in time", () => {
  test("the first pass: segmenting, redaction, the grammar, the draft", async () => expect(await slowInputs(pipelineInputs, pipeline)).toEqual([]), 600_000);
  test("segmenting labelled lines", async () => {
    expect(
      await slowInputs(adversarialInputs(["Step 1: ", "Description: ", "1. "], [":"]), (t) =>
        segment([{ kind: "lines", lines: [t, `Description: ${t}`, `Step 1: ${t}`] }]),
      ),
    ).toEqual([]);
  }, 600_000);
  test("password values and other apps, word by word", async () => {
    expect(await slowInputs(inputs, (t) => [findSecretValues(t), anotherApp(t, ["web"])])).toEqual([]);
  }, 600_000);
  test("a Markdown table and its lines", async () => {
    expect(
      await slowInputs(adversarialInputs(["| ", "**", "`", "# "], [" |", "**"]), (t) =>
        readMarkdown(enc(`| Step | Expected Result |\n| --- | --- |\n| ${t} | ${t} |\n${t}\n|\n${t}`)),
      ),
    ).toEqual([]);
  }, 600_000);
  test("a CSV cell", async () => {
    expect(
      await slowInputs(inputs.slice(0, 200), (t) => readCsv(enc(`Step,Expected Result\n"${t.replaceAll('"', '""')}",${t.replace(/[",\r\n]/g, "")}\n`))),
    ).toEqual([]);
  }, 600_000);
  test("a Word document's HTML", async () => {
    const html = (t: string) => t.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    expect(
      await slowInputs(adversarialInputs(["<p>", "<a ", "&#"], ["</p>"]), (t) =>
        htmlBlocks(`<p>${html(t)}</p><table><tr><td>${html(t)}</td></tr></table><p>${html(t)}</p>`),
      ),
    ).toEqual([]);
  }, 600_000);
});
