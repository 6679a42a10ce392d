// Loads a `*.flow.yaml` into a typed Flow with spans on every step, collecting every problem of
// the file (never stopping at the first). Calls the grammar once per step; foreach is expanded
// here, repeat/when are kept as blocks (see block.ts). Pure: no fs, no env, no clock.
import { createHash } from "node:crypto";
import { parseAssertion, parseStep, parseTemplate } from "../grammar/index.ts";
import type { AppKind, GrammarError, ParseResult, StepAst, Template } from "../grammar/ast.ts";
import { diagnostic, type Diagnostic, type SourceSpan } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, isSeq, keyName, parseYaml, spanInScalar, spanOf, type Node, type Scalar, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import { loadRedact, type FlowRedactionRule } from "./redact.ts";
import { loadShaping, type FlowBrowser, type FlowMockRule, type FlowSession, type FlowSuiteDefaults } from "./browser-keys.ts";
import { loadSecretLeakVars, loadStructuredArgs, SECRET_LEAK_KEY, type StructuredKind } from "./structured.ts";
import { loadSuiteKeys, type SuiteKeys } from "./suite-keys.ts";
import { loadEffects, withEffectsOff } from "./effects.ts";
import { loadExpect, type ExpectedFailure } from "./expect.ts";
import { loadApps, loadIn, type SurfaceSpec } from "./surfaces.ts";
import { loadSapKeys, SAP_APP, sapRequiresWindows, type SapKeys } from "./sap-keys.ts";
import { isWindowsApp, loadDesktopKeys, type DesktopKeys } from "./desktop.ts";
import { requiredString } from "./fields.ts";
import { AGENT_APP, AGENT_FLOW_KEYS, AGENT_STEP_KEYS, DEFAULT_AGENT_TIMEOUT_SECONDS, loadFlowMcp, loadAgentSpec, loadAgentStep, loadAgentTools, loadStrict, type AgentStepSpec } from "./agent.ts";
import { checkDragsAsserted, loadForeach, loadRepeat, loadWhen, parseInScalar, type BlockLoader, type FlowNode, type FlowStep, type Scope, type StepForm } from "./block.ts";

export type { FlowCondition, FlowNode, FlowStep, RepeatBlock, StepForm, WhenBlock } from "./block.ts";
export type { FlowBrowser, FlowCookie, FlowMockRule, FlowSession, FlowSuiteDefaults } from "./browser-keys.ts";

export interface Flow extends SuiteKeys, DesktopKeys {
  readonly file: string;
  readonly name: string;
  /** A built-in app kind, or the kind of an adapter plugin (`LoadOptions.pluginAppKinds`). */
  readonly app: string;
  readonly url?: Template;
  /**
   * Every concrete step in file order: foreach passes expanded, and each step of a repeat/when
   * body once. For a flow without repeat/when this is also the order steps run in.
   */
  readonly steps: readonly FlowStep[];
  /** `redact:` rules (copied into the trace header at record). */
  readonly redact?: readonly FlowRedactionRule[];
  /** `mock:` rules, `session:` seed and `browser:` shape (web), as written; copied into the trace header at record. */
  readonly mock?: readonly FlowMockRule[];
  readonly session?: FlowSession;
  readonly browser?: FlowBrowser;
  /** The step list as it runs: concrete steps and the repeat/when blocks the recorder expands. */
  readonly body: readonly FlowNode[];
  /** `sha256:<hex>` of the file text, recorded in the trace header. */
  readonly hash: string;
  /** Named surfaces of a multi-surface flow (`apps:`); then `app` is "multi" and every step has a `surface`. */
  readonly apps?: Readonly<Record<string, SurfaceSpec>>;
  /** `connection:` and `login:` of a SAP flow (`app: sap`), as written; absent = attach-only. */
  readonly sap?: SapKeys;
  readonly effects?: "strict" | "off"; // `effects:` when not the default `on` (copied into the trace header)
  /** `expect: {fail: …}`: a known failure the flow declares (copied into the trace header with the step that failed). */
  readonly expect?: ExpectedFailure;
}

export type LoadResult =
  | { readonly ok: true; readonly flow: Flow }
  /** `steps` holds the steps that did parse, so callers can check them further and report everything together. */
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[]; readonly steps: readonly FlowStep[] };

/** Top-level keys of the flow format that this version runs. */
export const SUPPORTED_KEYS = ["name", "app", "url", "connection", "login", "window", "steps", "redact", "mock", "session", "browser", "control", "exports", "skip_unless_env", "apps", "agent", "tools", "mcp", "strict", "effects", "expect"] as const;
/** Keys of the flow format that later versions run; refused by name rather than ignored. */
const LATER_KEYS = [
  "connection", "login",
  "explore",
] as const;
const STEP_KEYS_LATER = [
  "assert_api", "assert_sql", "assert_spreadsheet", "assert_screenshot", "assert_no_secret_leak",
  "prompt", "assert_tool_call", "assert_no_tool_call",
] as const;
const STEP_KEYS = ["rules", "assert", "repeat", "when", "foreach"] as const;
const APP_KINDS: readonly AppKind[] = ["web", "sap"];
/** The app kind with no UI: only structured steps run (no browser). */
export const API_APP = "api";
const LATER_APPS = ["vision"];

export interface LoadOptions {
  /** Whether plain steps must parse under the rules grammar now (rules mode, or auto with no model). */
  readonly plainStepsAreRules: boolean;
  /** App kinds provided by the project's adapter plugins, accepted as `app:` besides the built-in ones. */
  readonly pluginAppKinds?: readonly string[];
  /** Structured step kinds (`assert_xxx`) of the loaded assertion plugins, by step key. */
  readonly structuredKinds?: ReadonlyMap<string, StructuredKind>;
  /** What each app kind's surface can do (adapter capabilities), for the kinds that know: checked against `StructuredKind.needs`. */
  readonly appCapabilities?: ReadonlyMap<string, readonly string[]>;
  /** The governing suite.yaml's defaults; absent when no suite governs the flow. */
  readonly suite?: FlowSuiteDefaults;
  /** The OS the flow would run on (`process.platform`): Windows apps need `win32`. Absent: not checked. */
  readonly platform?: string;
}

export function loadFlowText(file: string, text: string, options: LoadOptions = { plainStepsAreRules: true }): LoadResult {
  const { source, diagnostics } = parseYaml(file, text);
  if (diagnostics.length > 0) return { ok: false, diagnostics, steps: [] };
  const problems: Diagnostic[] = [];
  const root = source.doc.contents;
  if (!isMap(root)) {
    return { ok: false, steps: [], diagnostics: [diagnostic("bad-value", "a flow file must be a mapping with `name`, `app`, `url` and `steps`", {
      span: spanOf(source, root),
      hint: "start the file with `name: My flow`, `app: web`, `url: http://…` and a `steps:` list",
    })] };
  }
  const values = new Map<string, Node | null>();
  for (const pair of root.items) {
    const key = keyName(pair);
    const keyNode = pair.key as Node;
    if ((SUPPORTED_KEYS as readonly string[]).includes(key)) values.set(key, pair.value as Node | null);
    else if ((LATER_KEYS as readonly string[]).includes(key)) {
      problems.push(diagnostic("unsupported-feature", `\`${key}:\` is part of the flow format but this version of flowproof does not run it yet`, {
        span: spanOf(source, keyNode),
        hint: `remove \`${key}:\` for now; see docs/flow-format.md for what this version supports`,
      }));
    } else {
      const guess = nearest(key, [...SUPPORTED_KEYS, ...LATER_KEYS]);
      problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in a flow`, {
        span: spanOf(source, keyNode),
        hint: guess ? `did you mean \`${guess}\`? A flow's keys are: ${SUPPORTED_KEYS.join(", ")}` : `a flow's keys are: ${SUPPORTED_KEYS.join(", ")}`,
      }));
    }
  }

  const name = requiredString(source, root, values, "name", problems, "name: Checkout with a saved card");
  const appsNode = values.get("apps");
  const apps = appsNode === undefined ? undefined : loadApps(source, appsNode, problems, options.platform);
  if (appsNode !== undefined && (values.has("app") || values.has("url"))) {
    problems.push(diagnostic("bad-value", "a flow has either `app:` (one surface) or `apps:` (named surfaces), not both; with `apps:` each surface carries its own `url`", {
      span: spanOf(source, root.items.find((p) => keyName(p) === (values.has("app") ? "app" : "url"))?.key as Node | undefined),
      hint: "remove `app:`/`url:` and give each surface under `apps:` its `url`",
    }));
  }
  const appText = appsNode !== undefined ? "web" : isMap(values.get("app")) ? "windows" : requiredString(source, root, values, "app", problems, "app: web");
  let app: AppKind = "web";
  let appKnown = appText !== undefined;
  // A plugin's app is parsed with the general (web) step forms; its driver answers `unsupported`
  // for the forms it cannot drive.
  let pluginApp: string | undefined;
  if (appText !== undefined) {
    if ((APP_KINDS as readonly string[]).includes(appText) || isWindowsApp(appText)) app = appText as AppKind;
    else if (appText === API_APP) pluginApp = API_APP;
    else if (appText === AGENT_APP) pluginApp = AGENT_APP;
    else if (options.pluginAppKinds?.includes(appText)) pluginApp = appText;
    else {
      const later = LATER_APPS.includes(appText);
      appKnown = false;
      problems.push(diagnostic(later ? "unsupported-feature" : "bad-value", later
        ? `app \`${appText}\` is not available in this version of flowproof`
        : `unknown app \`${appText}\``, {
        span: spanOf(source, values.get("app")),
        hint: options.pluginAppKinds && options.pluginAppKinds.length > 0
          ? `use \`app: web\` (a page in Chromium) or an app kind from the project's plugins: ${options.pluginAppKinds.join(", ")}`
          : "use `app: web` (a page in Chromium), or add an adapter plugin for it (docs/plugins.md)",
      }));
    }
  }

  const desktopKeys = loadDesktopKeys(source, root, values, appsNode !== undefined ? "multi-surface" : appKnown ? pluginApp ?? app : undefined, options.platform, problems);
  const pairOf = (key: string): { key: Node; value: Node | null } | undefined => {
    const pair = root.items.find((p) => keyName(p) === key);
    return pair ? { key: pair.key as Node, value: pair.value as Node | null } : undefined;
  };
  // `connection:`/`login:` of SAP GUI (sap-keys.ts); a SAP flow has no start page.
  const sap = loadSapKeys(source, pairOf("connection"), pairOf("login"), appsNode !== undefined ? "multi-surface" : appKnown ? pluginApp ?? app : undefined, "the flow", problems);
  if (options.platform !== undefined && options.platform !== "win32") {
    problems.push(...sapRequiresWindows(source, appKnown && app === SAP_APP ? values.get("app") ?? undefined : undefined, appsNode ?? undefined, options.platform));
  }
  if (app === SAP_APP && values.has("url")) {
    problems.push(diagnostic("unknown-key", "a SAP flow has no start page: `url:` belongs to web flows", { span: spanOf(source, pairOf("url")?.key), hint: "remove `url:`; start with `Go to VA01`, and name the system with `connection:`" }));
  }
  let url: Template | undefined;
  const urlNode = values.get("url");
  if (urlNode !== undefined) {
    if (!isScalar(urlNode) || typeof urlNode.value !== "string") {
      problems.push(diagnostic("bad-value", "`url` must be a string", { span: spanOf(source, urlNode), hint: "url: http://127.0.0.1:3000/" }));
    } else if (/\$\{\s*each\b/.test(urlNode.value)) {
      problems.push(diagnostic("bad-reference", "`${each}` is only defined inside a `foreach:` block, not in `url:`", {
        span: spanOf(source, urlNode), hint: "write the start URL itself, or a `${VAR}` environment reference",
      }));
    } else {
      const parsed = parseTemplate(urlNode.value);
      if (parsed.ok) url = parsed.value;
      else problems.push(grammarDiagnostic(source, urlNode, parsed.error));
    }
    if (pluginApp === AGENT_APP) {
      problems.push(diagnostic("unknown-key", "an agent flow has no start page: `url:` belongs to web flows", {
        span: spanOf(source, root.items.find((p) => keyName(p) === "url")?.key as Node | undefined),
        hint: "remove `url:`; a running agent service is `agent: {url: …, proxy_port: …}`",
      }));
    }
  } else if (app === "web" && appKnown && pluginApp === undefined && appsNode === undefined) {
    problems.push(diagnostic("missing-key", "a web flow needs a `url` to start from", {
      span: spanOf(source, root.items[0]?.key as Node | undefined),
      hint: "add `url: http://127.0.0.1:3000/` (a relative path is resolved against the flow file)",
    }));
  }

  const isAgent = pluginApp === AGENT_APP;
  for (const key of AGENT_FLOW_KEYS) {
    if (!values.has(key) || isAgent || !appKnown) continue;
    problems.push(diagnostic("unsupported-feature", `\`${key}:\` belongs to agent flows (\`app: agent\`), not to an \`app: ${appsNode !== undefined ? "multi-surface" : pluginApp ?? app}\` flow`, {
      span: spanOf(source, root.items.find((p) => keyName(p) === key)?.key as Node | undefined),
      hint: `remove \`${key}:\`, or make this an agent flow with \`app: agent\``,
    }));
  }
  if (isAgent && !values.has("agent")) {
    problems.push(diagnostic("missing-key", "an agent flow needs `agent:`: the program to start or the service to call", {
      span: spanOf(source, root.items.find((p) => keyName(p) === "app")?.key as Node | undefined),
      hint: "agent: {command: node agent.js}",
    }));
  }
  const steps: FlowStep[] = [];
  let body: FlowNode[] = [];
  const isApi = pluginApp === API_APP;
  const stepsNode = values.get("steps");
  if (stepsNode === undefined) {
    problems.push(diagnostic("missing-key", "a flow needs a `steps:` list", {
      span: spanOf(source, root.items[0]?.key as Node | undefined),
      hint: "add `steps:` with one step per line, e.g. `- rules: Click \"Save\"`",
    }));
  } else if (!isSeq(stepsNode) || stepsNode.items.length === 0) {
    problems.push(diagnostic("bad-value", "`steps` must be a non-empty list", {
      span: spanOf(source, stepsNode),
      hint: "write one step per line: `- rules: Type Ada into the \"Name\" field`",
    }));
  } else if (isAgent) {
    for (const step of loadAgentFlowSteps(source, values, stepsNode.items as Node[], problems)) {
      steps.push(step);
      body.push({ kind: "step", step });
    }
  } else {
    // A step that did not load leaves a gap; a Drag just before it is not reported as unverified.
    const beforeGap = new Set<FlowNode>();
    const loader: StepLoader = {
      source, app, options, problems, steps, isApi, appName: pluginApp ?? app, apps, appsUnloaded: appsNode !== undefined && apps === undefined,
      loadList: (items, scope) => {
        const out: FlowNode[] = [];
        for (const item of items) {
          const reported = problems.length;
          const nodes = loadItem(loader, item, scope);
          const last = out[out.length - 1];
          if (nodes.length === 0 && problems.length > reported && last) beforeGap.add(last);
          out.push(...nodes);
        }
        return out;
      },
    };
    body = loader.loadList(stepsNode.items as Node[], { top: true });
    if (appsNode !== undefined) {
      for (const item of stepsNode.items as Node[]) {
        if (!(isMap(item) && item.items.some((p) => keyName(p) === "in"))) {
          problems.push(diagnostic("bad-value", "in a flow with `apps:`, every step sits in an `in: <surface>` block, so it is clear which surface runs it", { span: spanOf(source, item), hint: "- in: shop\n  steps:\n    - rules: Click \"Buy\"" }));
        }
      }
    }
    checkDragsAsserted(body, problems, beforeGap);
  }

  const redactNode = values.get("redact");
  const redact = redactNode === undefined ? [] : loadRedact(source, redactNode, problems);
  const shaping = loadShaping(source, values, pluginApp ?? (appKnown ? app : undefined), problems, options.suite);
  const suiteKeys = { ...loadSuiteKeys(source, values, problems), ...desktopKeys };
  const effects = loadEffects(source, values.get("effects"), problems);
  const expected = loadExpect(source, values.get("expect"), problems);
  if (expected && isAgent) {
    problems.push(diagnostic("unsupported-feature", "`expect:` (a known failure) is for flows that drive a surface step by step; an agent flow replays its conversation whole", {
      span: spanOf(source, root.items.find((p) => keyName(p) === "expect")?.key as Node | undefined),
      hint: "remove `expect:` from the agent flow",
    }));
  }

  if (problems.length > 0) return { ok: false, diagnostics: unique(problems), steps };
  const hash = `sha256:${createHash("sha256").update(text).digest("hex")}`;
  return { ok: true, flow: { file, name: name ?? "", app: apps ? "multi" : pluginApp ?? app, ...(url ? { url } : {}), steps, body, ...(redact.length > 0 ? { redact } : {}), ...shaping, ...suiteKeys, hash, ...(apps ? { apps } : {}), ...(sap.connection ? { sap } : {}), ...(effects !== undefined && effects !== "on" ? { effects } : {}), ...(expected ? { expect: expected } : {}) } };
}

interface StepLoader extends BlockLoader {
  readonly options: LoadOptions;
  /** Every concrete step loaded so far, in file order; a new step's index is its position here. */
  readonly steps: FlowStep[];
  /** An `app: api` flow: no UI, so text steps are refused. */
  readonly isApi: boolean;
  /** The flow's app kind as written (`web`, `api`, a plugin's kind). */
  readonly appName: string;
  readonly apps: Readonly<Record<string, SurfaceSpec>> | undefined;
  /** `apps:` was written but did not load: its own errors name why, so `in:` blocks are not reported again. */
  readonly appsUnloaded?: boolean;
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

function loadItem(loader: StepLoader, item: Node, scope: Scope): FlowNode[] {
  const { source, problems, options } = loader;
  const asNodes = (step: FlowStep | undefined): FlowNode[] => (step ? [{ kind: "step", step }] : []);
  if (isScalar(item)) {
    if (typeof item.value !== "string") {
      problems.push(diagnostic("bad-value", "a step must be text or a one-key mapping", { span: spanOf(source, item), hint: "quote it: `- \"Type 42 into the \\\"Age\\\" field\"`" }));
      return [];
    }
    return asNodes(fromText(loader, item, "plain", scope));
  }
  if (isMap(item)) {
    const keys = item.items.map(keyName);
    if (keys.includes("when")) return loadWhen(loader, item, scope);
    if (keys.includes("in")) return loader.appsUnloaded ? [] : loadIn(loader, item, scope, loader.apps);
    if (keys.includes("effects") && keys.includes("rules") && item.items.length === 2) return withEffectsOff(source, item, problems, loader.steps, (text) => fromText(loader, text, "rules", scope));
    if (item.items.length !== 1) {
      problems.push(diagnostic("bad-value", "a step mapping must have exactly one key", {
        span: spanOf(source, item),
        hint: keys.includes("steps")
          ? "`steps:` goes with `when: <condition>` in a two-key mapping; `repeat:` and `foreach:` hold their `steps:` inside them"
          : "write one step per list item: `- rules: …` or `- assert: …`",
      }));
      return [];
    }
    const pair = item.items[0]!;
    const key = keyName(pair);
    const value = pair.value as Node | null;
    if (key === "rules" || key === "assert") {
      if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "") {
        const empty = !value || (isScalar(value) && (value.value === null || value.value === ""));
        problems.push(diagnostic("bad-value", `\`${key}:\` takes the step's text`, {
          span: spanOf(source, (empty ? pair.key : value) as Node),
          hint: key === "rules" ? "- rules: Press the \"Save\" button" : "- assert: page shows Saved",
        }));
        return [];
      }
      return asNodes(fromText(loader, value, key, scope));
    }
    if (key === "repeat") return loadRepeat(loader, pair, scope);
    if (key === "foreach") return loadForeach(loader, pair, scope);
    const kind = options.structuredKinds?.get(key);
    // Inside an `in:` block the surface's app decides what the step may need (an api block has no UI).
    const surfaceApp = scope.surface !== undefined ? loader.apps?.[scope.surface]?.app : undefined;
    const appName = surfaceApp ?? loader.appName;
    const isApi = loader.isApi || surfaceApp === API_APP;
    if (key === SECRET_LEAK_KEY && loader.apps !== undefined) {
      problems.push(diagnostic("unsupported-step", `\`${key}\` is refused in multi-surface flows: which surfaces' text and responses form its corpus is not defined yet for mixed surfaces`, {
        span: spanOf(source, pair.key as Node),
        hint: "check for the leak in a single-surface web or api flow of the suite",
      }));
      return [];
    }
    if (key === SECRET_LEAK_KEY && loader.appName !== "web" && !loader.isApi) {
      problems.push(diagnostic("unsupported-step", `\`${key}\` scans what web and api flows observe; an \`app: ${loader.appName}\` flow has no corpus it can search`, {
        span: spanOf(source, pair.key as Node),
        hint: "move the check into a web or api flow of the suite",
      }));
      return [];
    }
    const caps = options.appCapabilities?.get(appName);
    const missing = kind?.needs?.filter((c) => caps !== undefined && !caps.includes(c)) ?? [];
    if (missing.length > 0) {
      problems.push(diagnostic("unsupported-step", surfaceApp !== undefined
        ? `\`${key}\` needs a surface with the ${missing.join(", ")} capability, which the \`app: ${surfaceApp}\` surface \`${scope.surface}\` does not have`
        : `\`${key}\` needs a surface with the ${missing.join(", ")} capability, which an \`app: ${loader.appName}\` flow does not have`, {
        span: spanOf(source, pair.key as Node),
        hint: isApi ? (surfaceApp !== undefined ? "an api surface has no UI to photograph; put this step in a web surface's block" : "an api flow has no UI to photograph; put this step in a web flow") : "use this step in a flow whose app can do it",
      }));
      return [];
    }
    if (key === SECRET_LEAK_KEY || kind) {
      const args = key === SECRET_LEAK_KEY
        ? loadSecretLeakVars(source, pair.key as Node, value, problems)
        : loadStructuredArgs(source, key, pair.key as Node, value, kind!, scope.each, problems);
      if (args === undefined) return [];
      const ast: StepAst = key === SECRET_LEAK_KEY ? { kind: "no_secret_leak", vars: args as string[] } : { kind: "structured", key, args };
      const text = key === SECRET_LEAK_KEY ? `${key}: ${(args as string[]).map((v) => `\${${v}}`).join(", ")}` : `${key}: ${JSON.stringify(args)}`;
      const step: FlowStep = { index: loader.steps.length, form: "structured", text, span: spanOf(source, pair.key as Node), ast, ...(scope.surface ? { surface: scope.surface } : {}) };
      loader.steps.push(step);
      return asNodes(step);
    }
    if ((AGENT_STEP_KEYS as readonly string[]).includes(key)) {
      problems.push(diagnostic("unsupported-step", `\`${key}:\` is an agent step (agent grammar); an \`app: ${appName}\` flow drives a surface with \`rules:\`/\`assert:\` steps (rules grammar)`, {
        span: spanOf(source, pair.key as Node),
        hint: "move this step into an agent flow (`app: agent`)",
      }));
      return [];
    }
    if ((STEP_KEYS_LATER as readonly string[]).includes(key)) {
      problems.push(diagnostic("unsupported-feature", `\`${key}:\` steps are part of the flow format but this version of flowproof does not run them yet`, {
        span: spanOf(source, pair.key as Node),
        hint: "use `rules:` and `assert:` steps for now",
      }));
      return [];
    }
    const guess = nearest(key, [...STEP_KEYS, ...STEP_KEYS_LATER]);
    problems.push(diagnostic("unknown-key", `unknown step key \`${key}\``, {
      span: spanOf(source, pair.key as Node),
      hint: `${guess ? `did you mean \`${guess}\`? ` : ""}a step is plain text, \`rules: <step>\`, \`assert: <assertion>\`, or a \`repeat:\`, \`when:\` or \`foreach:\` block`,
    }));
    return [];
  }
  problems.push(diagnostic("bad-value", "a step must be text or a one-key mapping", { span: spanOf(source, item), hint: "- rules: Click \"Save\"" }));
  return [];
}

function fromText(loader: StepLoader, node: Scalar, form: StepForm, scope: Scope): FlowStep | undefined {
  if (loader.isApi) {
    loader.problems.push(diagnostic("unsupported-step", "an `app: api` flow has no UI, so it runs only structured steps", {
      span: spanOf(loader.source, node),
      hint: "use `assert_api:`, `assert_sql:`, `assert_spreadsheet:` or `assert_no_secret_leak:` steps, or make this a web flow (`app: web`)",
    }));
    return undefined;
  }
  if (scope.surface !== undefined && loader.apps?.[scope.surface]?.app === API_APP) {
    loader.problems.push(diagnostic("unsupported-step", `surface \`${scope.surface}\` is \`app: api\`: it has no UI, so its blocks run only structured steps`, {
      span: spanOf(loader.source, node),
      hint: "use `assert_api:`, `assert_sql:`, `assert_spreadsheet:` or `assert_no_secret_leak:` steps here, or move this step into a web surface's `in:` block",
    }));
    return undefined;
  }
  // A sap surface's steps parse as SAP steps (`Go to VA01`, F-keys), a Windows app surface's as its app's.
  const surfaceApp = scope.surface !== undefined ? loader.apps?.[scope.surface]?.app : undefined;
  const ctx = { app: surfaceApp === SAP_APP || isWindowsApp(surfaceApp) ? surfaceApp : loader.app };
  const parsed = parseInScalar(loader, node, scope, (text): ParseResult<StepAst> => form === "assert"
    ? mapOk(parseAssertion(text, ctx), (assertion) => ({ kind: "assert", assertion }) as StepAst)
    // Under model authoring a plain step is intent, grounded at record time (src/authoring/) —
    // except a shape the grammar refuses on purpose, which is never handed to the model.
    : form === "plain" && !loader.options.plainStepsAreRules ? intentUnlessRefused(text, parseStep(text, ctx))
    : parseStep(text, ctx));
  if (!parsed) return undefined;
  const step: FlowStep = { index: loader.steps.length, form, text: parsed.text, span: parsed.span, ast: parsed.value, ...(scope.surface ? { surface: scope.surface } : {}) };
  loader.steps.push(step);
  return step;
}

function intentUnlessRefused(text: string, rules: ParseResult<StepAst>): ParseResult<StepAst> {
  return !rules.ok && rules.error.code === "refused-step" ? rules : { ok: true, value: { kind: "intent", text } };
}

function mapOk<T, U>(r: ParseResult<T>, f: (t: T) => U): ParseResult<U> {
  return r.ok ? { ok: true, value: f(r.value) } : r;
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
function loadAgentFlowSteps(source: YamlSource, values: Map<string, Node | null>, items: readonly Node[], problems: Diagnostic[]): FlowStep[] {
  const agentNode = values.get("agent");
  const agent = agentNode === undefined ? undefined : loadAgentSpec(source, agentNode, problems);
  const toolsNode = values.get("tools");
  const tools = toolsNode === undefined ? [] : loadAgentTools(source, toolsNode, problems);
  const strictNode = values.get("strict");
  const strict = strictNode === undefined ? false : loadStrict(source, strictNode, problems);
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
    problems.push(diagnostic("missing-key", "an agent flow needs at least one `prompt:` step: the task the agent is given", { span: spanOf(source, first), hint: "- prompt: Book the cheapest flight to Nairobi" }));
  }
  if (!agent || !first || specs.length === 0) return [];
  const text = specs.map((s) => s.kind === "prompt" ? `prompt: ${s.text}` : s.kind === "reply" ? `assert: ${s.text}` : s.text).join("\n");
  const args = {
    agent, steps: specs, ...(tools.length > 0 ? { tools } : {}), ...loadFlowMcp(source, values.get("mcp"), agent, tools, problems), ...(strict ? { strict } : {}),
    timeout_ms: (agent.timeout_seconds ?? DEFAULT_AGENT_TIMEOUT_SECONDS) * 1000,
  };
  const run: FlowStep = { index: 0, form: "structured", text, span: spanOf(source, first), ast: { kind: "agent_run", args: JSON.parse(JSON.stringify(args)) as Record<string, unknown> } };
  return [run, ...leakSteps.map((l, i): FlowStep => ({
    index: i + 1, form: "structured", text: `${SECRET_LEAK_KEY}: ${l.vars.map((v) => `\${${v}}`).join(", ")}`, span: l.span, ast: { kind: "no_secret_leak", vars: l.vars },
  }))];
}
