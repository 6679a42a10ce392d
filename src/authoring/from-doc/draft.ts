// Writes the draft flow: a YAML flow whose steps carry the outcome of each manual step, with a
// `# TODO` comment wherever a person must decide. Pure: outcomes in, text (and which line holds
// which step) out.
import YAML from "yaml";
import type { DraftStep } from "./outcome.ts";
import type { SecretVariable } from "./secrets.ts";

export interface DraftMeta {
  readonly name: string;
  /** The app kind (`app:` of the flow): any kind whose steps are UI steps. */
  readonly app: string;
  /** The kind takes the core's start page (`url:` in its keys schema): the draft starts from `${APP_URL}`. */
  readonly startUrl?: boolean;
  /** Keys the kind requires that the draft cannot fill (`app.command`, `window`): one TODO naming them. */
  readonly needs?: readonly string[];
  /** The document, as the person named it. */
  readonly document: string;
  /** The export shape, as printed (`HP ALM / Quality Center`). */
  readonly shape: string;
  /** Where the draft goes, as the person named it (for the `record` command to run next). */
  readonly out: string;
  readonly secrets: readonly SecretVariable[];
}

/** What a line of the draft holds: a `rules:` step, a plain step or an `assert:` of one draft step. */
export interface DraftLine {
  /** Index into the `steps` rendered. */
  readonly step: number;
  readonly kind: "rules" | "intent" | "assert";
}

/** The variable a draft of a kind with a start page starts from. */
export const START_URL_VARIABLE = "APP_URL";

const scalar = (text: string): string => YAML.stringify(text, { lineWidth: 0 }).trimEnd();
/** Comment text on one line: a comment cannot span lines. */
const comment = (text: string): string => `# ${text.replace(/\s+/g, " ").trim()}`;

/** The draft's text, and the 1-based line of each step it writes. */
export function renderDraft(meta: DraftMeta, steps: readonly DraftStep[]): { text: string; lines: Map<number, DraftLine> } {
  const out: string[] = [];
  const lines = new Map<number, DraftLine>();
  const emit = (text: string, line?: DraftLine) => {
    out.push(text);
    if (line) lines.set(out.length, line);
  };
  emit(
    comment(`DRAFT written by \`flowproof author-from-doc\` from ${meta.document} (${meta.shape}, ${steps.length} ${steps.length === 1 ? "step" : "steps"}).`),
  );
  emit(comment("Nothing here has been run. Review it and every TODO, then record it against the app:"));
  emit(`#   flowproof record ${meta.out}`);
  if (meta.secrets.length > 0) {
    emit(comment(`The document's passwords are not copied here: set ${meta.secrets.map((s) => s.variable).join(", ")} in the environment before record.`));
  }
  emit(`name: ${scalar(meta.name)}`);
  emit(`app: ${meta.app}`);
  if (meta.startUrl) {
    emit(comment(`TODO the page the test case starts on: set ${START_URL_VARIABLE}, or write the URL here`));
    emit(`url: \${${START_URL_VARIABLE}}`);
  }
  if (meta.needs && meta.needs.length > 0) {
    emit(
      comment(
        `TODO \`app: ${meta.app}\` needs ${meta.needs.map((k) => `\`${k}\``).join(", ")}: write ${meta.needs.length === 1 ? "it" : "them"} here before record (docs/plugins.md lists each kind's keys)`,
      ),
    );
  }
  emit("steps:");
  steps.forEach((d, i) => {
    const s = d.source;
    const item = (text: string, kind: DraftLine["kind"]) => emit(`  - ${text}`, { step: i, kind });
    const note = (text: string) => emit(`  ${comment(text)}`);
    note(`${s.index}${s.name ? ` (${s.name})` : ""}: ${s.action}${s.data ? ` (data: ${s.data})` : ""}`);
    for (const secret of meta.secrets)
      if (secret.steps.includes(s.index)) note(`TODO set ${secret.variable} before record: the document's value was not copied into this draft`);
    switch (d.outcome) {
      case "rules":
        for (const r of d.rules ?? []) item(`rules: ${scalar(r)}`, "rules");
        break;
      case "translated":
        note("translated by the model: check it says what the step means");
        for (const r of d.rules ?? []) item(`rules: ${scalar(r)}`, "rules");
        break;
      case "intent":
        note("TODO plain step: record grounds it with the authoring model (FLOWPROOF_AI_*), or rewrite it as a `rules:` step");
        if (d.note) note(`(${d.note})`);
        item(scalar(d.intent ?? s.action), "intent");
        break;
      case "another-app":
        note(
          `TODO (another app: ${d.anotherApp}): not a step of this flow; do it another way (an assert_api, assert_sql or assert_spreadsheet step, a separate flow) or drop it`,
        );
        break;
      case "refused":
        note(`TODO refused by the grammar: ${d.refusal?.message ?? ""} Write instead: ${d.refusal?.hint ?? ""}`);
        break;
    }
    if (d.note && d.outcome !== "intent") note(`(${d.note})`);
    const e = d.expected;
    if (!e || s.expected === undefined) return;
    switch (e.outcome) {
      case "assert":
        item(`assert: ${scalar(e.assert ?? s.expected)}`, "assert");
        break;
      case "translated":
        note(`expected result translated by the model: ${s.expected}`);
        item(`assert: ${scalar(e.assert ?? s.expected)}`, "assert");
        break;
      case "todo":
        note(`TODO expected: ${s.expected}`);
        break;
      case "another-app":
        note(`TODO (another app: ${e.anotherApp}) expected: ${s.expected}`);
        break;
    }
  });
  return { text: `${out.join("\n")}\n`, lines };
}
