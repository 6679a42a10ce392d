// `flowproof author-from-doc <doc>`: a manual test case exported from a test-management tool →
// a DRAFT flow for a person to review and then `record`. Reads and segments the document without
// a model, translates what the grammar did not take with one model call per step when a model is
// configured, and checks the draft the way `validate` would. Never runs the app; never prints.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { FlowproofError, diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { makeDir, writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { loadFlowText } from "../spec/flow.ts";
import { planFlow } from "../engine/plan.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { createModelClient, resolveProvider, type ModelClient } from "../authoring/provider.ts";
import { readDocument, type DocumentFormat } from "../authoring/from-doc/read-document.ts";
import { segment, type SourceStep } from "../authoring/from-doc/segment.ts";
import { SHAPE_LABELS, type ShapeId } from "../authoring/from-doc/shapes.ts";
import { redactSecrets } from "../authoring/from-doc/secrets.ts";
import { applyTranslation, firstPass, type DraftStep, type ExpectedOutcome, type StepOutcome } from "../authoring/from-doc/outcome.ts";
import { translateStep } from "../authoring/from-doc/translate.ts";
import { renderDraft } from "../authoring/from-doc/draft.ts";
import { flowLoadOptions, type PluginView } from "./flow-load.ts";
import { createRunContext, loadPluginsFor, surfaceCatalog } from "./project-plugins.ts";
import { grammarContext, keyNamesOf, keysSchemaOf, type SurfaceCatalog, type SurfaceKind } from "../spec/surface-kinds.ts";
import { withDefaultStopSignals } from "../plugins/lifecycle.ts";
import { lifecycleOf, type CommonOptions } from "./common.ts";

export interface AuthorFromDocOptions extends Pick<CommonOptions, "env" | "log" | "lifecycle"> {
  /** The exported test case: .pdf, .docx, .xlsx, .csv or .md. */
  readonly doc: string;
  /** The app kind the test case drives: a built-in or a project plugin's kind whose steps are UI steps. */
  readonly app: string;
  /** The flow's `name:`. */
  readonly name: string;
  /** Where the draft goes; an existing file is never overwritten. */
  readonly out: string;
}

/** One manual step and what it became (the `--json` shape, documented in docs/cli.md). */
export interface FromDocStepReport {
  /** 1-based, in document order. */
  readonly step: number;
  readonly name?: string;
  /** Where in the document: `table 1, row 3`, `line 12`. */
  readonly where: string;
  /** The action as the document wrote it, passwords already replaced by `${VAR}`. */
  readonly source: string;
  readonly data?: string;
  readonly outcome: StepOutcome;
  readonly rules?: readonly string[];
  readonly intent?: string;
  readonly another_app?: string;
  readonly refusal?: { readonly message: string; readonly hint: string };
  readonly note?: string;
  readonly expected?: { readonly source: string; readonly outcome: ExpectedOutcome; readonly assert?: string; readonly another_app?: string };
  /** Variables standing for the document's passwords in this step. */
  readonly secrets?: readonly string[];
}

export interface AuthorFromDocResult {
  /** The draft written, as `out` named it. */
  readonly draft: string;
  readonly document: { readonly path: string; readonly format: DocumentFormat; readonly shape: ShapeId; readonly shape_label: string };
  /** The model that translated steps, or null when none is configured. */
  readonly model: { readonly backend: string; readonly model: string; readonly calls: number } | null;
  readonly steps: readonly FromDocStepReport[];
  /** Variables to set before record (the document's passwords, never their values). */
  readonly secrets: readonly string[];
  /** `# TODO` markers in the draft. */
  readonly todo: number;
  /** Problems the draft still has where it was written (an app kind this OS cannot run). */
  readonly warnings?: readonly string[];
  /** The command to run after review. */
  readonly next: string;
}

/**
 * The app kinds a draft can be written for: those whose steps are UI steps (a draft holds plain,
 * `rules:` and `assert:` steps) and that a flow names as `app: <kind>` (not a kind named by the
 * keys written inside `app:`, which a draft cannot know).
 */
export function draftKinds(catalog: SurfaceCatalog = surfaceCatalog()): string[] {
  return [...catalog.kinds.values()].filter((k) => (k.steps ?? "ui") === "ui" && !k.keys?.inApp?.length).map((k) => k.kind);
}

/** What the draft writes beside `app:` for a kind: the start page when its keys take `url`, and the keys it requires that a draft cannot fill. */
function draftKeys(kind: SurfaceKind): { startUrl: boolean; needs: string[] } {
  const required = (keysSchemaOf(kind)["required"] as readonly string[] | undefined) ?? [];
  return { startUrl: keyNamesOf(kind).includes("url"), needs: required.filter((k) => k !== "url") };
}

/** Writes the draft; throws a FlowproofError (exit 2) when the document cannot be read or segmented. */
export async function authorFromDoc(options: AuthorFromDocOptions): Promise<AuthorFromDocResult> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  // The project's plugins, found from where the draft goes: their kinds can be drafted, and the draft is checked with them.
  const lifecycle = lifecycleOf(options);
  const context = createRunContext(await loadPluginsFor(options.out, env), lifecycle);
  const catalog = context.catalog;
  const drafted = draftKinds(catalog);
  const kind = catalog.kinds.get(options.app);
  if (!kind || !drafted.includes(options.app)) {
    const why = !kind
      ? ""
      : (kind.steps ?? "ui") !== "ui"
        ? `: its steps are not UI steps (\`steps: ${kind.steps ?? "ui"}\`), which a draft cannot hold`
        : ": a flow names it by the keys written inside `app:`, which a draft cannot know";
    throw new FlowproofError(
      diagnostic("usage", `--app must be one of ${drafted.join(", ")}, not ${JSON.stringify(options.app)}${why}`, {
        hint: "the kind of app the test case drives, as a flow's `app:` names it (a project plugin's kind too)",
      }),
    );
  }
  if (existsSync(options.out)) {
    throw new FlowproofError(
      diagnostic("usage", `${options.out} already exists; author-from-doc never overwrites a flow`, {
        hint: "pass another --out path, or delete the file first",
      }),
    );
  }
  // A misconfigured model is an error before any work, never a silent switch to no model.
  const provider = resolveProvider(env);
  const client: ModelClient | undefined = provider.configured ? createModelClient(provider.config) : undefined;

  // Reading, segmenting and checking a large document are long synchronous stretches, and nothing
  // is owned yet: a stop signal ends the process at once rather than after them.
  const authored = await withDefaultStopSignals(lifecycle, async () => {
    const { format, blocks } = await readDocument(options.doc, env);
    const segmented = segment(blocks);
    if (!segmented.ok) throw new FlowproofError(diagnostic("document-no-steps", `${options.doc}: ${segmented.message}`, { hint: segmented.hint }));
    const { steps: sources, secrets } = redactSecrets(segmented.steps);

    let calls = 0;
    const drafts: DraftStep[] = [];
    const grammar = grammarContext(catalog, kind, options.app);
    for (const source of sources) {
      const { draft, pending } = firstPass(source, options.app, grammar, kind.title);
      if (client && (pending.action || pending.expected)) {
        log(`[TRANSLATE] ${source.index}/${sources.length}: ${source.action}`);
        const t = await translateStep(client, { step: source, pending, app: options.app, grammar, flowName: options.name });
        calls += t.calls;
        drafts.push(applyTranslation(draft, pending, t.translation));
      } else drafts.push(draft);
    }

    const meta = {
      name: options.name,
      app: options.app,
      ...draftKeys(kind),
      document: options.doc,
      shape: SHAPE_LABELS[segmented.shape],
      out: options.out,
      secrets,
    };
    const { text, warnings } = checkedDraft(meta, drafts, options.out, context);
    if (
      !drafts.some(
        (d) =>
          d.outcome === "rules" ||
          d.outcome === "translated" ||
          d.outcome === "intent" ||
          d.expected?.outcome === "assert" ||
          d.expected?.outcome === "translated",
      )
    ) {
      throw new FlowproofError(
        diagnostic("document-no-steps", `${options.doc}: none of its ${sources.length} steps can become a step of a flow (${describeOutcomes(drafts)})`, {
          hint: "a flow needs at least one step of this app; write the test case's steps in this app, or author the flow by hand",
        }),
      );
    }
    return { format, segmented, secrets, drafts, calls, text, warnings };
  });
  const { format, segmented, secrets, drafts, calls, text, warnings } = authored;
  makeDir(dirname(resolve(options.out)), "the draft");
  writeFileAtomic(options.out, text);
  return {
    draft: options.out,
    document: { path: options.doc, format, shape: segmented.shape, shape_label: SHAPE_LABELS[segmented.shape] },
    model: client ? { backend: client.backend, model: client.model, calls } : null,
    steps: drafts.map((d) =>
      report(
        d,
        secrets.filter((s) => s.steps.includes(d.source.index)).map((s) => s.variable),
      ),
    ),
    secrets: secrets.map((s) => s.variable),
    todo: text.split("\n").filter((l) => /^\s*# TODO\b/.test(l)).length,
    ...(warnings.length > 0 ? { warnings } : {}),
    next: `flowproof record ${options.out}`,
  };
}

/** How many times the draft is re-checked after demoting the steps `validate` would refuse. */
const MAX_CHECKS = 3;

/**
 * The draft's text once it loads and plans the way `validate` reads it with a model configured:
 * a `rules:` step or assertion this version refuses (a form the grammar parses but cannot run
 * here) goes back to a plain step or a TODO, with the reason. What no step explains (the app kind
 * on this OS) is returned as a warning.
 */
function checkedDraft(meta: Parameters<typeof renderDraft>[0], drafts: DraftStep[], file: string, view: PluginView): { text: string; warnings: string[] } {
  for (let round = 0; ; round++) {
    const { text, lines } = renderDraft(meta, drafts);
    const problems = draftProblems(file, text, view);
    const unplaced: Diagnostic[] = [];
    let demoted = false;
    for (const p of problems) {
      const at = p.span ? lines.get(p.span.line) : undefined;
      if (!at || round >= MAX_CHECKS) {
        unplaced.push(p);
        continue;
      }
      const d = drafts[at.step]!;
      const note = `flowproof validate: ${p.message}`;
      if (at.kind === "assert" && d.expected) drafts[at.step] = { ...d, expected: { outcome: "todo" }, note };
      else if (at.kind === "rules") {
        const { rules: _rules, ...rest } = d;
        drafts[at.step] = { ...rest, outcome: "intent", intent: d.source.data ? `${d.source.action} (data: ${d.source.data})` : d.source.action, note };
      } else {
        unplaced.push(p);
        continue;
      }
      demoted = true;
    }
    if (!demoted) return { text, warnings: unplaced.map((p) => `${p.span ? `${file}:${p.span.line}:${p.span.column}: ` : ""}${p.message}`) };
  }
}

function draftProblems(file: string, text: string, view: PluginView): readonly Diagnostic[] {
  const loaded = loadFlowText(resolve(file), text, flowLoadOptions(view, false));
  if (!loaded.ok) return loaded.diagnostics;
  const plan = planFlow(loaded.flow, DEFAULT_STEP_TIMEOUT_MS);
  return plan.ok ? [] : plan.diagnostics;
}

function describeOutcomes(drafts: readonly DraftStep[]): string {
  const counts = new Map<string, number>();
  for (const d of drafts) counts.set(d.outcome, (counts.get(d.outcome) ?? 0) + 1);
  return [...counts.entries()].map(([k, n]) => `${n} ${k}`).join(", ");
}

function report(d: DraftStep, secrets: readonly string[]): FromDocStepReport {
  const s: SourceStep = d.source;
  const e = d.expected;
  return {
    step: s.index,
    ...(s.name !== undefined ? { name: s.name } : {}),
    where: s.where,
    source: s.action,
    ...(s.data !== undefined ? { data: s.data } : {}),
    outcome: d.outcome,
    ...(d.rules ? { rules: d.rules } : {}),
    ...(d.intent !== undefined ? { intent: d.intent } : {}),
    ...(d.anotherApp ? { another_app: d.anotherApp } : {}),
    ...(d.refusal ? { refusal: d.refusal } : {}),
    ...(d.note ? { note: d.note } : {}),
    ...(e && s.expected !== undefined
      ? {
          expected: {
            source: s.expected,
            outcome: e.outcome,
            ...(e.assert ? { assert: e.assert } : {}),
            ...(e.anotherApp ? { another_app: e.anotherApp } : {}),
          },
        }
      : {}),
    ...(secrets.length > 0 ? { secrets } : {}),
  };
}
