// `flowproof codegen`: one user action (as the page reported it) → one step of the flow, in the
// rules grammar. Every step is parsed back by the grammar and compiled, and its target must compile
// to the very ladder the page resolved to the element; a step that cannot be written so is kept
// with the reason as a `# TODO`. Pure: no I/O, no clock.
import { CODEGEN_KIND, type BrowserNavigation, type CodegenEvent, type CodegenTarget, type NamedTarget } from "../plugins/builtin.ts";
import type { StepAst } from "../grammar/ast.ts";
import { parseAssertion, parseStep } from "../grammar/index.ts";
import { compileStep, DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { ordinal } from "../engine/scoped.ts";

/** One step of the flow being written. */
export interface CodegenStep {
  /** The flow key: an action (`rules:`) or a check (`assert:`). */
  readonly key: "rules" | "assert";
  readonly text: string;
  /** Why this step needs a person's look before it is trusted (written as `# TODO <reason>` above it). */
  readonly todo?: string;
  /** For typing: the field's target as written, so that typing into the same field again replaces the step. */
  readonly field?: string;
}

/** What the recorder knows across steps: the app's origin, its variable, and the secret fields met so far. */
export interface StepContext {
  /** The start URL's origin, e.g. `http://127.0.0.1:3000`. */
  readonly origin: string;
  /** The variable that stands for the origin in the flow, e.g. `APP_URL`. */
  readonly appUrlVar: string;
  /** Secret field labels → their variable names, filled as secret fields are typed into. */
  readonly secrets: Map<string, string>;
}

/** The grammar of the one kind codegen writes flows for (its whole general grammar). */
const CODEGEN_SURFACE = { surface: { name: CODEGEN_KIND } } as const;

/** A quoted label as a step writes it. */
const quoted = (t: CodegenTarget & { kind: "element" | "scoped" }): string => {
  const a = t.kind === "element" ? t.anchor : t.inner;
  return JSON.stringify(a.kind === "text" ? a.text : a.kind === "css" ? `css:${a.selector}` : `id:${a.id}`);
};

/** A target as a person writes it: `"Sign in"`, `the 2nd "Save" button`, `the "Delete" button in the item containing "Ada"`. */
export function targetText(t: CodegenTarget): string {
  const role = t.role !== undefined ? ` ${t.role}` : "";
  switch (t.kind) {
    case "element":
      return t.nth === undefined && t.role === undefined ? quoted(t) : `the ${t.nth !== undefined ? `${ordinal(t.nth)} ` : ""}${quoted(t)}${role}`;
    case "scoped":
      return `the ${quoted(t)}${role} in the item containing ${t.anchors.map((a) => JSON.stringify(a)).join(" and ")}`;
    case "cell":
      return `the ${JSON.stringify(t.column)} column${role} of the row containing ${t.rowAnchors.map((a) => JSON.stringify(a)).join(" and ")}`;
  }
}

/** The variable a secret field's value is read from: its label in upper snake case (`Admin password` → `ADMIN_PASSWORD`). */
export function secretVarName(label: string, taken: ReadonlySet<string>): string {
  let base = label
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  if (base === "") base = "SECRET";
  if (/^\d/.test(base)) base = `_${base}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  return name;
}

/** A URL on the app's origin as `${APP_URL}/path`; any other URL as it is. */
export function portableUrl(url: string, ctx: Pick<StepContext, "origin" | "appUrlVar">): string {
  if (url === ctx.origin || url.startsWith(`${ctx.origin}/`)) {
    const rest = url.slice(ctx.origin.length);
    return `\${${ctx.appUrlVar}}${rest === "/" ? "" : rest}`;
  }
  return url;
}

/** Typed text as a step writes it: as it is, or between quotes when its edges would be lost. */
const typedText = (value: string): string => (/^\s|\s$/.test(value) || (value.startsWith('"') && value.endsWith('"')) ? `"${value}"` : value);

/** Canonical JSON (keys sorted) of a ladder's payloads, for comparing what the page resolved with what a step compiles to. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );

/**
 * Whether `text` reads back, through the grammar and the compiler, as a step that acts on
 * `named`'s ladder (when given) and passes `check` on its AST. The reason when it does not.
 */
export function readsBack(
  key: "rules" | "assert",
  text: string,
  named: NamedTarget | undefined,
  check: (ast: StepAst) => boolean = () => true,
): string | undefined {
  let ast: StepAst;
  if (key === "rules") {
    const r = parseStep(text, CODEGEN_SURFACE);
    if (!r.ok) return r.error.message;
    ast = r.value;
  } else {
    const r = parseAssertion(text, CODEGEN_SURFACE);
    if (!r.ok) return r.error.message;
    ast = { kind: "assert", assertion: r.value };
  }
  if (!check(ast)) return "the grammar reads it differently";
  const compiled = compileStep(text, ast, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
  if (!compiled.ok) return compiled.reason;
  if (named === undefined) return undefined;
  const selectors = compiled.steps[0]?.selectors ?? [];
  const got = canonical(selectors.map((s) => s.payload));
  return got === canonical(named.ladder.map((r) => r.payload)) ? undefined : "its words name another element than the one acted on";
}

/**
 * The first of the element's names whose step reads back to it, else the best name kept with a
 * TODO (or, without any name, `fallback` with a TODO saying which element it was).
 */
function named(
  key: "rules" | "assert",
  targets: readonly NamedTarget[],
  what: string,
  write: (target: string, t: CodegenTarget) => string[],
  check?: (ast: StepAst) => boolean,
): CodegenStep {
  let first: { text: string; reason: string } | undefined;
  for (const t of targets) {
    const target = targetText(t.target);
    for (const text of write(target, t.target)) {
      const problem = readsBack(key, text, t, check);
      if (problem === undefined) return { key, text, field: target };
      first ??= { text, reason: problem };
    }
  }
  if (first) return { key, text: first.text, todo: `check this step: ${first.reason}` };
  const text = write(`"css:…"`, { kind: "element", anchor: { kind: "css", selector: "…" } })[0] ?? "";
  return { key, text, todo: `no name of ${what} singles it out on the page; name it with "css:…" or "id:…"` };
}

/** An assertion's subject: `the "Total"` (a bare quoted label would open the line with a quote). */
const subject = (target: string): string => (target.startsWith('"') ? `the ${target}` : target);

const typedIs = (value: string) => (ast: StepAst) => ast.kind === "type" && ast.text.raw === value;

/** The step for one reported action or pointed assertion. */
export function stepFor(event: CodegenEvent, ctx: StepContext): CodegenStep {
  switch (event.kind) {
    case "click":
      return named("rules", event.naming.targets, event.naming.what, (target, t) =>
        t.role === "button" ? [`Press ${target}`, `Click ${target}`] : [`Click ${target}`],
      );
    case "check": {
      const verb = event.checked ? "Check" : "Uncheck";
      return named("rules", event.naming.targets, event.naming.what, (target) => [`${verb} ${target}`]);
    }
    case "type": {
      if (event.secret) {
        let name = ctx.secrets.get(event.secret.label);
        if (name === undefined) {
          name = secretVarName(event.secret.label, new Set([...ctx.secrets.values(), ctx.appUrlVar]));
          ctx.secrets.set(event.secret.label, name);
        }
        const ref = `\${${name}}`;
        return named("rules", event.naming.targets, event.naming.what, (target) => [`Type ${ref} into ${target}`], typedIs(ref));
      }
      const value = event.value ?? "";
      if (value === "") return named("rules", event.naming.targets, event.naming.what, (target) => [`Clear ${target}`]);
      const step = named("rules", event.naming.targets, event.naming.what, (target) => [`Type ${typedText(value)} into ${target}`], typedIs(value));
      if (/[\r\n]/.test(value))
        return { ...step, todo: "the typed text spans several lines, which one step cannot type; split it or type it with `Press Enter` between lines" };
      if (value.includes("${")) return { ...step, todo: "the typed text holds `${`, which a flow reads as a variable reference" };
      return step;
    }
    case "select": {
      const options = event.options.length === 1 ? event.options[0]! : event.options.map((o) => JSON.stringify(o)).join(", ");
      return named("rules", event.naming.targets, event.naming.what, (target) => [`Select ${options} from ${target}`]);
    }
    case "key":
      return { key: "rules", text: `Press ${event.key}` };
    case "scroll":
      return { key: "rules", text: "Scroll to the bottom" };
    case "assert_shows":
      return named("assert", event.naming.targets, event.naming.what, (target) => [`${subject(target)} shows ${event.text}`]);
    case "assert_visible":
      return named("assert", event.naming.targets, event.naming.what, (target) => [`${subject(target)} is visible`]);
    case "assert_page_shows":
      return checkedStep("assert", `page shows ${event.text}`);
    case "assert_url":
      return checkedStep("assert", `page url is ${portableUrl(event.url, ctx)}`);
  }
}

/** The step for a navigation the person started from the browser. */
export function navigationStep(nav: BrowserNavigation, ctx: StepContext): CodegenStep {
  return nav.kind === "reload" ? { key: "rules", text: "Reload the page" } : checkedStep("rules", `Go to ${portableUrl(nav.url, ctx)}`);
}

/** A step without a target, kept with a TODO when the grammar does not read it. */
function checkedStep(key: "rules" | "assert", text: string): CodegenStep {
  const problem = readsBack(key, text, undefined);
  return problem === undefined ? { key, text } : { key, text, todo: `check this step: ${problem}` };
}

/** What a step sets a field to, when it does: typing (or clearing) it, or picking in a dropdown. */
const setting = (s: CodegenStep | undefined): string | undefined =>
  s?.field === undefined ? undefined : /^(Type|Clear) /.test(s.text) ? "type" : /^Select /.test(s.text) ? "select" : undefined;

/**
 * Adds `step` to `steps`: setting the field the previous step set, the same way, replaces that step
 * (the field's final value is what the person meant: arrowing through a dropdown picks once),
 * everything else is appended.
 */
export function appendStep(steps: CodegenStep[], step: CodegenStep): "added" | "replaced" {
  const last = steps.at(-1);
  const kind = setting(step);
  if (kind !== undefined && setting(last) === kind && last!.field === step.field) {
    steps[steps.length - 1] = step;
    return "replaced";
  }
  steps.push(step);
  return "added";
}
