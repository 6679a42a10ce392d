// Loads one item of a flow's step list: a plain/rules/assert step parsed by the grammar, a
// structured step (`assert_xxx`, assert_no_secret_leak), or a repeat/when/foreach/in block.
// Refuses agent steps, later-version step keys and unknown keys by name. Pure: no fs, no env.
import { parseAssertion, parseStep } from "../grammar/index.ts";
import type { ParseResult, StepAst } from "../grammar/ast.ts";
import { diagnostic } from "../diagnostics/diagnostic.ts";
import { joinOr } from "../diagnostics/word-list.ts";
import { isMap, isScalar, keyName, spanOf, type Node, type Scalar } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import { loadSecretLeakVars, loadStructuredArgs, SECRET_LEAK_KEY } from "./structured.ts";
import { withEffectsOff } from "./effects.ts";
import { loadIn, type SurfaceSpec } from "./surfaces.ts";
import { AGENT_STEP_KEYS } from "./agent.ts";
import { neededCapabilities } from "./capabilities.ts";
import type { SurfaceKind } from "./surface-kinds.ts";
import { loadForeach, loadRepeat, loadWhen, parseInScalar, type BlockLoader, type FlowNode, type FlowStep, type Scope, type StepForm } from "./block.ts";
import type { StructuredKind } from "./structured.ts";
import type { SurfaceCatalog } from "./surface-kinds.ts";
import type { FlowSuiteDefaults } from "./flow-app.ts";

/** How a flow file is loaded. */
export interface LoadOptions {
  /** Whether plain steps must parse under the rules grammar now (rules mode, or auto with no model). */
  readonly plainStepsAreRules: boolean;
  /** Every app kind a flow may name: the built-in adapters and the project's (their keys, grammar, capabilities). */
  readonly catalog: SurfaceCatalog;
  /** Structured step kinds (`assert_xxx`) of the loaded assertion plugins, by step key. */
  readonly structuredKinds?: ReadonlyMap<string, StructuredKind>;
  /** The governing suite.yaml's defaults; absent when no suite governs the flow. */
  readonly suite?: FlowSuiteDefaults;
  /** The OS the flow would run on (`process.platform`): an adapter's `platforms` are checked against it. Absent: not checked. */
  readonly platform?: string;
}

/** Step keys of the flow format that later versions run; refused by name rather than ignored. */
const STEP_KEYS_LATER = [
  "assert_api",
  "assert_sql",
  "assert_spreadsheet",
  "assert_screenshot",
  "assert_no_secret_leak",
  "prompt",
  "assert_tool_call",
  "assert_no_tool_call",
] as const;
const STEP_KEYS = ["rules", "assert", "repeat", "when", "foreach"] as const;

export interface StepLoader extends BlockLoader {
  readonly options: LoadOptions;
  /** Every concrete step loaded so far, in file order; a new step's index is its position here. */
  readonly steps: FlowStep[];
  /** The flow's app kind (absent: multi-surface, or an app that did not load). */
  readonly kind: SurfaceKind | undefined;
  /** The flow's app as messages name it (its kind, or `multi-surface`). */
  readonly appName: string;
  readonly apps: Readonly<Record<string, SurfaceSpec>> | undefined;
  /** `apps:` was written but did not load: its own errors name why, so `in:` blocks are not reported again. */
  readonly appsUnloaded?: boolean;
}

export function loadItem(loader: StepLoader, item: Node, scope: Scope): FlowNode[] {
  const { source, problems, options } = loader;
  const asNodes = (step: FlowStep | undefined): FlowNode[] => (step ? [{ kind: "step", step }] : []);
  if (isScalar(item)) {
    if (typeof item.value !== "string") {
      problems.push(
        diagnostic("bad-value", "a step must be text or a one-key mapping", {
          span: spanOf(source, item),
          hint: 'quote it: `- "Type 42 into the \\"Age\\" field"`',
        }),
      );
      return [];
    }
    return asNodes(fromText(loader, item, "plain", scope));
  }
  if (isMap(item)) {
    const keys = item.items.map(keyName);
    if (keys.includes("when")) return loadWhen(loader, item, scope);
    if (keys.includes("in")) return loader.appsUnloaded ? [] : loadIn(loader, item, scope, loader.apps);
    if (keys.includes("effects") && keys.includes("rules") && item.items.length === 2)
      return withEffectsOff(source, item, problems, loader.steps, (text) => fromText(loader, text, "rules", scope));
    if (item.items.length !== 1) {
      problems.push(
        diagnostic("bad-value", "a step mapping must have exactly one key", {
          span: spanOf(source, item),
          hint: keys.includes("steps")
            ? "`steps:` goes with `when: <condition>` in a two-key mapping; `repeat:` and `foreach:` hold their `steps:` inside them"
            : "write one step per list item: `- rules: …` or `- assert: …`",
        }),
      );
      return [];
    }
    const pair = item.items[0]!;
    const key = keyName(pair);
    const value = pair.value as Node | null;
    if (key === "rules" || key === "assert") {
      if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "") {
        const empty = !value || (isScalar(value) && (value.value === null || value.value === ""));
        problems.push(
          diagnostic("bad-value", `\`${key}:\` takes the step's text`, {
            span: spanOf(source, (empty ? pair.key : value) as Node),
            hint: key === "rules" ? '- rules: Press the "Save" button' : "- assert: page shows Saved",
          }),
        );
        return [];
      }
      return asNodes(fromText(loader, value, key, scope));
    }
    if (key === "repeat") return loadRepeat(loader, pair, scope);
    if (key === "foreach") return loadForeach(loader, pair, scope);
    const kind = options.structuredKinds?.get(key);
    // Inside an `in:` block the surface's app decides what the step may need (a structured-only surface has no UI).
    const surfaceApp = scope.surface !== undefined ? loader.apps?.[scope.surface]?.app : undefined;
    const appName = surfaceApp ?? loader.appName;
    const appKind = surfaceApp !== undefined ? options.catalog.kinds.get(surfaceApp) : loader.kind;
    const noUi = appKind?.steps === "structured";
    if (key === SECRET_LEAK_KEY && loader.apps !== undefined) {
      problems.push(
        diagnostic(
          "unsupported-step",
          `\`${key}\` is refused in multi-surface flows: which surfaces' text and responses form its corpus is not defined yet for mixed surfaces`,
          {
            span: spanOf(source, pair.key as Node),
            hint: "check for the leak in a single-surface flow of the suite",
          },
        ),
      );
      return [];
    }
    if (key === SECRET_LEAK_KEY && loader.kind !== undefined && loader.kind.leakCorpus !== true) {
      const corpora = [...options.catalog.kinds.values()]
        .filter((k) => k.leakCorpus === true)
        .map((k) => k.kind)
        .join(" or ");
      problems.push(
        diagnostic("unsupported-step", `\`${key}\` scans what ${corpora} flows observe; an \`app: ${loader.appName}\` flow has no corpus it can search`, {
          span: spanOf(source, pair.key as Node),
          hint: `move the check into a ${corpora} flow of the suite`,
        }),
      );
      return [];
    }
    const caps = appKind?.capabilities;
    const missing = kind?.needs?.filter((c) => caps !== undefined && !caps.includes(c)) ?? [];
    if (missing.length > 0) {
      problems.push(
        diagnostic(
          "unsupported-step",
          surfaceApp !== undefined
            ? `\`${key}\` needs a surface with the ${missing.join(", ")} capability, which the \`app: ${surfaceApp}\` surface \`${scope.surface}\` does not have`
            : `\`${key}\` needs a surface with the ${missing.join(", ")} capability, which an \`app: ${loader.appName}\` flow does not have`,
          {
            span: spanOf(source, pair.key as Node),
            hint: noUi
              ? surfaceApp !== undefined
                ? `an \`app: ${surfaceApp}\` surface has no UI; put this step in the block of a surface that has the capability`
                : `an \`app: ${loader.appName}\` flow has no UI; put this step in a flow whose app has the capability`
              : "use this step in a flow whose app can do it",
          },
        ),
      );
      return [];
    }
    if (key === SECRET_LEAK_KEY || kind) {
      const args =
        key === SECRET_LEAK_KEY
          ? loadSecretLeakVars(source, pair.key as Node, value, problems)
          : loadStructuredArgs(source, key, pair.key as Node, value, kind!, scope.each, problems);
      if (args === undefined) return [];
      const ast: StepAst = key === SECRET_LEAK_KEY ? { kind: "no_secret_leak", vars: args as string[] } : { kind: "structured", key, args };
      const text = key === SECRET_LEAK_KEY ? `${key}: ${(args as string[]).map((v) => `\${${v}}`).join(", ")}` : `${key}: ${JSON.stringify(args)}`;
      const step: FlowStep = {
        index: loader.steps.length,
        form: "structured",
        text,
        span: spanOf(source, pair.key as Node),
        ast,
        ...(scope.surface ? { surface: scope.surface } : {}),
      };
      loader.steps.push(step);
      return asNodes(step);
    }
    if ((AGENT_STEP_KEYS as readonly string[]).includes(key)) {
      problems.push(
        diagnostic(
          "unsupported-step",
          `\`${key}:\` is an agent step (agent grammar); an \`app: ${appName}\` flow drives a surface with \`rules:\`/\`assert:\` steps (rules grammar)`,
          {
            span: spanOf(source, pair.key as Node),
            hint: "move this step into an agent flow (`app: agent`)",
          },
        ),
      );
      return [];
    }
    if ((STEP_KEYS_LATER as readonly string[]).includes(key)) {
      problems.push(
        diagnostic("unsupported-feature", `\`${key}:\` steps are part of the flow format but this version of flowproof does not run them yet`, {
          span: spanOf(source, pair.key as Node),
          hint: "use `rules:` and `assert:` steps for now",
        }),
      );
      return [];
    }
    const guess = nearest(key, [...STEP_KEYS, ...STEP_KEYS_LATER]);
    problems.push(
      diagnostic("unknown-key", `unknown step key \`${key}\``, {
        span: spanOf(source, pair.key as Node),
        hint: `${guess ? `did you mean \`${guess}\`? ` : ""}a step is plain text, \`rules: <step>\`, \`assert: <assertion>\`, or a \`repeat:\`, \`when:\` or \`foreach:\` block`,
      }),
    );
    return [];
  }
  problems.push(diagnostic("bad-value", "a step must be text or a one-key mapping", { span: spanOf(source, item), hint: '- rules: Click "Save"' }));
  return [];
}

function fromText(loader: StepLoader, node: Scalar, form: StepForm, scope: Scope): FlowStep | undefined {
  const surfaceApp = scope.surface !== undefined ? loader.apps?.[scope.surface]?.app : undefined;
  const kind = surfaceApp !== undefined ? loader.options.catalog.kinds.get(surfaceApp) : loader.kind;
  if (kind?.steps === "structured") {
    const list = joinOr([...(loader.options.structuredKinds?.keys() ?? []), SECRET_LEAK_KEY].map((k) => `\`${k}:\``));
    loader.problems.push(
      diagnostic(
        "unsupported-step",
        surfaceApp !== undefined
          ? `surface \`${scope.surface}\` is \`app: ${surfaceApp}\`: it has no UI, so its blocks run only structured steps`
          : `an \`app: ${kind.kind}\` flow has no UI, so it runs only structured steps`,
        {
          span: spanOf(loader.source, node),
          hint:
            surfaceApp !== undefined
              ? `use ${list} steps here, or move this step into the block of a surface with a UI`
              : `use ${list} steps, or make this a flow of an app with a UI`,
        },
      ),
    );
    return undefined;
  }
  // A surface's steps parse in its own vocabulary (`Go to VA01`, F-keys, a calculator's `display shows`).
  const ctx = loader.grammar(scope.surface);
  const parsed = parseInScalar(
    loader,
    node,
    scope,
    (text): ParseResult<StepAst> =>
      form === "assert"
        ? mapOk(parseAssertion(text, ctx), (assertion) => ({ kind: "assert", assertion }) as StepAst)
        : // Under model authoring a plain step is intent, grounded at record time (src/authoring/) —
          // except a shape the grammar refuses on purpose, which is never handed to the model.
          form === "plain" && !loader.options.plainStepsAreRules
          ? intentUnlessRefused(text, parseStep(text, ctx))
          : parseStep(text, ctx),
  );
  if (!parsed) return undefined;
  // Every step is checked against what its surface declares it can do, before anything runs.
  const missing = kind === undefined ? [] : neededCapabilities(parsed.value).filter((c) => !kind.capabilities.includes(c));
  if (missing.length > 0 && kind) {
    loader.problems.push(
      diagnostic(
        "unsupported-step",
        `\`${parsed.text}\` needs the ${missing.join(" and ")} capabilit${missing.length > 1 ? "ies" : "y"}, which ${surfaceApp !== undefined ? `surface \`${scope.surface}\` (\`app: ${kind.kind}\`)` : kind.title !== undefined ? `${kind.title} (\`app: ${kind.kind}\`)` : `an \`app: ${kind.kind}\` surface`} does not have`,
        {
          span: parsed.span,
          hint:
            kind.capabilities.length > 0
              ? `\`app: ${kind.kind}\` can do: ${kind.capabilities.join(", ")}; write a step it can run`
              : `\`app: ${kind.kind}\` declares no capabilities; write a step it can run`,
        },
      ),
    );
    return undefined;
  }
  const step: FlowStep = {
    index: loader.steps.length,
    form,
    text: parsed.text,
    span: parsed.span,
    ast: parsed.value,
    ...(scope.surface ? { surface: scope.surface } : {}),
  };
  loader.steps.push(step);
  return step;
}

function intentUnlessRefused(text: string, rules: ParseResult<StepAst>): ParseResult<StepAst> {
  return !rules.ok && rules.error.code === "refused-step" ? rules : { ok: true, value: { kind: "intent", text } };
}

function mapOk<T, U>(r: ParseResult<T>, f: (t: T) => U): ParseResult<U> {
  return r.ok ? { ok: true, value: f(r.value) } : r;
}
