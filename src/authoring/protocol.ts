// The model protocol: the prompt the authoring model sees (scene tokens, context, capture NAMES —
// never values) and the structured action sequence it must answer with. Pure: text in, text or
// typed actions out.
import type { SceneEntry, SceneInventory } from "../plugins/api.ts";

/** Most actions one step may hold. */
export const MAX_ACTIONS = 60;

/** One action of the model's answer. Every `target` must be a token from the scene list. */
export type ModelAction =
  | { readonly action: "click"; readonly target: string }
  | { readonly action: "click_at"; readonly target: string; readonly x_pct: number; readonly y_pct: number }
  | { readonly action: "drag"; readonly target: string; readonly onto: string }
  | { readonly action: "type_text"; readonly target: string; readonly text: string }
  | { readonly action: "type_captured"; readonly target: string; readonly capture: string }
  | { readonly action: "select_option"; readonly target: string; readonly text: string }
  | { readonly action: "select_options"; readonly target: string; readonly values: readonly string[] }
  | { readonly action: "scroll"; readonly target?: string; readonly to_px: number }
  | { readonly action: "press_key"; readonly key: string }
  | { readonly action: "capture_text"; readonly target: string; readonly name: string }
  | { readonly action: "capture_count"; readonly target: string; readonly name: string }
  | { readonly action: "assert_text"; readonly target: string; readonly expected: string; readonly contains?: boolean }
  | { readonly action: "rule_step"; readonly step: string }
  | { readonly action: "capture_ambiguity"; readonly reference?: string; readonly candidates?: readonly string[] }
  | { readonly action: "step_continues" }
  | { readonly action: "step_complete" };

export type ParsedReply =
  | { readonly ok: true; readonly actions: readonly ModelAction[] }
  /** `json`: not JSON at all (one retry); `shape`: JSON, but action `index` (0-based) is malformed. */
  | { readonly ok: false; readonly kind: "json" | "shape"; readonly reason: string; readonly index?: number };

const str = (o: Record<string, unknown>, k: string): string | undefined => (typeof o[k] === "string" ? (o[k] as string) : undefined);
const num = (o: Record<string, unknown>, k: string): number | undefined => (typeof o[k] === "number" && Number.isFinite(o[k]) ? (o[k] as number) : undefined);

/** Parses the model's reply: JSON only (code fences stripped); one object, an array, or `{"actions": […]}`. */
export function parseReply(text: string): ParsedReply {
  const stripped = text
    .trim()
    .replace(/^```[a-zA-Z]*\s*\n?/, "")
    .replace(/\n?```\s*$/, "")
    .trim();
  let value: unknown;
  try {
    value = JSON.parse(stripped);
  } catch (error) {
    return { ok: false, kind: "json", reason: `the reply is not valid JSON (${(error as Error).message})` };
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value) && Array.isArray((value as Record<string, unknown>)["actions"])) {
    value = (value as Record<string, unknown>)["actions"];
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) return { ok: false, kind: "shape", reason: "the reply holds no action" };
  if (list.length > MAX_ACTIONS)
    return { ok: false, kind: "shape", reason: `the reply holds ${list.length} actions; at most ${MAX_ACTIONS} are allowed per step` };
  const actions: ModelAction[] = [];
  for (const [index, raw] of list.entries()) {
    const a = parseAction(raw);
    if (typeof a === "string") return { ok: false, kind: "shape", reason: a, index };
    actions.push(a);
  }
  return { ok: true, actions };
}

function parseAction(raw: unknown): ModelAction | string {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return 'an action must be a JSON object with an "action" field';
  const o = raw as Record<string, unknown>;
  // Legacy alias: `target_css` names a css: token.
  const target = str(o, "target") ?? (str(o, "target_css") !== undefined ? `css:${str(o, "target_css")}` : undefined);
  const verb = str(o, "action");
  const need = (...keys: string[]) => {
    for (const k of keys) if (o[k] === undefined) return `"${verb}" needs "${k}"`;
    return undefined;
  };
  const needTarget = () => (target === undefined ? `"${verb}" needs "target" (a token from the list)` : undefined);
  switch (verb) {
    case "click":
      return needTarget() ?? { action: verb, target: target! };
    case "click_at": {
      const x = num(o, "x_pct");
      const y = num(o, "y_pct");
      if (x === undefined || y === undefined || x < 0 || x > 100 || y < 0 || y > 100) return '"click_at" needs x_pct and y_pct between 0 and 100';
      return needTarget() ?? { action: verb, target: target!, x_pct: x, y_pct: y };
    }
    case "drag":
      return (
        needTarget() ??
        need("onto") ??
        (str(o, "onto") === undefined ? '"drag" needs "onto" (a token from the list)' : { action: verb, target: target!, onto: str(o, "onto")! })
      );
    case "type_text":
      return needTarget() ?? (str(o, "text") === undefined ? '"type_text" needs "text"' : { action: verb, target: target!, text: str(o, "text")! });
    case "type_captured":
      return (
        needTarget() ??
        (str(o, "capture") === undefined
          ? '"type_captured" needs "capture" (a capture name in scope)'
          : { action: verb, target: target!, capture: str(o, "capture")! })
      );
    case "select_option":
      return (
        needTarget() ??
        (str(o, "text") === undefined ? '"select_option" needs "text" (an option of the dropdown)' : { action: verb, target: target!, text: str(o, "text")! })
      );
    case "select_options": {
      const values = o["values"];
      if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string"))
        return '"select_options" needs "values", a non-empty list of option labels';
      return needTarget() ?? { action: verb, target: target!, values: values as string[] };
    }
    case "scroll": {
      const px = num(o, "to_px");
      if (px === undefined || px < 0) return '"scroll" needs "to_px", a pixel offset ≥ 0';
      return target === undefined ? { action: verb, to_px: px } : { action: verb, target, to_px: px };
    }
    case "press_key":
      return str(o, "key") === undefined ? '"press_key" needs "key"' : { action: verb, key: str(o, "key")! };
    case "capture_text":
    case "capture_count":
      return needTarget() ?? (str(o, "name") === undefined ? `"${verb}" needs "name"` : { action: verb, target: target!, name: str(o, "name")! });
    case "assert_text": {
      const t = target ?? (o["body"] !== undefined ? "surface" : undefined);
      if (t === undefined) return '"assert_text" needs "target" (a token, or "surface" for the whole page)';
      if (str(o, "expected") === undefined) return '"assert_text" needs "expected"';
      return { action: verb, target: t, expected: str(o, "expected")!, ...(o["contains"] === false ? { contains: false } : {}) };
    }
    case "rule_step":
      return str(o, "step") === undefined ? '"rule_step" needs "step" (an exact rules-grammar step)' : { action: verb, step: str(o, "step")! };
    case "capture_ambiguity": {
      const c = o["candidates"];
      return {
        action: verb,
        ...(str(o, "reference") !== undefined ? { reference: str(o, "reference")! } : {}),
        ...(Array.isArray(c) ? { candidates: c.map(String) } : {}),
      };
    }
    case "step_continues":
    case "step_complete":
      return { action: verb };
    default:
      return `unknown action ${JSON.stringify(verb ?? null)}; use one of click, click_at, drag, type_text, type_captured, select_option, select_options, scroll, press_key, capture_text, capture_count, assert_text, rule_step, step_continues, step_complete`;
  }
}

export const SYSTEM_PROMPT = `You author one step of an end-to-end test for flowproof. You are given the step (a user's intent), context, and the SCENE: a finite list of elements of the live page, each with a "target" token.
Answer with JSON only: an array of actions, in execution order, that performs the WHOLE step (for example one type_text per field and then the click). Every "target" you use MUST be copied exactly from the scene list; nothing else is accepted. Only entries with "actionable": true may be clicked, typed into or selected; readable entries may only be captured or asserted; the target "surface" (the whole page) may only be asserted.
Actions:
{"action":"click","target":T}
{"action":"click_at","target":T,"x_pct":0-100,"y_pct":0-100}
{"action":"drag","target":T,"onto":T2}
{"action":"type_text","target":T,"text":"..."}   (copy \${VAR} references from the step exactly; never invent values)
{"action":"type_captured","target":T,"capture":NAME}   (type a remembered value; NAME from "captures in scope")
{"action":"select_option","target":T,"text":OPTION}   (OPTION copied from the entry's "options")
{"action":"select_options","target":T,"values":[OPTION,...]}
{"action":"scroll","target":T (optional),"to_px":N}
{"action":"press_key","key":"Enter"}
{"action":"capture_text","target":T,"name":NAME}   (remember a value; NAME a short snake_case name, or the name the step gives)
{"action":"capture_count","target":T,"name":NAME}
{"action":"assert_text","target":T or "surface","expected":"..."}
{"action":"rule_step","step":"<an exact flowproof rules step using listed tokens as \\"css:...\\" labels>"}
{"action":"capture_ambiguity","reference":"it","candidates":[NAME,...]}   (when a pronoun could mean more than one remembered value)
{"action":"step_continues"} as the LAST action when the rest of the step can only be seen after these actions run; you will be shown the new scene.
{"action":"step_complete"} alone, when asked to continue and nothing is left to do.`;

export interface PromptContext {
  readonly flowName: string;
  readonly app: string;
  /** The step as authored (`${VAR}` references raw, never values). */
  readonly step: string;
  readonly priorSteps: readonly string[];
  /** Names only: values are never sent. */
  readonly captures: readonly string[];
  readonly today: string;
  readonly scene: SceneInventory;
  /** Actions already performed in earlier rounds of this step (step_continues). */
  readonly performed?: readonly string[];
}

/** A scene entry as the model sees it: the wire names of the inventory, empty fields left out. */
function sceneLine(e: SceneEntry): Record<string, unknown> {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined));
}

/** The user message of the first request of a step. The `STEP:` line is how a recorded model keys its answers. */
export function userPrompt(ctx: PromptContext): string {
  const lines = [
    `STEP: ${ctx.step}`,
    `Flow: ${ctx.flowName} (app: ${ctx.app}); today is ${ctx.today}.`,
    `Page: ${ctx.scene.url} — ${ctx.scene.title}`,
    `Previous steps: ${ctx.priorSteps.length > 0 ? ctx.priorSteps.map((s, i) => `${i + 1}. ${s}`).join(" | ") : "none"}`,
    `Captures in scope (names only): ${ctx.captures.length > 0 ? ctx.captures.join(", ") : "none"}`,
  ];
  if (ctx.performed && ctx.performed.length > 0)
    lines.push(`Already performed for this step: ${ctx.performed.join("; ")}. Continue with what is left, or answer [{"action":"step_complete"}].`);
  lines.push(`Page text: ${ctx.scene.text}`);
  lines.push("SCENE:");
  for (const e of ctx.scene.entries) lines.push(JSON.stringify(sceneLine(e)));
  if (ctx.scene.omitted > 0) lines.push(`(${ctx.scene.omitted} more elements not listed)`);
  return lines.join("\n");
}

/** The correction sent after a sequence failed grounding: which action, how many before it were right. */
export function correctionPrompt(failedIndex: number, total: number, reason: string): string {
  if (total === 1) return `Your action was rejected: ${reason}. Answer with one corrected action object (JSON only), using only targets from the SCENE list.`;
  const good = failedIndex;
  return `Action ${failedIndex + 1} of ${total} was rejected: ${reason}. ${good === 0 ? "No action before it was grounded." : `The first ${good} ${good === 1 ? "action was" : "actions were"} correct and must be repeated unchanged.`} Answer with the corrected full array of actions (JSON only), using only targets from the SCENE list.`;
}

export const INVALID_JSON_PROMPT = (reason: string) => `Your reply could not be read: ${reason}. Answer again with JSON only: an array of action objects.`;

/** The one challenge of a typed number outside the range the page states for its field. */
export const rangePrompt = (index: number, value: string, target: string, rule: string) =>
  `Action ${index + 1} types ${JSON.stringify(value)} into ${JSON.stringify(target)}, but the page says: ${JSON.stringify(rule)}. If that value is intended (for example, the step tests the validation), answer with the same actions again; otherwise answer with the corrected full array (JSON only).`;
