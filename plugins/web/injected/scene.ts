// Page-side scene inventory for model authoring (a module of the page script): lists the whole
// rendered page as provenance-neutral tokens. Never reports a password field's value.
import { isVisible, placeholderOf } from "./dom.ts";

/** One entry of the inventory, as the model sees it. */
export interface SceneEntry {
  /** The token the model must copy: `css:…`, `scoped:css:… containing "…" > css:…`, `framed:"…" > css:…`. */
  target: string;
  tag: string;
  /** Clickable/typeable; readable-only entries may only be remembered or asserted. */
  actionable: boolean;
  type?: string;
  text?: string;
  label?: string;
  /** Current value of a field (≤80 chars); never for password, checkbox or radio inputs. */
  value?: string;
  checked?: boolean;
  required?: boolean;
  disabled?: boolean;
  /** A `<select>`'s option labels (≤60). */
  options?: string[];
  multiple?: boolean;
  /** Collections (table rows): how many elements the token names. */
  count?: number;
  /** A control the page marks invalid (aria-invalid, or a field that failed its own validation after input). */
  invalid?: boolean;
  /** The page's own constraint text for a control (its aria-describedby text), ≤100 chars. */
  rule?: string;
}

export interface SceneReading {
  url: string;
  title: string;
  /** Whitespace-collapsed visible text of the page (≤2000 chars); password values never appear in it. */
  text: string;
  entries: SceneEntry[];
  /** Entries left out because of the cap. */
  omitted: number;
  /** `document.readyState === "complete"`. */
  loaded: boolean;
}

export interface SceneOptions {
  /** Most entries listed (interactive first, then collections, then readable leaves); default 100. */
  max?: number;
}

export function readScene(options: SceneOptions): SceneReading {
  const MAX = options.max ?? 100;
  const TEXT_MAX = 80;
  const clip = (s: string, n = TEXT_MAX) => {
    const t = s.replace(/\s+/g, " ").trim();
    return t.length > n ? `${t.slice(0, n - 1)}…` : t;
  };
  const esc = (s: string) => (typeof CSS !== "undefined" && CSS.escape ? CSS.escape(s) : s.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`));
  const attrq = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"');

  // "Visible" is the resolver's own (dom.ts): the model is offered exactly what a step can reach.
  const visible = isVisible;

  const INTERACTIVE =
    "input:not([type=hidden]), select, textarea, button, a[href], summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [contenteditable=true], [onclick], [draggable=true]";
  const isInteractive = (el: Element) => el.matches(INTERACTIVE);

  /** A CSS selector naming exactly `el` within its document: id, name, a distinctive attribute, else a structural path. */
  const uniqueSelector = (el: Element): string => {
    const doc = el.ownerDocument;
    const unique = (sel: string) => {
      try {
        const all = doc.querySelectorAll(sel);
        return all.length === 1 && all[0] === el;
      } catch {
        return false;
      }
    };
    const tag = el.tagName.toLowerCase();
    if (el.id && unique(`#${esc(el.id)}`)) return `#${esc(el.id)}`;
    for (const attr of ["name", "data-testid", "data-test", "aria-label", "placeholder", "for", "title", "alt"]) {
      const v = el.getAttribute(attr);
      if (v && unique(`${tag}[${attr}="${attrq(v)}"]`)) return `${tag}[${attr}="${attrq(v)}"]`;
    }
    if (tag === "input") {
      const t = el.getAttribute("type");
      if (t && unique(`input[type="${attrq(t)}"]`)) return `input[type="${attrq(t)}"]`;
    }
    const classes = Array.from(el.classList).filter((c) => /^[a-zA-Z][\w-]*$/.test(c));
    for (const c of classes) if (unique(`${tag}.${esc(c)}`)) return `${tag}.${esc(c)}`;
    // Structural path up to the nearest ancestor with a unique id.
    const parts: string[] = [];
    let cur: Element | null = el;
    while (cur && cur !== doc.documentElement) {
      const t = cur.tagName.toLowerCase();
      if (cur !== el && cur.id && unique(`#${esc(cur.id)}`)) {
        parts.unshift(`#${esc(cur.id)}`);
        break;
      }
      const parent: Element | null = cur.parentElement;
      if (!parent) {
        parts.unshift(t);
        break;
      }
      const same = Array.from(parent.children).filter((c) => c.tagName === cur!.tagName);
      parts.unshift(same.length > 1 ? `${t}:nth-of-type(${same.indexOf(cur) + 1})` : t);
      cur = parent;
    }
    return parts.join(" > ");
  };

  const labelOf = (el: Element): string | undefined => {
    const aria = el.getAttribute("aria-label");
    if (aria) return clip(aria);
    const doc = el.ownerDocument;
    if (el.id) {
      const l = doc.querySelector(`label[for="${attrq(el.id)}"]`);
      if (l && l.textContent) return clip(l.textContent);
    }
    const wrap = el.closest("label");
    if (wrap && wrap.textContent) return clip(wrap.textContent);
    const ph = placeholderOf(el);
    if (ph) return clip(ph);
    const title = el.getAttribute("title");
    if (title) return clip(title);
    return undefined;
  };

  const describedBy = (el: Element): string | undefined => {
    const ids = (el.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
    const text = ids
      .map((id) => el.ownerDocument.getElementById(id)?.textContent ?? "")
      .join(" ")
      .trim();
    return text ? clip(text, 100) : undefined;
  };

  const entryFor = (el: Element, prefix: (sel: string) => string, actionable: boolean): SceneEntry => {
    const tag = el.tagName.toLowerCase();
    const e: SceneEntry = { target: prefix(uniqueSelector(el)), tag, actionable };
    const type = el.getAttribute("type");
    if (type) e.type = type.toLowerCase();
    const label = labelOf(el);
    if (label) e.label = label;
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      const t = (el.getAttribute("type") ?? "").toLowerCase();
      if (t === "checkbox" || t === "radio") e.checked = (el as HTMLInputElement).checked;
      else if (t !== "password" && el.value !== "") e.value = clip(el.value);
      else if (t === "submit" || t === "button" || t === "reset") e.text = clip(el.value);
      if (el.required) e.required = true;
      if (el.disabled) e.disabled = true;
      const described = describedBy(el);
      if (described) e.rule = described;
      if (el.getAttribute("aria-invalid") === "true" || (el.value !== "" && !el.checkValidity())) e.invalid = true;
    } else if (el instanceof HTMLSelectElement) {
      e.options = Array.from(el.options)
        .slice(0, 60)
        .map((o) => clip(o.label || o.text));
      const chosen = Array.from(el.selectedOptions).map((o) => o.label || o.text);
      if (chosen.length > 0) e.value = clip(chosen.join(", "));
      if (el.multiple) e.multiple = true;
      if (el.required) e.required = true;
      if (el.disabled) e.disabled = true;
    } else {
      const text = clip((el as HTMLElement).innerText ?? el.textContent ?? "");
      if (text) e.text = text;
      const role = el.getAttribute("role");
      if (role === "checkbox" || role === "switch" || role === "radio") e.checked = el.getAttribute("aria-checked") === "true";
      if (el instanceof HTMLButtonElement && el.disabled) e.disabled = true;
    }
    return e;
  };

  const interactive: SceneEntry[] = [];
  const readable: SceneEntry[] = [];
  const collections: SceneEntry[] = [];

  const walk = (doc: Document, prefix: (sel: string) => string) => {
    const body = doc.body;
    if (!body) return;
    for (const el of Array.from(body.querySelectorAll(INTERACTIVE))) {
      if (!visible(el)) continue;
      // A control hidden behind a styled <label> is reached through the label instead.
      interactive.push(entryFor(el, prefix, true));
    }
    // A <label> that wraps a visually hidden control stands in for it.
    for (const label of Array.from(body.querySelectorAll("label"))) {
      const controls = label.querySelectorAll("input, select, textarea");
      const c = controls[0];
      if (controls.length !== 1 || !c || visible(c) || !visible(label) || (c as HTMLInputElement).disabled) continue;
      interactive.push({
        ...entryFor(label, prefix, true),
        ...(c instanceof HTMLInputElement && (c.type === "checkbox" || c.type === "radio") ? { checked: c.checked } : {}),
      });
    }
    // Readable leaves: elements with their own text that are not inside an interactive element.
    for (const el of Array.from(body.querySelectorAll("*"))) {
      const tag = el.tagName.toLowerCase();
      if (tag === "script" || tag === "style" || tag === "noscript" || tag === "option" || tag === "label") continue;
      if (isInteractive(el) || el.closest(INTERACTIVE)) continue;
      const own = Array.from(el.childNodes)
        .filter((n) => n.nodeType === 3)
        .map((n) => n.textContent ?? "")
        .join(" ")
        .trim();
      if (!own || !visible(el)) continue;
      const entry = entryFor(el, prefix, false);
      readable.push(entry);
      // A value beside a text anchor in a row-like container: also offered as a scoped token, which
      // replay resolves by the anchor wherever the row moves.
      const container = el.parentElement;
      if (container && container !== body && container.children.length >= 2 && container.children.length <= 6) {
        // The anchor is the nearest earlier sibling with text: a label reads before its value.
        const siblings = Array.from(container.children);
        const anchorEl = siblings
          .slice(0, siblings.indexOf(el))
          .reverse()
          .find((c) => (c.textContent ?? "").trim() !== "");
        const inner = Array.from(el.classList).find((c) => /^[a-zA-Z][\w-]*$/.test(c));
        const containerClass = Array.from(container.classList).find((c) => /^[a-zA-Z][\w-]*$/.test(c));
        if (anchorEl && inner && containerClass && doc === document) {
          const anchor = clip(anchorEl.textContent ?? "", 60);
          readable.push({
            target: `scoped:css:${container.tagName.toLowerCase()}.${esc(containerClass)} containing "${anchor.replace(/"/g, "'")}" > css:.${esc(inner)}`,
            tag: el.tagName.toLowerCase(),
            actionable: false,
            ...(entry.text ? { text: entry.text } : {}),
          });
        }
      }
    }
    for (const table of Array.from(body.querySelectorAll("table"))) {
      if (!visible(table)) continue;
      const sel = prefix(`${uniqueSelector(table)} tr`);
      collections.push({ target: sel, tag: "tr", actionable: false, count: table.querySelectorAll("tr").length });
    }
  };

  walk(document, (sel) => `css:${sel}`);
  // Visible same-origin frames: their elements as framed tokens (a cross-origin frame is unreachable).
  for (const frame of Array.from(document.querySelectorAll("iframe"))) {
    if (!visible(frame)) continue;
    let doc: Document | null = null;
    try {
      doc = frame.contentDocument;
    } catch {
      doc = null;
    }
    if (!doc) continue;
    const name = frame.getAttribute("title") || frame.getAttribute("name") || frame.id;
    if (!name) continue;
    walk(doc, (sel) => `framed:"${name.replace(/"/g, "'")}" > css:${sel}`);
  }

  const seen = new Set<string>();
  const all: SceneEntry[] = [];
  // Collections before readable leaves, so a long page's text does not push its tables past the cap.
  for (const e of [...interactive, ...collections, ...readable]) {
    if (seen.has(e.target)) continue;
    seen.add(e.target);
    all.push(e);
  }
  // Visible text with password values never included (innerText does not include field values).
  const text = clip(document.body ? document.body.innerText : "", 2000);
  return {
    url: location.href,
    title: document.title,
    text,
    entries: all.slice(0, MAX),
    omitted: Math.max(0, all.length - MAX),
    loaded: document.readyState === "complete",
  };
}
