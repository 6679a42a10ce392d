// The Redactor: the one implementation that masks pixels before anything is persisted. It parses
// redaction rules (from a flow's `redact:` or a trace header), always adds the password and
// secret-field rules, and fills every resolved rectangle in a decoded frame. Pure: no I/O; the
// recorder resolves rects.
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
  return "css" in t ? t.css : "text" in t ? JSON.stringify(t.text) : "passwordFields" in t ? "password fields" : "fields a secret was typed into";
}

/** Whether two rect lists cover the same pixels (each rect rounded out to whole pixels). */
function samePixels(a: readonly Rect[], b: readonly Rect[]): boolean {
  const px = (r: Rect) => `${Math.floor(r.x)},${Math.floor(r.y)},${Math.ceil(r.x + r.width)},${Math.ceil(r.y + r.height)}`;
  return a.length === b.length && a.every((r, i) => px(r) === px(b[i]!));
}

export type MaskOutcome = { readonly ok: true; readonly masked: number } | { readonly ok: false; readonly detail: string };

export class Redactor {
  readonly #fixed: readonly Rect[];
  /** Targets resolved per frame; the password and secret-field rules always come first. */
  readonly targets: readonly RectTarget[];

  constructor(rules: readonly RedactionRule[]) {
    const targets: RectTarget[] = [PASSWORD_TARGET, SECRET_FIELDS_TARGET];
    const fixed: Rect[] = [];
    for (const rule of rules) {
      if ("css" in rule.target) targets.push({ css: rule.target.css });
      else if ("text" in rule.target) targets.push({ text: rule.target.text });
      else {
        const [x, y, width, height] = rule.target.rect;
        fixed.push({ x, y, width, height });
      }
    }
    this.targets = targets;
    this.#fixed = fixed;
  }

  /**
   * Every rectangle a frame must mask: the fixed rects and each target's resolved rects. Rects
   * are resolved before and after the capture; a target whose rects differ between the batches
   * moved, appeared or went while the frame was taken, and the area it crossed is unknown, so
   * the frame fails. Any unresolved target fails the frame too: the caller must drop it, never
   * persist it.
   */
  masksFor(batches: ReadonlyArray<readonly RectsAnswer[]>): MaskPlan {
    const rects: Rect[] = [...this.#fixed];
    const seen: Array<readonly Rect[] | undefined> = [];
    for (const batch of batches) {
      if (batch.length !== this.targets.length) return { ok: false, detail: `expected ${this.targets.length} answers, got ${batch.length}` };
      for (const [i, answer] of batch.entries()) {
        if (!answer.ok) return { ok: false, detail: `${describeTarget(this.targets[i]!)}: ${answer.detail}` };
        const earlier = seen[i];
        if (earlier === undefined) {
          seen[i] = answer.rects;
          rects.push(...answer.rects);
        } else if (!samePixels(earlier, answer.rects)) {
          return { ok: false, detail: `${describeTarget(this.targets[i]!)}: moved while the frame was taken` };
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
