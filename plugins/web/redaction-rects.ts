// Page-side lookup of redaction rectangles for the web driver's `rectsFor`: one Runtime.evaluate
// expression that answers every target in one round trip, walking same-origin frames. A selector
// the page rejects answers ok:false (the recorder then drops the frame, never persists it).
// Also the page side of secret fields: a field a `${VAR}` value is typed into is remembered by its
// document and masked in every frame until it is cleared or gone.
import type { RectTarget, RectsAnswer } from "../../src/plugins/api.ts";

/**
 * Runs in the page. Self-contained: no references outside the function body. A string is a CSS
 * selector; `{text}` names the innermost elements whose text contains it (whitespace collapsed).
 */
function locate(selectors: ReadonlyArray<string | { readonly text: string } | { readonly secretFields: true }>, secretKey: string): RectsAnswer[] {
  const norm = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();
  const byText = (doc: Document, text: string): Element[] => {
    const want = norm(text);
    const holds = (el: Element) => !/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(el.tagName) && norm(el.textContent).includes(want);
    return Array.from(doc.body ? doc.body.querySelectorAll("*") : []).filter((el) => holds(el) && !Array.from(el.children).some(holds));
  };
  const dpr = window.devicePixelRatio || 1;
  const docs: Array<{ doc: Document; dx: number; dy: number }> = [];
  const walk = (doc: Document, dx: number, dy: number): void => {
    docs.push({ doc, dx, dy });
    for (const frame of Array.from(doc.querySelectorAll("iframe, frame"))) {
      let inner: Document | null = null;
      try {
        inner = (frame as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null; // cross-origin: its pixels are its own origin's; nothing of ours to resolve
      }
      if (!inner) continue;
      const r = frame.getBoundingClientRect();
      const style = getComputedStyle(frame);
      walk(inner, dx + r.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft), dy + r.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop));
    }
  };
  walk(document, 0, 0);
  /** The fields of `doc` still holding what a secret was typed into: forgotten once cleared or gone. */
  const secretFields = (doc: Document): Element[] => {
    const held = (doc.defaultView as unknown as Record<string, Set<Element> | undefined> | null)?.[secretKey];
    if (!held) return [];
    for (const el of Array.from(held)) {
      const value = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : el.textContent ?? "";
      if (!el.isConnected || el.ownerDocument !== doc || value === "") held.delete(el);
    }
    return Array.from(held);
  };
  return selectors.map((sel) => {
    try {
      const rects: Array<{ x: number; y: number; width: number; height: number }> = [];
      for (const { doc, dx, dy } of docs) {
        for (const el of typeof sel === "string" ? Array.from(doc.querySelectorAll(sel)) : "text" in sel ? byText(doc, sel.text) : secretFields(doc)) {
          for (const r of Array.from(el.getClientRects())) {
            if (r.width <= 0 || r.height <= 0) continue;
            rects.push({ x: (r.left + dx) * dpr, y: (r.top + dy) * dpr, width: r.width * dpr, height: r.height * dpr });
          }
        }
      }
      return { ok: true as const, rects };
    } catch (error) {
      return { ok: false as const, detail: error instanceof Error ? error.message : String(error) };
    }
  });
}

/** A page's password fields, whatever case the page wrote the type in. */
const PASSWORD_FIELDS_CSS = "input[type=password i]";

/** Where a document's window keeps the fields a secret was typed into (a non-enumerable Set). */
const SECRET_FIELDS_KEY = "__flowproofSecretFields";

export function rectsExpression(targets: readonly RectTarget[]): string {
  const wire = targets.map((t) => ("css" in t ? t.css : "text" in t ? { text: t.text } : "passwordFields" in t ? PASSWORD_FIELDS_CSS : { secretFields: true as const }));
  return `(${locate.toString()})(${JSON.stringify(wire)}, ${JSON.stringify(SECRET_FIELDS_KEY)})`;
}

/**
 * Runs in the page: remembers the focused element (followed through open shadow roots and
 * same-origin frames) as a field a secret is typed into. False when nothing editable has focus.
 */
function markFocused(secretKey: string): boolean {
  let el: Element | null = document.activeElement;
  for (;;) {
    if (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    else if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) {
      let inner: Element | null = null;
      try {
        inner = el.contentDocument?.activeElement ?? null;
      } catch {
        inner = null;
      }
      if (!inner || inner === el.contentDocument?.body) return false;
      el = inner;
    } else break;
  }
  if (!el || el === el.ownerDocument.body || el === el.ownerDocument.documentElement) return false;
  const win = el.ownerDocument.defaultView as unknown as Record<string, Set<Element> | undefined> | null;
  if (!win) return false;
  if (!win[secretKey]) Object.defineProperty(win, secretKey, { value: new Set<Element>(), enumerable: false });
  win[secretKey]!.add(el);
  return true;
}

/** Marks the focused field as holding a secret (see `markFocused`); evaluates to true once marked. */
export const MARK_SECRET_FIELD = `(${markFocused.toString()})(${JSON.stringify(SECRET_FIELDS_KEY)})`;
