// Turns a parsed step (grammar AST) into the trace step that record writes and replay executes.
// Pure: the same AST always compiles to the same action, selectors and sync conditions.
// Forms this version cannot execute yet are reported here, before any browser starts.
import type { Assertion, DialogSuffix, RoleNoun, StepAst, Target } from "../grammar/ast.ts";
import type { Action, ActionOf, DialogParam, Expect, Selector, TraceStep } from "../trace/schema.ts";
import { scopedSelector } from "./scoped.ts";

export const DEFAULT_STEP_TIMEOUT_MS = 5_000;
export const DEFAULT_ASSERT_TIMEOUT_MS = 10_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 60_000;

export interface CompileOptions {
  /** Element-exists precondition budget for actions (FLOWPROOF_STEP_TIMEOUT_MS), baked into the trace. */
  readonly stepTimeoutMs: number;
}

export type Compiled =
  | { readonly ok: true; readonly steps: readonly Omit<TraceStep, "id">[] }
  | { readonly ok: false; readonly reason: string; readonly hint: string };

const unsupported = (what: string, hint = "see docs/authoring.md for the forms this version runs"): Compiled => ({
  ok: false,
  reason: `${what} is part of the grammar but this version of flowproof cannot run it yet`,
  hint,
});

/**
 * Selector ladder for a target; undefined when the target kind is not supported yet. An ordinal
 * is kept even when it is 1st (it says the author chose among several), and `implied` is the role
 * the step's kind gives a text label that names none (`Type … into "Name"` means a field).
 */
export function selectorsFor(target: Target, implied?: RoleNoun): Selector[] | undefined {
  if (target.kind !== "element") return [scopedSelector(target)];
  const role = target.role ?? (target.anchor.kind === "text" ? implied : undefined);
  const refine = { ...(target.nth !== undefined ? { nth: target.nth } : {}), ...(role !== undefined ? { role } : {}) };
  const anchor = target.anchor;
  switch (anchor.kind) {
    case "text":
      return [{ tier: "text_anchor", provenance: "rules", payload: { text: anchor.text, ...refine } }];
    case "css":
      return [{ tier: "native_id", provenance: "rules", payload: { css: anchor.selector, ...refine } }];
    case "id":
      return [{ tier: "native_id", provenance: "rules", payload: { id: anchor.id, ...refine } }];
  }
}

/** One `expect` variant without the keys every variant shares. */
type ExpectKeys = Expect extends infer E ? (E extends unknown ? Omit<E, "timeout_ms" | "scope"> : never) : never;

export function compileStep(intent: string, ast: StepAst, options: CompileOptions): Compiled {
  const step = (action: Action, target?: Target, implied?: RoleNoun): Compiled => {
    if (!target) return { ok: true, steps: [{ intent, action, selectors: [], sync: { pre: [], post: [] }, artifacts: {} }] };
    const selectors = selectorsFor(target, implied);
    if (!selectors)
      return unsupported(
        target.kind === "cell" ? "a table-cell target" : target.kind === "scoped" ? "a scoped (item/container) target" : "an iframe target",
        'address the element with `"css:…"` for now',
      );
    return {
      ok: true,
      steps: [
        {
          intent,
          action,
          selectors,
          // Assertions and waits carry their own bound in `expect`; an element-exists precondition
          // would contradict `is not visible` / `appears 0 times`.
          sync: {
            pre: action.type === "assert" || action.type === "wait" ? [] : [{ kind: "element_exists", selector_ref: 0, timeout_ms: options.stepTimeoutMs }],
            post: [],
          },
          artifacts: {},
        },
      ],
    };
  };
  switch (ast.kind) {
    case "navigate":
      return step({ type: "launch", params: { url: ast.url.raw } });
    case "reload":
      return step({ type: "launch", params: { reload: true } });
    case "history":
      return step({ type: "launch", params: { history: ast.direction } });
    case "set_cookie":
      return step({ type: "set_cookie", params: { name: ast.name, value: ast.value } });
    case "clear_storage":
      return step({ type: "clear_storage", params: { storage: ast.what } });
    case "resize":
      return step({ type: "set_viewport", params: { width: ast.width, height: ast.height } });
    case "click": {
      const type = ast.button === "right" ? "right_click" : ast.clickCount === 2 ? "double_click" : "click";
      return step({ type, params: { ...(ast.at ? { x_pct: ast.at.xPct, y_pct: ast.at.yPct } : {}), ...dialogParam(ast.dialog) } }, ast.target);
    }
    case "hover":
      return step({ type: "hover", params: dialogParam(ast.dialog) }, ast.target);
    // A step's kind narrows a plain label to the elements of its role (typing means a field), so a
    // heading that repeats a field's label neither takes the keystrokes nor makes the label ambiguous.
    case "type":
      return ast.target
        ? step({ type: "type_text", params: { text: ast.text.raw } }, ast.target, "field")
        : step({ type: "type_text", params: { text: ast.text.raw } });
    case "clear":
      return step({ type: "type_text", params: { text: "", replace: true } }, ast.target, "field");
    case "replace":
      return step({ type: "type_text", params: { text: ast.text.raw, replace: true } }, ast.target, "field");
    case "press_key":
      return step({ type: "press_key", params: { key: ast.key, modifiers: [...ast.modifiers] } });
    case "select":
      return step(
        { type: "type_text", params: { text: ast.options[0] ?? "", select: true, ...(ast.multi ? { values: [...ast.options] } : {}) } },
        ast.target,
        "dropdown",
      );
    case "set_checked":
      return step({ type: "set_checked", params: { checked: ast.checked } }, ast.target, "checkbox");
    case "wait_text":
      return step({
        type: "wait",
        params: {
          kind: "element_state",
          expect: { scope: "surface", value_contains: ast.text.raw, timeout_ms: ast.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS },
          selector_ref: null,
        },
      });
    case "remember":
      return step({ type: "capture", params: ast.count ? { name: ast.name, count: true } : { name: ast.name } }, ast.target);
    case "assert":
      return compileAssertion(intent, ast.assertion, step);
    case "drag": {
      const onto = selectorsFor(ast.onto);
      if (!onto) return unsupported("a drop target other than a plain element", 'address the drop target with `"css:…"` for now');
      return step({ type: "drag", params: { onto, ...(ast.at ? { x_pct: ast.at.xPct, y_pct: ast.at.yPct } : {}) } }, ast.source);
    }
    case "upload":
      return step({ type: "upload", params: { path: ast.path } }, ast.target);
    case "scroll": {
      const a = ast.to;
      const axis = "axis" in a && a.axis === "x" ? { axis: "x" as const } : {};
      const to =
        a.kind === "into_view"
          ? { into_view: true as const }
          : a.kind === "px"
            ? { to_px: a.px, ...axis }
            : a.kind === "pct"
              ? { to_pct: a.pct, ...axis }
              : { to: a.kind };
      return ast.target ? step({ type: "scroll", params: to }, ast.target) : step({ type: "scroll", params: to });
    }
    case "wait_download":
      return step({ type: "capture_download", params: { name: ast.name, timeout_ms: ast.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS } });
    case "structured":
      return step({ type: "assert", params: { kind: "structured", key: ast.key, args: ast.args, timeout_ms: structuredTimeoutMs(ast.args) } });
    case "no_secret_leak":
      return step({ type: "assert", params: { kind: "no_secret_leak", vars: [...ast.vars] } });
    case "agent_run":
      // The args were validated by spec/agent.ts when the flow loaded.
      return step({ type: "agent_run", params: { ...ast.args } as ActionOf<"agent_run">["params"] });
    case "intent":
      // Grounded at record time by the authoring loop; never compiled from text.
      return { ok: true, steps: [] };
  }
}

function compileAssertion(_intent: string, a: Assertion, step: (action: Action, target?: Target) => Compiled): Compiled {
  const timeout_ms = a.timeoutMs ?? DEFAULT_ASSERT_TIMEOUT_MS;
  const surface = (expect: ExpectKeys) =>
    step({ type: "assert", params: { kind: "element_state", expect: { scope: "surface", ...expect, timeout_ms }, selector_ref: null } });
  const element = (target: Target, expect: ExpectKeys) =>
    step({ type: "assert", params: { kind: "element_state", expect: { ...expect, timeout_ms }, selector_ref: 0 } }, target);
  switch (a.kind) {
    case "page_shows":
      if (a.negate) return surface({ value_not_contains: a.text.raw });
      return surface(a.times === undefined ? { value_contains: a.text.raw } : { value_contains: a.text.raw, count: a.times });
    case "page_url":
      return surface(a.op === "is" ? { url_equals: a.value.raw } : { url_contains: a.value.raw });
    case "page_title":
      return surface(a.op === "is" ? { title_equals: a.value.raw } : { title_contains: a.value.raw });
    case "shows":
    case "field_contains":
      return element(a.target, { value_contains: a.text.raw });
    case "not_shows":
      return element(a.target, { value_not_contains: a.text.raw });
    case "shows_computed":
      return element(a.target, { capture: a.capture, offset: a.op === "+" ? a.amount : -a.amount });
    case "visible":
      return element(a.target, { element_present: !a.negate });
    case "enabled":
      return element(a.target, { enabled: a.enabled });
    case "checked":
      return element(a.target, { checked: !a.negate });
    case "selected":
      return element(a.target, { selected: !a.negate });
    case "empty":
      return element(a.target, { value_empty: !a.negate });
    case "count":
      return element(a.target, { element_count: a.count });
    case "cookie":
      return surface({ cookie: a.name, cookie_fact: a.fact, ...(a.negate ? { negate: true as const } : {}) });
    case "cookie_where":
      return surface(a.attribute === "domain" ? { cookie: a.name, cookie_domain: a.value } : { cookie: a.name, cookie_path: a.value });
    case "cookie_count":
      return surface({ cookie_count: a.count });
    case "storage":
      return surface(
        a.exact
          ? { storage: a.area, storage_key: a.key.raw, storage_equals: a.text.raw }
          : { storage: a.area, storage_key: a.key.raw, storage_contains: a.text.raw },
      );
    case "number_compare":
      return element(a.target, { number_compare: a.op, number: a.value });
    case "storage_keys":
      return surface({ storage: a.area, storage_keys: a.keys.map((k) => k.raw) });
    case "storage_absent":
      return surface({ storage: a.area, storage_key: a.key.raw, storage_absent: true });
    case "shows_exactly":
      return element(a.target, { value_exactly: a.text.raw });
    case "focused":
      return element(a.target, { focused: !a.negate });
    case "attribute":
      return element(a.target, { attribute: a.name, value_equals: a.value.raw, ...(a.negate ? { negate: true } : {}) });
    case "has_attribute":
      return element(a.target, { attribute: a.name, present: !a.negate });
    case "style":
      return element(a.target, { style: a.prop, value_equals: a.value, ...(a.negate ? { negate: true } : {}) });
    case "app_sugar": {
      // A surface's own assertion reads the element its grammar names: its native id, then an optional structural rung.
      const compiled = element(
        { kind: "element", anchor: { kind: "id", id: a.reads.id } },
        a.compare === "numeric_equals" ? { value_equals: a.text, normalize: "numeric" } : { value_contains: a.text },
      );
      const fallback = a.reads.fallback;
      if (!compiled.ok || fallback === undefined) return compiled;
      return {
        ok: true,
        steps: compiled.steps.map((st) => ({
          ...st,
          selectors: [...st.selectors, { tier: "structural", provenance: "rules", confidence: 0.7, payload: { ...fallback } }],
        })),
      };
    }
  }
}

/** A structured step's bound: its `timeout_seconds` argument (0 = one attempt), default 10 s. */
function structuredTimeoutMs(args: unknown): number {
  const t = typeof args === "object" && args !== null ? (args as Record<string, unknown>)["timeout_seconds"] : undefined;
  return typeof t === "number" && t >= 0 ? Math.round(t * 1000) : DEFAULT_ASSERT_TIMEOUT_MS;
}

/** Trace `dialog {disposition, message?, match:"contains", reply?}` of a trigger action (reply as authored). */
function dialogParam(dialog: DialogSuffix | undefined): { dialog?: DialogParam } {
  if (!dialog) return {};
  return {
    dialog: {
      disposition: dialog.disposition,
      ...(dialog.message !== undefined ? { message: dialog.message } : {}),
      match: "contains",
      ...(dialog.reply ? { reply: dialog.reply.raw } : {}),
    },
  };
}
