// The wire shapes of `flowproof codegen` between the page-side listener and the Node side (types
// only): each user action as the page reports it, with the targets it checked through the resolver.
import type { Rung } from "./protocol.ts";

/** What a quoted label names: visible text, a `css:` selector or an `id:` (the grammar's Anchor). */
export type CodegenAnchor =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "css"; readonly selector: string }
  | { readonly kind: "id"; readonly id: string };

/** The grammar's role nouns. */
export type CodegenRole = "field" | "button" | "link" | "dropdown" | "checkbox";

/** A target in the grammar's AST shape (src/grammar/ast.ts `Target`), as the page named an element. */
export type CodegenTarget =
  | { readonly kind: "element"; readonly anchor: CodegenAnchor; readonly nth?: number; readonly role?: CodegenRole }
  | {
      readonly kind: "scoped";
      readonly container: { readonly kind: "item" };
      readonly anchors: readonly string[];
      readonly inner: CodegenAnchor;
      readonly role?: CodegenRole;
    }
  | { readonly kind: "cell"; readonly column: string; readonly rowAnchors: readonly string[]; readonly role?: CodegenRole };

/** A target the page resolved back to exactly the element acted on, and the ladder it resolved. */
export interface NamedTarget {
  readonly target: CodegenTarget;
  readonly ladder: readonly Rung[];
}

/** The element's names, best first, each checked; `what` describes the element when none is unique. */
export interface Naming {
  readonly targets: readonly NamedTarget[];
  readonly what: string;
}

/** One user action or a pointed assertion, as the page reports it. A secret field's value is never part of it. */
export type CodegenEvent =
  | { readonly kind: "click"; readonly naming: Naming }
  | { readonly kind: "check"; readonly naming: Naming; readonly checked: boolean }
  /** `value` is absent for a secret field: `secret` carries its label (for the variable's name) instead. */
  | { readonly kind: "type"; readonly naming: Naming; readonly value?: string; readonly secret?: { readonly label: string } }
  | { readonly kind: "select"; readonly naming: Naming; readonly options: readonly string[] }
  | { readonly kind: "key"; readonly key: "Enter" | "Escape" }
  /** The person scrolled the page to its bottom and the page grew (it loads more as it is scrolled): the scroll matters. */
  | { readonly kind: "scroll"; readonly to: "bottom" }
  | { readonly kind: "assert_shows"; readonly naming: Naming; readonly text: string }
  | { readonly kind: "assert_page_shows"; readonly text: string }
  | { readonly kind: "assert_visible"; readonly naming: Naming }
  | { readonly kind: "assert_url"; readonly url: string };
