// The Redactor: the one implementation that masks pixels before anything is persisted. It parses
// redaction rules (from a flow's `redact:` or a trace header), always adds the password and
// secret-field rules and, when the run has secrets, every place the screen shows one, and fills
// every resolved rectangle in a decoded frame. Pure: no I/O; the recorder resolves rects.
import { PASSWORD_FIELDS, type Rect, type RectTarget, type RectsAnswer } from "../plugins/api.ts";
import { fillRect, type Image, type Rgb } from "./image.ts";

/** One rule as written in `redact:` and copied into the trace header's `redaction`. */
export type RedactionRule =
  | { readonly target: { readonly css: string }; readonly mode: "mask" }
  | { readonly target: { readonly text: string }; readonly mode: "mask" }
  | { readonly target: { readonly rect: readonly [number, number, number, number] }; readonly mode: "mask" };

/** Solid black, per the recording design. */
export const MASK_RGB: Rgb = [0, 0, 0];

/** Not configurable: password fields are masked whatever the flow says. */
export const PASSWORD_TARGET: RectTarget = PASSWORD_FIELDS;
/** Not configurable: a field a `${VAR}` value was typed into is masked until it is cleared or gone. */
export const SECRET_FIELDS_TARGET: RectTarget = { secretFields: true };

/**
 * What a frame must mask besides the rules' targets: the run's secret values, wherever the surface
 * shows them, and how a rule's `${VAR}` text resolves (throws when it cannot). Supplied by the
 * execution; values stay in memory, never in a trace or report.
 */
export interface SecretSource {
  /** Every secret value of the run so far (what text outputs redact). */
  values(): readonly string[];
  /** A rule's text with its `${VAR}` references resolved; throws (its message says why) when one has no value. */
  resolve(text: string): string;
}

export type ParsedRules = { readonly ok: true; readonly rules: readonly RedactionRule[] } | { readonly ok: false; readonly detail: string };

/** Parses rules strictly: one rule this version cannot apply makes the whole set unusable (fail closed). */
export function parseRedactionRules(raw: readonly unknown[]): ParsedRules {
  const rules: RedactionRule[] = [];
  for (const [i, item] of raw.entries()) {
    const rule = parseRule(item);
    if (typeof rule === "string") return { ok: false, detail: `redaction rule ${i + 1}: ${rule}` };
    rules.push(rule);
  }
  return { ok: true, rules };
}

function parseRule(item: unknown): RedactionRule | string {
  if (!isRecord(item)) return "must be a mapping with `target` and `mode`";
  const extra = Object.keys(item).filter((k) => k !== "target" && k !== "mode");
  if (extra.length > 0) return `unknown key ${JSON.stringify(extra[0])}`;
  if (item["mode"] !== "mask") return `mode must be "mask", not ${JSON.stringify(item["mode"])}`;
  const target = item["target"];
  if (!isRecord(target) || Object.keys(target).length !== 1) return "target must be exactly one of {css}, {text} or {rect}";
  if ("css" in target) {
    const css = target["css"];
    if (typeof css !== "string" || css.trim() === "") return "target.css must be a non-empty selector";
    return { target: { css }, mode: "mask" };
  }
  if ("text" in target) {
    const text = target["text"];
    if (typeof text !== "string" || text.trim() === "") return "target.text must be a non-empty text";
    return { target: { text }, mode: "mask" };
  }
  if ("rect" in target) {
    const rect = target["rect"];
    if (!Array.isArray(rect) || rect.length !== 4 || !rect.every((n) => typeof n === "number" && Number.isFinite(n)) || rect[2] <= 0 || rect[3] <= 0) {
      return "target.rect must be [x, y, width, height] with a positive width and height";
    }
    return { target: { rect: [rect[0], rect[1], rect[2], rect[3]] }, mode: "mask" };
  }
  return `target ${JSON.stringify(Object.keys(target)[0])} is not one this version can resolve (css, text, rect)`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export type MaskPlan = { readonly ok: true; readonly rects: readonly Rect[] } | { readonly ok: false; readonly detail: string };

/** Solid-fills every rect in the decoded frame, in place, before it is encoded. */
export function applyMasks(image: Image, rects: readonly Rect[]): void {
  for (const rect of rects) fillRect(image, rect, MASK_RGB);
}

function describeTarget(t: RectTarget): string {
  if ("secretText" in t) return "a secret the screen shows";
  return "css" in t ? t.css : "text" in t ? JSON.stringify(t.text) : "passwordFields" in t ? "password fields" : "fields a secret was typed into";
}

/** The targets one frame resolves (the same list before and after its capture), or why none can be. */
export type TargetPlan = { readonly ok: true; readonly targets: readonly RectTarget[] } | { readonly ok: false; readonly detail: string };

/** Whether two rect lists cover the same pixels (each rect rounded out to whole pixels). */
function samePixels(a: readonly Rect[], b: readonly Rect[]): boolean {
  const px = (r: Rect) => `${Math.floor(r.x)},${Math.floor(r.y)},${Math.ceil(r.x + r.width)},${Math.ceil(r.y + r.height)}`;
  return a.length === b.length && a.every((r, i) => px(r) === px(b[i]!));
}

export type MaskOutcome = { readonly ok: true; readonly masked: number } | { readonly ok: false; readonly detail: string };

export class Redactor {
  readonly #fixed: readonly Rect[];
  readonly #secrets: SecretSource | undefined;
  /** Text rules naming a `${VAR}`: resolved for each frame, then masked as a secret is. */
  readonly #secretRules: readonly string[];
  /** Targets resolved per frame; the password and secret-field rules always come first. */
  readonly targets: readonly RectTarget[];

  constructor(rules: readonly RedactionRule[], secrets?: SecretSource) {
    const targets: RectTarget[] = [PASSWORD_TARGET, SECRET_FIELDS_TARGET];
    const fixed: Rect[] = [];
    const secretRules: string[] = [];
    this.#secrets = secrets;
    for (const rule of rules) {
      if ("css" in rule.target) targets.push({ css: rule.target.css });
      else if ("text" in rule.target && rule.target.text.includes("${")) secretRules.push(rule.target.text);
      else if ("text" in rule.target) targets.push({ text: rule.target.text });
      else {
        const [x, y, width, height] = rule.target.rect;
        fixed.push({ x, y, width, height });
      }
    }
    this.targets = targets;
    this.#fixed = fixed;
    this.#secretRules = secretRules;
  }

  /**
   * The targets of a frame taken now: the rules' targets, then (when the run has any) every secret
   * value and every `${VAR}` rule's text as one `secretText` target. A rule whose reference cannot
   * be resolved fails the frame.
   */
  targetsNow(): TargetPlan {
    const values = [...(this.#secrets?.values() ?? [])];
    for (const text of this.#secretRules) {
      if (!this.#secrets) return { ok: false, detail: `the redaction rule text ${JSON.stringify(text)} cannot be resolved here` };
      try {
        values.push(this.#secrets.resolve(text));
      } catch (error) {
        return { ok: false, detail: `the redaction rule text ${JSON.stringify(text)}: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    const wanted = [...new Set(values.filter((v) => v.trim() !== ""))];
    return { ok: true, targets: wanted.length > 0 ? [...this.targets, { secretText: wanted }] : this.targets };
  }

  /**
   * Every rectangle a frame must mask: the fixed rects and each target's resolved rects. Rects
   * are resolved before and after the capture; a target whose rects differ between the batches
   * moved, appeared or went while the frame was taken, and the area it crossed is unknown, so
   * the frame fails. Any unresolved target fails the frame too: the caller must drop it, never
   * persist it.
   */
  masksFor(batches: ReadonlyArray<readonly RectsAnswer[]>, targets: readonly RectTarget[] = this.targets): MaskPlan {
    const rects: Rect[] = [...this.#fixed];
    const seen: Array<readonly Rect[] | undefined> = [];
    for (const batch of batches) {
      if (batch.length !== targets.length) return { ok: false, detail: `expected ${targets.length} answers, got ${batch.length}` };
      for (const [i, answer] of batch.entries()) {
        if (!answer.ok) return { ok: false, detail: `${describeTarget(targets[i]!)}: ${answer.detail}` };
        const earlier = seen[i];
        if (earlier === undefined) {
          seen[i] = answer.rects;
          rects.push(...answer.rects);
        } else if (!samePixels(earlier, answer.rects)) {
          return { ok: false, detail: `${describeTarget(targets[i]!)}: moved while the frame was taken` };
        }
      }
    }
    return { ok: true, rects };
  }

  /** `masksFor` then `applyMasks`, in place. */
  mask(image: Image, batches: ReadonlyArray<readonly RectsAnswer[]>): MaskOutcome {
    const plan = this.masksFor(batches);
    if (!plan.ok) return plan;
    applyMasks(image, plan.rects);
    return { ok: true, masked: plan.rects.length };
  }
}
