// Structural selector payloads for scoped targets (table cell, item/css/id container, iframe) and
// how such a payload reads in messages. Pure. Inner keys are prefixed (`inner_text`, not `text`) so
// an engine that predates these kinds fails loudly instead of resolving the inner target globally.
import type { Anchor, CellTarget, FramedTarget, ScopedTarget } from "../grammar/ast.ts";
import type { Selector } from "../trace/schema.ts";
import type { FramedPayload, ScopedPayload, SelectorPayload, StructuralPayload } from "../trace/selector.ts";

type Inner = { inner_text: string } | { inner_css: string } | { inner_id: string };
const innerPayload = (anchor: Anchor): Inner => {
  switch (anchor.kind) {
    case "text":
      return { inner_text: anchor.text };
    case "css":
      return { inner_css: anchor.selector };
    case "id":
      return { inner_id: anchor.id };
  }
};

/** The one `structural` rung of a cell, container or iframe target; scoped targets record no fallback rung. */
export function scopedSelector(target: CellTarget | ScopedTarget | FramedTarget): Selector {
  const role = target.role !== undefined ? { role: target.role } : {};
  let payload: StructuralPayload;
  switch (target.kind) {
    case "cell":
      payload = {
        kind: "cell",
        column_text: target.column,
        row_anchor: target.rowAnchors[0] ?? "",
        ...(target.rowAnchors.length > 1 ? { row_anchor_also: target.rowAnchors.slice(1) } : {}),
        ...role,
      };
      break;
    case "scoped": {
      const c = target.container;
      const container = c.kind === "item" ? "item" : c.kind === "css" ? `css:${c.selector}` : `id:${c.id}`;
      // A role noun alone (`the 2nd checkbox in the item …`) records no inner key: the role names it, `nth` picks among several.
      const inner = target.inner === undefined ? (target.nth === undefined ? {} : { nth: target.nth }) : innerPayload(target.inner);
      payload = {
        kind: "scoped",
        container,
        container_anchor: target.anchors[0] ?? "",
        ...(target.anchors.length > 1 ? { anchor_also: target.anchors.slice(1) } : {}),
        ...inner,
        ...role,
      };
      break;
    }
    case "framed":
      payload = {
        kind: "framed",
        ...(target.frame.kind === "css" ? { frame_css: target.frame.selector } : { frame_text: target.frame.text }),
        ...innerPayload(target.inner),
        ...role,
      };
      break;
  }
  return { tier: "structural", provenance: "rules", payload };
}

const quoteInner = (p: ScopedPayload | FramedPayload): string | undefined => {
  if (p.inner_css !== undefined) return `"css:${p.inner_css}"`;
  if (p.inner_id !== undefined) return `"id:${p.inner_id}"`;
  return p.inner_text === undefined ? undefined : JSON.stringify(p.inner_text);
};

/** `1st`, `2nd`, `11th`, `23rd`: an ordinal as a step writes it. */
export function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

const anchorList = (first: string, also: readonly string[] = []): string => [first, ...also].map((a) => JSON.stringify(a)).join(" and ");

/** `the "Status" column of the row containing "Grace Hopper"`; undefined for a payload that is not structural-scoped. */
export function describeScopedPayload(p: SelectorPayload): string | undefined {
  if (!("kind" in p)) return undefined;
  const role = p.role !== undefined ? ` ${p.role}` : "";
  switch (p.kind) {
    case "cell":
      return `the ${JSON.stringify(p.column_text)} column${role} of the row containing ${anchorList(p.row_anchor, p.row_anchor_also)}`;
    case "scoped": {
      const container = p.container === "item" ? "the item" : `the ${JSON.stringify(p.container)}`;
      const inner = quoteInner(p);
      const named = inner !== undefined ? `${inner}${role}` : `${p.nth !== undefined ? `${ordinal(p.nth)} ` : ""}${p.role ?? "element"}`;
      return `the ${named} in ${container} containing ${anchorList(p.container_anchor, p.anchor_also)}`;
    }
    case "framed": {
      const frame = p.frame_css !== undefined ? `"css:${p.frame_css}"` : JSON.stringify(p.frame_text ?? "");
      return `the ${quoteInner(p) ?? '""'}${role} in the iframe ${frame}`;
    }
  }
}
