// Loads a `*.flow.yaml` into a typed Flow with spans on every step, collecting every problem of
// the file (never stopping at the first). Calls the grammar once per step; foreach is expanded
// here, repeat/when are kept as blocks (see block.ts). Pure: no fs, no env, no clock.
import { createHash } from "node:crypto";
import { parseTemplate } from "../grammar/index.ts";
import type { GrammarError, Template } from "../grammar/ast.ts";
import { diagnostic, type Diagnostic, type SourceSpan } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, isSeq, keyName, parseYaml, spanInScalar, spanOf, type Node, type Scalar, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import { loadRedact, type FlowRedactionRule } from "./redact.ts";
import { loadSecretLeakVars, SECRET_LEAK_KEY } from "./structured.ts";
import { loadSuiteKeys, type SuiteKeys } from "./suite-keys.ts";
import { settleSuiteKeys } from "./suite.ts";
import { loadEffects } from "./effects.ts";
import { loadExpect, type ExpectedFailure } from "./expect.ts";
import { loadApps, type SurfaceSpec } from "./surfaces.ts";
import { requiredString } from "./fields.ts";
import { agentRunStep, loadAgentStep, type AgentStepSpec } from "./agent.ts";
import { loadAdapterKeys, type KeyPair } from "./adapter-keys.ts";
import { article, grammarContext, inAppKind, keyNamesOf, topKeysOf, requires, type SurfaceCatalog, type SurfaceKind } from "./surface-kinds.ts";
import { loadSharedKeys, MULTI_SURFACE, resolveApp, foreignKey, withSuiteDefaults } from "./flow-app.ts";
import { checkDragsAsserted, type FlowNode, type FlowStep } from "./block.ts";
import { loadItem, type StepLoader } from "./flow-step.ts";
import { LIMITS } from "../diagnostics/limits.ts";

export type { FlowSuiteDefaults } from "./flow-app.ts";
export { MULTI_SURFACE } from "./flow-app.ts";
export type { FlowCondition, FlowNode, FlowStep, RepeatBlock, StepForm, WhenBlock } from "./block.ts";

export interface Flow extends SuiteKeys {
  readonly file: string;
  readonly name: string;
  /** The app kind (an adapter's `kind`), or "multi" for a flow with `apps:`. */
  readonly app: string;
  readonly url?: Template;
  /**
   * Every concrete step in file order: foreach passes expanded, and each step of a repeat/when
   * body once. For a flow without repeat/when this is also the order steps run in.
   */
  readonly steps: readonly FlowStep[];
  /** `redact:` rules (copied into the trace header at record). */
  readonly redact?: readonly FlowRedactionRule[];
  /**
   * The adapter's own keys as written (plain JSON, `${…}` references raw): `browser:`,
   * `connection:`, `window:`, … and the keys of `app:` written as a mapping. In a multi-surface
   * flow, the top-level keys its surfaces share. See docs/plugins.md, "Keys".
   */
  readonly keys?: Readonly<Record<string, unknown>>;
  /** The step list as it runs: concrete steps and the repeat/when blocks the recorder expands. */
  readonly body: readonly FlowNode[];
  /** `sha256:<hex>` of the file text, recorded in the trace header. */
  readonly hash: string;
  /** Named surfaces of a multi-surface flow (`apps:`); then `app` is "multi" and every step has a `surface`. */
  readonly apps?: Readonly<Record<string, SurfaceSpec>>;
  readonly effects?: "strict" | "off"; // `effects:` when not the default `on` (copied into the trace header)
  /** `expect: {fail: …}`: a known failure the flow declares (copied into the trace header with the step that failed). */
  readonly expect?: ExpectedFailure;
}

export type LoadResult =
  | { readonly ok: true; readonly flow: Flow }
  /** `steps` holds the steps that did parse, so callers can check them further and report everything together. */
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[]; readonly steps: readonly FlowStep[] };

/** Top-level keys of the flow format every flow may have; an adapter adds its own (docs/plugins.md, "Keys"). */
export const CORE_KEYS = ["name", "app", "url", "steps", "redact", "control", "exports", "skip_unless_env", "apps", "effects", "expect"] as const;
/** Keys of the flow format that later versions run; refused by name rather than ignored. */
const LATER_KEYS = ["explore"] as const;

export type { LoadOptions } from "./flow-step.ts";
import type { LoadOptions } from "./flow-step.ts";

/** The top-level adapter keys of `root`, sorted from the flow's own keys. */
function adapterKeyNames(catalog: SurfaceCatalog): string[] {
  const out = new Set<string>();
  for (const kind of catalog.kinds.values()) for (const k of topKeysOf(kind)) if (k !== "url") out.add(k);
  return [...out];
}

export function loadFlowText(file: string, text: string, options: LoadOptions): LoadResult {
  const { source, diagnostics } = parseYaml(file, text);
  if (diagnostics.length > 0) return { ok: false, diagnostics, steps: [] };
  const problems: Diagnostic[] = [];
  const root = source.doc.contents;
  if (!isMap(root)) {
    return {
      ok: false,
      steps: [],
      diagnostics: [
        diagnostic("bad-value", "a flow file must be a mapping with `name`, `app`, `url` and `steps`", {
          span: spanOf(source, root),
          hint: "start the file with `name: My flow`, `app: <kind>`, its keys (`url: http://…`) and a `steps:` list",
        }),
      ],
    };
  }
  const catalog = options.catalog;
  // The governing suite's keys no built-in declares are checked against this flow's adapters.
  const suite = options.suite ? settleSuiteKeys(options.suite, catalog, problems) : undefined;
  const adapterKeys = adapterKeyNames(catalog);
  const known = [...CORE_KEYS, ...adapterKeys];
  const values = new Map<string, Node | null>();
  const written: KeyPair[] = [];
  // The kind `app:` names, looked up before its checks, for its words about keys nobody takes.
  const appValue = root.items.find((p) => keyName(p) === "app")?.value as Node | null | undefined;
  const named = isMap(appValue) ? inAppKind(catalog) : isScalar(appValue) && typeof appValue.value === "string" ? catalog.kinds.get(appValue.value) : undefined;
  for (const pair of root.items) {
    const key = keyName(pair);
    const keyNode = pair.key as Node;
    if ((CORE_KEYS as readonly string[]).includes(key)) values.set(key, pair.value as Node | null);
    else if (adapterKeys.includes(key)) written.push({ name: key, key: keyNode, value: pair.value as Node | null });
    else if ((LATER_KEYS as readonly string[]).includes(key)) {
      problems.push(
        diagnostic("unsupported-feature", `\`${key}:\` is part of the flow format but this version of flowproof does not run it yet`, {
          span: spanOf(source, keyNode),
          hint: `remove \`${key}:\` for now; see docs/flow-format.md for what this version supports`,
        }),
      );
    } else {
      // A key nobody takes: the flow's adapter may have words for it (another app's spelling), else a did-you-mean.
      const own = named?.keys?.refuse?.[key];
      const guess = nearest(key, [...known, ...LATER_KEYS]);
      problems.push(
        diagnostic("unknown-key", own?.message ?? `unknown key \`${key}\` in a flow`, {
          span: spanOf(source, keyNode),
          hint: own?.hint ?? (guess ? `did you mean \`${guess}\`? A flow's keys are: ${known.join(", ")}` : `a flow's keys are: ${known.join(", ")}`),
        }),
      );
    }
  }
  const keyOf = (key: string): Node | undefined => root.items.find((p) => keyName(p) === key)?.key as Node | undefined;

  const name = requiredString(source, root, values, "name", problems, "name: Checkout with a saved card");
  const appsNode = values.get("apps");
  const apps = appsNode === undefined ? undefined : loadApps(source, appsNode, problems, catalog, options.platform);
  if (appsNode !== undefined && (values.has("app") || values.has("url"))) {
    problems.push(
      diagnostic("bad-value", "a flow has either `app:` (one surface) or `apps:` (named surfaces), not both; with `apps:` each surface carries its own `url`", {
        span: spanOf(source, keyOf(values.has("app") ? "app" : "url")),
        hint: "remove `app:`/`url:` and give each surface under `apps:` its `url`",
      }),
    );
  }
  const resolved = appsNode !== undefined ? undefined : resolveApp(source, root, values, catalog, options.platform, problems);
  const kind = resolved?.kind;
  // How messages name the flow's app: its kind, or the multi-surface form.
  const appName = appsNode !== undefined ? MULTI_SURFACE : resolved?.name;

  // The adapter's own keys: the flow's kind takes its own and refuses the others by name.
  let keys: Record<string, unknown> | undefined;
  if (appsNode !== undefined) keys = loadSharedKeys(source, written, apps, catalog, problems, suite);
  else if (kind) {
    const own = topKeysOf(kind);
    for (const pair of written.filter((p) => !own.includes(p.name))) problems.push(foreignKey(source, catalog, pair, kind.kind, "the flow", kind));
    const appNode = values.get("app");
    keys = loadAdapterKeys(
      source,
      kind,
      written.filter((p) => own.includes(p.name)),
      isMap(appNode) ? appNode : undefined,
      { where: "flow", name: "the flow", prefix: "", anchor: appNode ?? undefined },
      problems,
      suite,
    );
    if (keys) keys = withSuiteDefaults(kind, keys, suite);
  }

  let url: Template | undefined;
  const urlNode = values.get("url");
  const takesUrl = kind === undefined || keyNamesOf(kind).includes("url");
  if (urlNode !== undefined && !takesUrl && kind) {
    const own = kind.keys?.refuse?.["url"];
    problems.push(
      diagnostic("unknown-key", own?.message ?? `${article(`app: ${kind.kind}`)} \`app: ${kind.kind}\` flow has no start page, so it takes no \`url:\``, {
        span: spanOf(source, keyOf("url")),
        hint: own?.hint ?? "remove `url:`",
      }),
    );
  } else if (urlNode !== undefined) {
    if (!isScalar(urlNode) || typeof urlNode.value !== "string") {
      problems.push(diagnostic("bad-value", "`url` must be a string", { span: spanOf(source, urlNode), hint: "url: http://127.0.0.1:3000/" }));
    } else if (/\$\{\s*each\b/.test(urlNode.value)) {
      problems.push(
        diagnostic("bad-reference", "`${each}` is only defined inside a `foreach:` block, not in `url:`", {
          span: spanOf(source, urlNode),
          hint: "write the start URL itself, or a `${VAR}` environment reference",
        }),
      );
    } else {
      const parsed = parseTemplate(urlNode.value);
      if (parsed.ok) url = parsed.value;
      else problems.push(grammarDiagnostic(source, urlNode, parsed.error));
    }
  } else if (kind && appsNode === undefined && requires(kind, "url")) {
    problems.push(
      diagnostic("missing-key", `${article(`app: ${kind.kind}`)} \`app: ${kind.kind}\` flow needs a \`url\` to start from`, {
        span: spanOf(source, root.items[0]?.key as Node | undefined),
        hint: "add `url: http://127.0.0.1:3000/` (a relative path is resolved against the flow file)",
      }),
    );
  }

  const steps: FlowStep[] = [];
  let body: FlowNode[] = [];
  const stepsNode = values.get("steps");
  if (stepsNode === undefined) {
    problems.push(
      diagnostic("missing-key", "a flow needs a `steps:` list", {
        span: spanOf(source, root.items[0]?.key as Node | undefined),
        hint: 'add `steps:` with one step per line, e.g. `- rules: Click "Save"`',
      }),
    );
  } else if (!isSeq(stepsNode) || stepsNode.items.length === 0) {
    problems.push(
      diagnostic("bad-value", "`steps` must be a non-empty list", {
        span: spanOf(source, stepsNode),
        hint: 'write one step per line: `- rules: Type Ada into the "Name" field`',
      }),
    );
  } else if (kind?.steps === "agent_steps") {
    for (const step of loadAgentFlowSteps(source, kind, keys, stepsNode.items as Node[], problems)) {
      steps.push(step);
      body.push({ kind: "step", step });
    }
  } else {
    // A step that did not load leaves a gap; a Drag just before it is not reported as unverified.
    const beforeGap = new Set<FlowNode>();
    const loader: StepLoader = {
      source,
      options,
      problems,
      steps,
      kind,
      appName: appName ?? "",
      apps,
      appsUnloaded: appsNode !== undefined && apps === undefined,
      grammar: (surface) => {
        const surfaceKind = surface !== undefined ? catalog.kinds.get(apps?.[surface]?.app ?? "") : kind;
        return grammarContext(catalog, surfaceKind, surfaceKind?.kind ?? appName ?? "");
      },
      kindOf: (surface) => catalog.kinds.get(apps?.[surface]?.app ?? ""),
      loadList: (items, scope) => {
        const out: FlowNode[] = [];
        for (const item of items) {
          const reported = problems.length;
          const nodes = loadItem(loader, item, scope);
          const last = out[out.length - 1];
          if (nodes.length === 0 && problems.length > reported && last) beforeGap.add(last);
          for (const n of nodes) out.push(n);
        }
        return out;
      },
    };
    body = loader.loadList(stepsNode.items as Node[], { top: true });
    const over = steps[LIMITS.flowSteps.value];
    if (over) {
      problems.push(
        diagnostic(
          "limit-exceeded",
          `the flow has ${steps.length} steps${steps.length > stepsNode.items.length ? " once its `foreach:` blocks are expanded" : ""}, more than the ${LIMITS.flowSteps.value} a flow may have; step ${LIMITS.flowSteps.value + 1} is here`,
          {
            span: over.span,
            hint: 'split it into several flows (a suite runs them together); see docs/flow-format.md, "Limits"',
          },
        ),
      );
    }
    if (appsNode !== undefined) {
      for (const item of stepsNode.items as Node[]) {
        if (!(isMap(item) && item.items.some((p) => keyName(p) === "in"))) {
          problems.push(
            diagnostic("bad-value", "in a flow with `apps:`, every step sits in an `in: <surface>` block, so it is clear which surface runs it", {
              span: spanOf(source, item),
              hint: '- in: shop\n  steps:\n    - rules: Click "Buy"',
            }),
          );
        }
      }
    }
    checkDragsAsserted(body, problems, beforeGap);
  }

  const redactNode = values.get("redact");
  const redact = redactNode === undefined ? [] : loadRedact(source, redactNode, problems, kind ? grammarContext(catalog, kind, kind.kind).surface : undefined);
  const suiteKeys = loadSuiteKeys(source, values, problems);
  const effects = loadEffects(source, values.get("effects"), problems);
  const expected = loadExpect(source, values.get("expect"), problems);
  if (expected && kind?.steps === "agent_steps") {
    problems.push(
      diagnostic(
        "unsupported-feature",
        "`expect:` (a known failure) is for flows that drive a surface step by step; an agent flow replays its conversation whole",
        {
          span: spanOf(source, keyOf("expect")),
          hint: "remove `expect:` from the agent flow",
        },
      ),
    );
  }

  if (problems.length > 0) return { ok: false, diagnostics: unique(problems), steps };
  const hash = `sha256:${createHash("sha256").update(text).digest("hex")}`;
  return {
    ok: true,
    flow: {
      file,
      name: name ?? "",
      app: apps ? "multi" : (kind?.kind ?? ""),
      ...(url ? { url } : {}),
      steps,
      body,
      ...(redact.length > 0 ? { redact } : {}),
      ...(keys && Object.keys(keys).length > 0 ? { keys } : {}),
      ...suiteKeys,
      hash,
      ...(apps ? { apps } : {}),
      ...(effects !== undefined && effects !== "on" ? { effects } : {}),
      ...(expected ? { expect: expected } : {}),
    },
  };
}

/** A foreach body repeats its steps' problems once per value: report each problem once (naming the first pass). */
function unique(problems: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return problems.filter((d) => {
    const key = JSON.stringify([d.code, d.message, d.span?.line, d.span?.column]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function grammarDiagnostic(source: YamlSource, node: Scalar, error: GrammarError): Diagnostic {
  return diagnostic(error.code, error.message, {
    span: spanInScalar(source, node, error.offset, error.length),
    hint: error.hint,
  });
}

/**
 * An agent flow runs as ONE execution: its prompts are joined into one task and its assertions
 * are checked over the whole trajectory, so the step list loads as a single `agent_run` step.
 */
function loadAgentFlowSteps(
  source: YamlSource,
  kind: SurfaceKind,
  keys: Readonly<Record<string, unknown>> | undefined,
  items: readonly Node[],
  problems: Diagnostic[],
): FlowStep[] {
  const specs: AgentStepSpec[] = [];
  const leakSteps: { vars: string[]; span: SourceSpan }[] = [];
  let first: Node | undefined;
  for (const item of items) {
    // assert_no_secret_leak scans the bodies at the model boundary; it runs after the agent did.
    if (isMap(item) && item.items.length === 1 && keyName(item.items[0]!) === SECRET_LEAK_KEY) {
      const pair = item.items[0]!;
      const vars = loadSecretLeakVars(source, pair.key as Node, pair.value as Node | null, problems);
      if (vars) leakSteps.push({ vars, span: spanOf(source, pair.key as Node) });
      continue;
    }
    const loaded = loadAgentStep(source, item, problems);
    if (!loaded) continue;
    first ??= loaded.keyNode;
    specs.push(loaded.spec);
  }
  if (specs.length > 0 && !specs.some((s) => s.kind === "prompt")) {
    problems.push(
      diagnostic("missing-key", "an agent flow needs at least one `prompt:` step: the task the agent is given", {
        span: spanOf(source, first),
        hint: "- prompt: Book the cheapest flight to Nairobi",
      }),
    );
  }
  if (!keys || !first || specs.length === 0) return [];
  const run: FlowStep = { index: 0, form: "structured", ...agentRunStep(kind, keys, specs), span: spanOf(source, first) };
  return [
    run,
    ...leakSteps.map(
      (l, i): FlowStep => ({
        index: i + 1,
        form: "structured",
        text: `${SECRET_LEAK_KEY}: ${l.vars.map((v) => `\${${v}}`).join(", ")}`,
        span: l.span,
        ast: { kind: "no_secret_leak", vars: l.vars },
      }),
    ),
  ];
}
