// Structural selector payloads for scoped targets (table cell, item/css/id container, iframe) and
// how such a payload reads in messages. Pure. Inner keys are prefixed (`inner_text`, not `text`) so
// an engine that predates these kinds fails loudly instead of resolving the inner target globally.
import type { Anchor, CellTarget, FramedTarget, ScopedTarget } from "../grammar/ast.ts";
import type { Selector } from "../trace/schema.ts";

const innerPayload = (anchor: Anchor): Record<string, unknown> => {
  switch (anchor.kind) {
    case "text":
      return { inner_text: anchor.text };
    case "css":
      return { inner_css: anchor.selector };
    case "id":
      return { inner_id: anchor.id };
  }
};

const withAlso = (key: string, anchors: readonly string[]): Record<string, unknown> => (anchors.length > 1 ? { [key]: anchors.slice(1) } : {});

/** The one `structural` rung of a cell, container or iframe target; scoped targets record no fallback rung. */
export function scopedSelector(target: CellTarget | ScopedTarget | FramedTarget): Selector {
  const role = target.role !== undefined ? { role: target.role } : {};
  let payload: Record<string, unknown>;
  switch (target.kind) {
    case "cell":
      payload = { kind: "cell", column_text: target.column, row_anchor: target.rowAnchors[0] ?? "", ...withAlso("row_anchor_also", target.rowAnchors), ...role };
      break;
    case "scoped": {
      const c = target.container;
      const container = c.kind === "item" ? "item" : c.kind === "css" ? `css:${c.selector}` : `id:${c.id}`;
      payload = { kind: "scoped", container, container_anchor: target.anchors[0] ?? "", ...withAlso("anchor_also", target.anchors), ...innerPayload(target.inner), ...role };
      break;
    }
    case "framed":
      payload = { kind: "framed", ...(target.frame.kind === "css" ? { frame_css: target.frame.selector } : { frame_text: target.frame.text }), ...innerPayload(target.inner), ...role };
      break;
  }
  return { tier: "structural", provenance: "rules", payload };
}

const quoteInner = (p: Readonly<Record<string, unknown>>): string => {
  if (typeof p["inner_css"] === "string") return `"css:${p["inner_css"]}"`;
  if (typeof p["inner_id"] === "string") return `"id:${p["inner_id"]}"`;
  return JSON.stringify(String(p["inner_text"] ?? ""));
};

const anchorList = (first: unknown, also: unknown): string =>
  [first, ...(Array.isArray(also) ? also : [])].map((a) => JSON.stringify(String(a))).join(" and ");

/** `the "Status" column of the row containing "Grace Hopper"`; undefined for a payload that is not structural-scoped. */
export function describeScopedPayload(p: Readonly<Record<string, unknown>>): string | undefined {
  const role = typeof p["role"] === "string" ? ` ${p["role"]}` : "";
  switch (p["kind"]) {
    case "cell":
      return `the ${JSON.stringify(String(p["column_text"]))} column${role} of the row containing ${anchorList(p["row_anchor"], p["row_anchor_also"])}`;
    case "scoped": {
      const c = String(p["container"]);
      const container = c === "item" ? "the item" : `the ${JSON.stringify(c)}`;
      return `the ${quoteInner(p)}${role} in ${container} containing ${anchorList(p["container_anchor"], p["anchor_also"])}`;
    }
    case "framed": {
      const frame = typeof p["frame_css"] === "string" ? `"css:${p["frame_css"]}"` : JSON.stringify(String(p["frame_text"]));
      return `the ${quoteInner(p)}${role} in the iframe ${frame}`;
    }
    default:
      return undefined;
  }
}
