// Page side of the debug snapshot of a failed step (a module of the page script): the document as
// data (open shadow roots included, as declarative shadow DOM), so the driver redacts it before it becomes HTML, and the names of the visible elements a
// step could target, "visible" as the resolver and the scene inventory judge it (dom.ts).
import { isVisible, PLACEHOLDERS, placeholderOf } from "./dom.ts";

/**
 * The page's document as data, so it is redacted before it becomes HTML: a text node, a comment
 * (`{ comment }`), or an element as `[name, attributes, children]`.
 */
export type DomNode = string | { readonly comment: string } | readonly [string, ReadonlyArray<readonly [string, string]>, readonly DomNode[]];

/** What the debug snapshot reads from the page: the doctype, the document as data and the visible target names. */
export interface DebugPage {
  readonly doctype: string | null;
  readonly root: DomNode;
  readonly anchors: string[];
}

/** The document as data (password values left out), and the names of the visible elements a step could target (at most `max`). */
export function readDebugPage({ max }: { readonly max: number }): DebugPage {
  const read = (node: Node): DomNode | undefined => {
    if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) return node.nodeValue ?? "";
    if (node.nodeType === Node.COMMENT_NODE) return { comment: node.nodeValue ?? "" };
    if (node.nodeType !== Node.ELEMENT_NODE) return undefined;
    const el = node as Element;
    const password = el instanceof HTMLInputElement && (el.getAttribute("type") ?? "").toLowerCase() === "password";
    const attrs = Array.from(el.attributes)
      .filter((a) => !(password && a.name.toLowerCase() === "value"))
      .map((a) => [a.name, a.value] as const);
    const kids = el instanceof HTMLTemplateElement ? el.content.childNodes : el.childNodes;
    const children: DomNode[] = [];
    // An open shadow root is written as declarative shadow DOM serialises it: a first child
    // `<template shadowrootmode="open">` holding the root's content, so the reviewer sees what
    // the component rendered. A closed root is out of reach (`shadowRoot` is null).
    const shadow = el.shadowRoot;
    if (shadow !== null) {
      const inside: DomNode[] = [];
      for (const child of Array.from(shadow.childNodes)) {
        const n = read(child);
        if (n !== undefined) inside.push(n);
      }
      children.push(["template", [["shadowrootmode", shadow.mode]], inside]);
    }
    for (const child of Array.from(kids)) {
      const n = read(child);
      if (n !== undefined) children.push(n);
    }
    return [el.namespaceURI === "http://www.w3.org/1999/xhtml" ? el.localName : el.nodeName, attrs, children];
  };
  const root = read(document.documentElement) ?? "";
  const doctype = document.doctype ? document.doctype.name : null;
  const seen = new Set<string>();
  const anchors: string[] = [];
  const add = (text: string | null | undefined) => {
    const t = (text ?? "").replace(/\s+/g, " ").trim();
    if (t && t.length <= 80 && !seen.has(t) && anchors.length < max) {
      seen.add(t);
      anchors.push(t);
    }
  };
  const selector = `a,button,input,select,textarea,label,summary,option,[role],[aria-label],${PLACEHOLDERS},[title],h1,h2,h3,h4,h5,h6,th,td,li`;
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
    if (!isVisible(el)) continue;
    add(el.getAttribute("aria-label"));
    add(placeholderOf(el));
    add(el.getAttribute("title"));
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
      for (const label of Array.from(el.labels ?? [])) add(label.innerText);
      if (el instanceof HTMLInputElement && (el.type === "button" || el.type === "submit")) add(el.value);
    } else add(el.innerText);
  }
  return { doctype, root, anchors };
}
