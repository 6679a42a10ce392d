// Grounding: the model's action sequence checked against the listed scene tokens and turned into
// the SAME trace steps the rules grammar compiles to (via grammar ASTs and compileStep), so replay
// cannot tell a model-authored step from a rules one. A sequence is grounded as a whole or not at
// all. Pure: no driver, no model.
import type { SceneEntry, SceneInventory } from "../plugins/api.ts";
import type { Selector, TraceStep } from "../trace/schema.ts";
import type { ParseContext, StepAst, Target } from "../grammar/ast.ts";
import { parseStep, parseTemplate } from "../grammar/index.ts";

/** A surface that declares no vocabulary: the whole general grammar. */
const GENERAL: ParseContext = { surface: { name: "this" } };
import { compileStep } from "../engine/compile.ts";
import type { ModelAction } from "./protocol.ts";

export interface GroundContext {
  readonly intent: string;
  readonly scene: SceneInventory;
  /** Capture names in scope before this step (values are never known here). */
  readonly captures: readonly string[];
  readonly stepTimeoutMs: number;
  /** 0 for the first request of a step; later rounds follow `step_continues`. */
  readonly round: number;
  /** The surface's vocabulary: `rule_step` and `press_key` actions parse in it (default: the whole general grammar). */
  readonly grammar?: ParseContext;
}

export type Grounded =
  | {
      readonly ok: true;
      readonly steps: readonly Omit<TraceStep, "id">[];
      readonly continues: boolean;
      /** Capture names this sequence adds. */
      readonly captured: readonly string[];
      /** One line per action, for the continuation prompt and logs. */
      readonly summary: readonly string[];
    }
  /** `index` is the 0-based failing action; every action before it grounded. */
  | { readonly ok: false; readonly kind: "rejected"; readonly index: number; readonly total: number; readonly reason: string }
  | { readonly ok: false; readonly kind: "ambiguity"; readonly reference: string; readonly candidates: readonly string[] };

const CAPTURE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A scene token as a grammar target; undefined when the token has no target shape. */
export function tokenTarget(token: string): Target | undefined {
  if (token.startsWith("css:") && token.length > 4) return { kind: "element", anchor: { kind: "css", selector: token.slice(4) } };
  if (token.startsWith("id:") && token.length > 3) return { kind: "element", anchor: { kind: "id", id: token.slice(3) } };
  if (token.startsWith("text:") && token.length > 5) return { kind: "element", anchor: { kind: "text", text: token.slice(5) } };
  const scoped = /^scoped:css:(.+?) containing "([^"]*)" > css:(.+)$/.exec(token);
  if (scoped) return { kind: "scoped", container: { kind: "css", selector: scoped[1]! }, anchors: [scoped[2]!], inner: { kind: "css", selector: scoped[3]! } };
  const framed = /^framed:"([^"]*)" > css:(.+)$/.exec(token);
  if (framed) return { kind: "framed", frame: { kind: "text", text: framed[1]! }, inner: { kind: "css", selector: framed[2]! } };
  return undefined;
}

const byLlm = (s: Selector): Selector => ({ ...s, provenance: "llm" });

/** Marks every rung (and a drag's drop ladder) as minted by the model. */
function asLlm(step: Omit<TraceStep, "id">): Omit<TraceStep, "id"> {
  const action = step.action.type === "drag" ? { ...step.action, params: { ...step.action.params, onto: step.action.params.onto.map(byLlm) } } : step.action;
  return { ...step, action, selectors: step.selectors.map(byLlm) };
}

export function groundActions(actions: readonly ModelAction[], ctx: GroundContext): Grounded {
  const entries = new Map<string, SceneEntry>(ctx.scene.entries.map((e) => [e.target, e]));
  const inScope = new Set(ctx.captures);
  const captured: string[] = [];
  const asts: StepAst[] = [];
  const summary: string[] = [];
  const total = actions.length;
  let continues = false;

  for (const [index, a] of actions.entries()) {
    const reject = (reason: string): Grounded => ({ ok: false, kind: "rejected", index, total, reason });
    const listed = (token: string, purpose: "act" | "read" | "assert"): { target: Target; entry: SceneEntry } | string => {
      if (token === "surface") return purpose === "assert" ? "surface" : `"surface" may only be asserted, not used to ${purpose === "act" ? "act on" : "read"}`;
      const entry = entries.get(token);
      if (!entry) return `the target ${JSON.stringify(token)} is not in the scene list; copy a "target" from the list exactly`;
      if (purpose === "act" && !entry.actionable)
        return `the target ${JSON.stringify(token)} is readable only (actionable: false); it may only be captured or asserted`;
      if (purpose === "act" && entry.disabled) return `the target ${JSON.stringify(token)} is disabled`;
      const target = tokenTarget(token);
      if (!target) return `the target ${JSON.stringify(token)} has no usable form`;
      return { target, entry };
    };
    if (a.action === "step_continues") {
      if (index !== total - 1) return reject("step_continues must be the last action");
      if (index === 0) return reject("step_continues needs at least one action before it");
      continues = true;
      continue;
    }
    if (a.action === "step_complete") {
      if (total !== 1) return reject("step_complete must be the only action");
      if (ctx.round === 0) return reject("step_complete is only valid after step_continues; answer with the actions that perform the step");
      return { ok: true, steps: [], continues: false, captured: [], summary: [] };
    }
    if (a.action === "capture_ambiguity") {
      return { ok: false, kind: "ambiguity", reference: a.reference ?? "it", candidates: a.candidates ?? [...inScope] };
    }
    if (a.action === "press_key") {
      const parsed = parseStep(`Press ${a.key}`, ctx.grammar ?? GENERAL);
      if (!parsed.ok || parsed.value.kind !== "press_key")
        return reject(`flowproof has no key named ${JSON.stringify(a.key)} (e.g. Enter, Tab, Escape, Control+A)`);
      asts.push(parsed.value);
      summary.push(`press_key ${a.key}`);
      continue;
    }
    if (a.action === "rule_step") {
      const parsed = parseStep(a.step, ctx.grammar ?? GENERAL);
      if (!parsed.ok) return reject(`the rule_step ${JSON.stringify(a.step)} does not parse: ${parsed.error.message} (${parsed.error.hint})`);
      const ast = parsed.value;
      if (ast.kind === "type" && !ast.target) return reject("a rule_step may not type without naming its field; use type_text with a listed target");
      if (ast.kind === "drag") return reject("a rule_step may not drag; use the drag action with listed targets");
      if (/\$\{\s*captured\./.test(a.step) && ast.kind !== "assert") return reject("a rule_step may not type ${captured…}; use type_captured");
      if (ast.kind === "remember" && inScope.has(ast.name))
        return reject(`the capture name ${JSON.stringify(ast.name)} is already in scope; choose another name`);
      if (ast.kind === "remember") {
        inScope.add(ast.name);
        captured.push(ast.name);
      }
      asts.push(ast);
      summary.push(`rule_step ${a.step}`);
      continue;
    }
    if (a.action === "scroll") {
      if (a.target === undefined) {
        asts.push({ kind: "scroll", to: { kind: "px", px: a.to_px } });
      } else {
        const t = listed(a.target, "read");
        if (typeof t === "string") return reject(t);
        asts.push({ kind: "scroll", target: t.target, to: { kind: "px", px: a.to_px } });
      }
      summary.push(`scroll ${a.target ?? "page"} to ${a.to_px}px`);
      continue;
    }
    if (a.action === "assert_text") {
      const text = parseTemplate(a.expected);
      if (!text.ok) return reject(`the expected text is not valid: ${text.error.message}`);
      if (a.target === "surface") {
        asts.push({ kind: "assert", assertion: { kind: "page_shows", text: text.value, negate: false } });
      } else {
        const t = listed(a.target, "assert");
        if (typeof t === "string") return reject(t);
        asts.push({ kind: "assert", assertion: { kind: "shows", target: t.target, text: text.value } });
      }
      summary.push(`assert_text ${a.target} ${JSON.stringify(a.expected)}`);
      continue;
    }
    if (a.action === "capture_text" || a.action === "capture_count") {
      if (!CAPTURE_NAME.test(a.name)) return reject(`the capture name ${JSON.stringify(a.name)} is not a name; use letters, digits and _ (e.g. order_id)`);
      const t = listed(a.target, "read");
      if (typeof t === "string") return reject(t);
      inScope.add(a.name);
      captured.push(a.name);
      asts.push({ kind: "remember", target: t.target, name: a.name, count: a.action === "capture_count" });
      summary.push(`${a.action} ${a.target} as ${a.name}`);
      continue;
    }
    // The remaining actions act on an actionable target.
    const t = listed(a.target, "act");
    if (typeof t === "string") return reject(t);
    switch (a.action) {
      case "click":
        asts.push({ kind: "click", target: t.target, button: "left", clickCount: 1 });
        break;
      case "click_at":
        asts.push({ kind: "click", target: t.target, button: "left", clickCount: 1, at: { xPct: a.x_pct, yPct: a.y_pct } });
        break;
      case "drag": {
        const onto = listed(a.onto, "read");
        if (typeof onto === "string") return reject(`the drop target: ${onto}`);
        asts.push({ kind: "drag", source: t.target, onto: onto.target });
        break;
      }
      case "type_text": {
        if (/\$\{\s*captured\./.test(a.text)) return reject("type_text may not carry ${captured…}; use type_captured with the capture's name");
        const text = parseTemplate(a.text);
        if (!text.ok) return reject(`the text is not valid: ${text.error.message}`);
        if (t.entry.tag === "select") return reject(`the target ${JSON.stringify(a.target)} is a dropdown; use select_option with one of its options`);
        asts.push({ kind: "type", text: text.value, target: t.target });
        break;
      }
      case "type_captured": {
        if (!inScope.has(a.capture))
          return reject(`no capture named ${JSON.stringify(a.capture)} is in scope (in scope: ${[...inScope].join(", ") || "none"})`);
        const text = parseTemplate(`\${captured.${a.capture}}`);
        if (!text.ok) return reject(`the capture name ${JSON.stringify(a.capture)} is not valid`);
        asts.push({ kind: "type", text: text.value, target: t.target });
        break;
      }
      case "select_option":
      case "select_options": {
        const wanted = a.action === "select_option" ? [a.text] : [...a.values];
        const options = t.entry.options;
        if (!options) return reject(`the target ${JSON.stringify(a.target)} is not a dropdown (it lists no options)`);
        const chosen: string[] = [];
        for (const w of wanted) {
          const exact = options.find((o) => o === w) ?? options.find((o) => o.toLowerCase() === w.toLowerCase());
          if (exact === undefined)
            return reject(
              `${JSON.stringify(w)} is not an option of ${JSON.stringify(a.target)}; its options are ${options.map((o) => JSON.stringify(o)).join(", ")}`,
            );
          chosen.push(exact);
        }
        if (chosen.length > 1 && !t.entry.multiple) return reject(`${JSON.stringify(a.target)} allows only one option`);
        asts.push({ kind: "select", target: t.target, options: chosen, multi: chosen.length > 1 });
        break;
      }
    }
    summary.push(`${a.action} ${a.target}`);
  }

  const steps: Omit<TraceStep, "id">[] = [];
  for (const [index, ast] of asts.entries()) {
    const compiled = compileStep(ctx.intent, ast, { stepTimeoutMs: ctx.stepTimeoutMs });
    if (!compiled.ok) return { ok: false, kind: "rejected", index, total, reason: compiled.reason };
    steps.push(...compiled.steps.map(asLlm));
  }
  return { ok: true, steps, continues, captured, summary };
}

/** A typed number outside the range the page itself states for the field ("between 18 and 99"). */
export interface RangeChallenge {
  /** 0-based index of the action. */
  readonly index: number;
  readonly target: string;
  readonly value: string;
  readonly rule: string;
}

const RANGE = /between\s+(-?\d+(?:\.\d+)?)\s+and\s+(-?\d+(?:\.\d+)?)/i;

/** The first typed value that contradicts its field's stated range, if any (the model is challenged once). */
export function rangeChallenge(actions: readonly ModelAction[], scene: SceneInventory): RangeChallenge | undefined {
  const entries = new Map(scene.entries.map((e) => [e.target, e]));
  for (const [index, a] of actions.entries()) {
    if (a.action !== "type_text") continue;
    const rule = entries.get(a.target)?.rule;
    const m = rule ? RANGE.exec(rule) : null;
    const n = Number(a.text.trim());
    if (!m || a.text.trim() === "" || !Number.isFinite(n)) continue;
    const [lo, hi] = [Number(m[1]), Number(m[2])].sort((x, y) => x - y) as [number, number];
    if (n < lo || n > hi) return { index, target: a.target, value: a.text, rule: rule! };
  }
  return undefined;
}
