// `flowproof author-from-doc <doc> --app <kind> --name <flow name> -o <path>`: parse flags →
// commands/author-from-doc → render. Exit 0 with the draft written, 2 when it could not be.
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { authorFromDoc, draftKinds, type AuthorFromDocResult } from "../commands/author-from-doc.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

const USAGE = 'usage: flowproof author-from-doc <doc> --app <kind> --name "<flow name>" -o <draft.flow.yaml> [--json]';

export async function authorFromDocCommand(args: CommandArgs<"author-from-doc">, io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  const [doc, ...extra] = args.positional;
  if (!doc || extra.length > 0) throw new UsageError("author-from-doc takes exactly one document", USAGE);
  const { app, name, out, json } = args.flags;
  if (app === undefined)
    throw new UsageError(`author-from-doc needs --app (${draftKinds().join(", ")}, or a project plugin's kind whose steps are UI steps)`, USAGE);
  if (name === undefined || name.trim() === "") throw new UsageError("author-from-doc needs --name, the flow's name", USAGE);
  if (out === undefined) throw new UsageError("author-from-doc needs -o/--out, where to write the draft", USAGE);
  const r = await authorFromDoc({ doc, app, name: name.trim(), out, lifecycle, log: (line) => io.err(line) });
  if (json) io.out(JSON.stringify(r, null, 2));
  else renderHuman(r, io);
  return EXIT.pass;
}

const LABELS: Readonly<Record<AuthorFromDocResult["steps"][number]["outcome"], string>> = {
  rules: "rules",
  translated: "translated",
  intent: "plain (TODO)",
  "another-app": "another app",
  refused: "refused",
};

function renderHuman(r: AuthorFromDocResult, io: Io): void {
  io.out(
    `DRAFT written to ${r.draft}: ${r.steps.length} ${r.steps.length === 1 ? "step" : "steps"} from ${r.document.path} (${r.document.shape_label})${r.model ? `, ${r.model.calls} model ${r.model.calls === 1 ? "call" : "calls"} (${r.model.model})` : ""}`,
  );
  const width = Math.max(...Object.values(LABELS).map((l) => l.length));
  for (const s of r.steps) {
    const what =
      s.outcome === "rules" || s.outcome === "translated"
        ? (s.rules ?? []).join(" / ")
        : s.outcome === "another-app"
          ? `${s.another_app}: ${s.source}`
          : s.outcome === "refused"
            ? `${s.source} (${s.refusal?.hint ?? ""})`
            : (s.intent ?? s.source);
    const expected = s.expected ? (s.expected.assert ? `; assert: ${s.expected.assert}` : `; expected: TODO`) : "";
    io.out(`  ${String(s.step).padStart(2)} ${LABELS[s.outcome].padEnd(width)}  ${what}${expected}`);
  }
  for (const w of r.warnings ?? []) io.err(`warning: ${w}`);
  const plain = r.steps.filter((s) => s.outcome === "intent").length;
  if (plain > 0 && !r.model) {
    io.err(
      `warning: ${plain} plain ${plain === 1 ? "step needs" : "steps need"} an authoring model to record (set FLOWPROOF_AI_*; see docs/cli.md); without one, validate and record read plain steps with the rules grammar and refuse them — or rewrite them as \`rules:\` steps`,
    );
  }
  if (r.secrets.length > 0) io.out(`Set ${r.secrets.join(", ")} in the environment before record: the document's passwords were not copied into the draft.`);
  io.out(`This is a draft to review, not a test yet: nothing was run. Check it and its ${r.todo} TODO ${r.todo === 1 ? "marker" : "markers"}, then record it:`);
  io.out(`  ${r.next}`);
}
