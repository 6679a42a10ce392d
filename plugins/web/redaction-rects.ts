// Page-side lookup of redaction rectangles for the web driver's `rectsFor`: one Runtime.evaluate
// expression that answers every target in one round trip, walking same-origin frames. A selector
// the page rejects answers ok:false (the recorder then drops the frame, never persists it).
// Also the page side of secret fields: a field a `${VAR}` value is typed into is remembered by its
// document and masked in every frame until it is cleared or gone; and of secret text: every place
// the page shows one of the run's secret values, found in the same call.
import type { RectTarget, RectsAnswer } from "../../src/plugins/api.ts";

/**
 * Runs in the page. Self-contained: no references outside the function body. A string is a CSS
 * selector; `{text}` names the innermost elements whose text contains it (whitespace collapsed);
 * `{secretText}` where the page shows any of those values (see `secretBoxes`).
 */
function locate(
  selectors: ReadonlyArray<string | { readonly text: string } | { readonly secretFields: true } | { readonly secretText: readonly string[] }>,
  secretKey: string,
): RectsAnswer[] {
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
      walk(
        inner,
        dx + r.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
        dy + r.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop),
      );
    }
  };
  walk(document, 0, 0);
  /** The fields of `doc` still holding what a secret was typed into: forgotten once cleared or gone. */
  const secretFields = (doc: Document): Element[] => {
    const held = (doc.defaultView as unknown as Record<string, Set<Element> | undefined> | null)?.[secretKey];
    if (!held) return [];
    for (const el of Array.from(held)) {
      const value = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : (el.textContent ?? "");
      if (!el.isConnected || el.ownerDocument !== doc || value === "") held.delete(el);
    }
    return Array.from(held);
  };
  type Box = { left: number; top: number; width: number; height: number };
  /** One code point as matched: lower case, whitespace dropped (the page's and the secret's alike). */
  const foldChar = (ch: string) => ch.toLowerCase().replace(/\s+/g, "");
  /** A text as matched: ASCII at once, anything else code point by code point (as `offsets` counts). */
  const fold = (text: string): string => (/^[\x00-\x7f]*$/.test(text) ? text.toLowerCase().replace(/\s+/g, "") : Array.from(text, foldChar).join(""));
  /** For each character of `fold(text)`, the offsets in `text` of the code point it came from. */
  const offsets = (text: string): { from: number[]; to: number[] } => {
    const from: number[] = [];
    const to: number[] = [];
    let i = 0;
    for (const ch of text) {
      for (let k = foldChar(ch).length; k > 0; k--) {
        from.push(i);
        to.push(i + ch.length);
      }
      i += ch.length;
    }
    return { from, to };
  };
  /** Attributes a page shows as text; any other one shows only through CSS `attr()` (checked on the element's pseudo-elements). */
  const SHOWN_ATTRIBUTES = /^(placeholder|alt|value|label|title)$/i;
  const UNSHOWN = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|TEXTAREA|HEAD|TITLE|OPTION|OPTGROUP|DATALIST)$/;
  /**
   * Where a document shows any secret: its text in rendering order (open shadow roots and slots
   * followed, so `<b>pa</b>ss` is one match), each piece of a secret at least half its length
   * shown apart from the rest, and whole elements for a field's value, a dropdown's choice or an
   * attribute (a placeholder, a title, an `attr()` a style shows) that holds one.
   */
  const secretBoxes = (doc: Document, wanted: readonly string[]): Box[] => {
    const needles = wanted.map(fold).filter((n) => n.length > 0);
    if (needles.length === 0) return [];
    const boxes: Box[] = [];
    const holds = (value: string) => {
      const f = fold(value);
      return needles.some((n) => f.includes(n));
    };
    const view = doc.defaultView;
    /** Whether a pseudo-element of `el` shows an attribute (`content: attr(…)`) or the secret itself. */
    const pseudoShows = (el: Element) =>
      [":before", ":after"].some((pseudo) => {
        const content = view ? view.getComputedStyle(el, pseudo).content : "";
        return content.includes("attr(") || holds(content);
      });
    const whole = (el: Element) => {
      for (const r of Array.from(el.getClientRects())) boxes.push(r);
    };
    const texts: Text[] = [];
    const visit = (node: Node): void => {
      if (node.nodeType === 3) {
        texts.push(node as Text);
        return;
      }
      if (node.nodeType !== 1 && node.nodeType !== 11) return;
      const el = node.nodeType === 1 ? (node as Element) : undefined;
      if (el) {
        const held = Array.from(el.attributes).filter((a) => holds(a.value));
        if (held.some((a) => SHOWN_ATTRIBUTES.test(a.name)) || (held.length > 0 && pseudoShows(el))) whole(el);
        const field = el as HTMLInputElement;
        if ((el.tagName === "INPUT" || el.tagName === "TEXTAREA") && typeof field.value === "string" && holds(field.value)) whole(el);
        if (el.tagName === "SELECT" && Array.from((el as HTMLSelectElement).options).some((o) => holds(o.text))) whole(el);
        if (UNSHOWN.test(el.tagName)) return;
        if (el.shadowRoot) return visit(el.shadowRoot);
        if (el.tagName === "SLOT") {
          const assigned = (el as HTMLSlotElement).assignedNodes();
          if (assigned.length > 0) return assigned.forEach(visit);
        }
      }
      node.childNodes.forEach(visit);
    };
    visit(doc.documentElement);
    // The text as shown, folded, and for each folded character its text node and offsets there.
    const parts = texts.map((t) => fold(t.data));
    const hay = parts.join("");
    const starts: number[] = [];
    let total = 0;
    for (const p of parts) {
      starts.push(total);
      total += p.length;
    }
    /** The text node holding folded character `at` (the last one starting at or before it that is not empty). */
    const owner = (at: number): number => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    const mapped = new Map<number, { from: number[]; to: number[] }>();
    const mark = (a: number, b: number) => {
      for (let n = owner(a); n <= owner(b - 1); n++) {
        const lo = Math.max(a, starts[n]!) - starts[n]!;
        const hi = Math.min(b, starts[n]! + parts[n]!.length) - starts[n]!;
        if (hi <= lo) continue;
        let p = mapped.get(n);
        if (!p) mapped.set(n, (p = offsets(texts[n]!.data)));
        const range = texts[n]!.ownerDocument.createRange();
        range.setStart(texts[n]!, p.from[lo]!);
        range.setEnd(texts[n]!, p.to[hi - 1]!);
        const rects = Array.from(range.getClientRects());
        const parent = texts[n]!.parentElement;
        // SVG text has no range boxes in some engines: its element's box stands in.
        if (rects.length === 0 && parent?.namespaceURI === "http://www.w3.org/2000/svg") whole(parent);
        // A little more than the glyphs: anti-aliased edges and overhanging italics.
        for (const r of rects) boxes.push({ left: r.left - 2, top: r.top - 1, width: r.width + 4, height: r.height + 2 });
      }
    };
    const find = (piece: string) => {
      for (let i = hay.indexOf(piece); i !== -1; i = hay.indexOf(piece, i + 1)) mark(i, i + piece.length);
    };
    for (const n of needles) {
      find(n);
      // A piece shown apart from the rest (laid out out of order, or a part of the value shown alone).
      const half = Math.max(4, Math.ceil(n.length / 2));
      if (half >= n.length) continue;
      const stride = Math.max(1, Math.ceil((n.length - half + 1) / 64));
      for (let j = 0; j + half <= n.length; j += stride) find(n.slice(j, j + half));
    }
    return boxes;
  };
  return selectors.map((sel) => {
    try {
      const rects: Array<{ x: number; y: number; width: number; height: number }> = [];
      for (const { doc, dx, dy } of docs) {
        const push = (r: Box) => {
          if (r.width <= 0 || r.height <= 0) return;
          rects.push({ x: (r.left + dx) * dpr, y: (r.top + dy) * dpr, width: r.width * dpr, height: r.height * dpr });
        };
        if (typeof sel === "object" && "secretText" in sel) {
          secretBoxes(doc, sel.secretText).forEach(push);
          continue;
        }
        for (const el of typeof sel === "string" ? Array.from(doc.querySelectorAll(sel)) : "text" in sel ? byText(doc, sel.text) : secretFields(doc)) {
          for (const r of Array.from(el.getClientRects())) push(r);
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
  const wire = targets.map((t) =>
    "css" in t
      ? t.css
      : "text" in t
        ? { text: t.text }
        : "passwordFields" in t
          ? PASSWORD_FIELDS_CSS
          : "secretText" in t
            ? { secretText: t.secretText }
            : { secretFields: true as const },
  );
  return `(${locate.toString()})(${JSON.stringify(wire)}, ${JSON.stringify(SECRET_FIELDS_KEY)})`;
}

/**
 * Runs in the page: remembers the focused element (followed through open shadow roots and
 * same-origin frames) as a field a secret is typed into. False when nothing editable has focus,
 * or (`passwordOnly`) when it is not a password field.
 */
function markFocused(secretKey: string, passwordOnly: boolean): boolean {
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
  if (passwordOnly && !(el.tagName === "INPUT" && (el as HTMLInputElement).type.toLowerCase() === "password")) return false;
  const win = el.ownerDocument.defaultView as unknown as Record<string, Set<Element> | undefined> | null;
  if (!win) return false;
  if (!win[secretKey]) Object.defineProperty(win, secretKey, { value: new Set<Element>(), enumerable: false });
  win[secretKey]!.add(el);
  return true;
}

/** Marks the focused field as holding a secret (see `markFocused`); evaluates to true once marked. */
export const MARK_SECRET_FIELD = `(${markFocused.toString()})(${JSON.stringify(SECRET_FIELDS_KEY)}, false)`;
/** The same for a password field only: true when the focused element is one (and is now marked). */
export const MARK_PASSWORD_FIELD = `(${markFocused.toString()})(${JSON.stringify(SECRET_FIELDS_KEY)}, true)`;
