// Page-side lookup of redaction rectangles for the web driver's `rectsFor`: one Runtime.evaluate
// expression that answers every target in one round trip, walking same-origin frames. A selector
// the page rejects answers ok:false (the recorder then drops the frame, never persists it).
import type { RectTarget, RectsAnswer } from "../../src/plugins/api.ts";

/**
 * Runs in the page. Self-contained: no references outside the function body. A string is a CSS
 * selector; `{text}` names the innermost elements whose text contains it (whitespace collapsed).
 */
function locate(selectors: ReadonlyArray<string | { readonly text: string }>): RectsAnswer[] {
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
  return selectors.map((sel) => {
    try {
      const rects: Array<{ x: number; y: number; width: number; height: number }> = [];
      for (const { doc, dx, dy } of docs) {
        for (const el of typeof sel === "string" ? Array.from(doc.querySelectorAll(sel)) : byText(doc, sel.text)) {
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

export function rectsExpression(targets: readonly RectTarget[]): string {
  return `(${locate.toString()})(${JSON.stringify(targets.map((t) => ("css" in t ? t.css : { text: t.text })))})`;
}
