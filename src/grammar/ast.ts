// Typed AST of the rules grammar: what a step's text means, before any app is touched.
// Pure types plus tiny constructors; no I/O. Offsets are 0-based UTF-16 offsets into the step text.

import type { AssertionSugar } from "./vocabulary.ts";

export type { AssertionSugar, GrammarForm, GrammarVerb, KeyVocabulary, ParseContext, SurfaceGrammar } from "./vocabulary.ts";

/** A `${…}` template, parsed once. `raw` is exactly what was written (what traces store). */
export interface Template {
  readonly raw: string;
  readonly parts: readonly TemplatePart[];
}
export type TemplatePart =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "env"; readonly name: string }
  | { readonly kind: "captured"; readonly name: string };

/** What a quoted label or bare id names. */
export type Anchor =
  /** `"Save"`: visible text, aria-label, placeholder, <label>, submit/button/reset value. */
  | { readonly kind: "text"; readonly text: string }
  /** `"css:#id .x"` (web only). */
  | { readonly kind: "css"; readonly selector: string }
  /** `"id:foo"` or the bare form `the foo field`: DOM id / AutomationId / SAP scripting id. */
  | { readonly kind: "id"; readonly id: string; readonly bare?: boolean };

/** Role nouns accepted after a target; `checkbox` is required by `checkbox is [not] checked`. */
export type RoleNoun = "field" | "button" | "link" | "dropdown" | "checkbox";

/** A plain target, optionally with a 1-based ordinal (`the 2nd "Save"`). */
export interface ElementTarget {
  readonly kind: "element";
  readonly anchor: Anchor;
  /** 1-based ordinal; absent = first/only match. */
  readonly nth?: number;
  readonly role?: RoleNoun;
}

/** `the "<column>" column of|in the row containing "<a>" [and "<b>"…]` */
export interface CellTarget {
  readonly kind: "cell";
  readonly column: string;
  /** At least one; all must be in the same row. */
  readonly rowAnchors: readonly string[];
  readonly role?: RoleNoun;
}

export type Container = { readonly kind: "item" } | { readonly kind: "css"; readonly selector: string } | { readonly kind: "id"; readonly id: string };

/**
 * `the "<inner>" [role] in|inside the item|"css:…"|"id:…" containing "<a>" [and "<b>"…]`, or with a
 * role noun alone inside (`the [2nd] checkbox in the item containing "Buy milk"`): then `inner` is
 * absent, `role` names what to find in the container, and `nth` (1-based) picks among several.
 */
export type ScopedTarget = {
  readonly kind: "scoped";
  readonly container: Container;
  readonly anchors: readonly string[];
} & ({ readonly inner: Anchor; readonly role?: RoleNoun } | { readonly inner?: undefined; readonly role: RoleNoun; readonly nth?: number });

/** `the "<inner>" [role] in|inside the iframe "<title|name|id|aria-label>"|"css:…"` */
export interface FramedTarget {
  readonly kind: "framed";
  readonly frame: { readonly kind: "text"; readonly text: string } | { readonly kind: "css"; readonly selector: string };
  readonly inner: Anchor;
  readonly role?: RoleNoun;
}

export type Target = ElementTarget | CellTarget | ScopedTarget | FramedTarget;

/** `, accepting the "<msg>" dialog` / `, dismissing the dialog` / `, answering the prompt with "<text>"` */
export interface DialogSuffix {
  readonly disposition: "accept" | "dismiss";
  /** Substring the dialog message must contain; absent = any message. */
  readonly message?: string;
  /** Prompt reply (accept only); may carry `${VAR}`. */
  readonly reply?: Template;
}

export type Modifier = "ctrl" | "alt" | "shift" | "meta" | "mod";

// ---------------------------------------------------------------- actions

export interface NavigateStep {
  readonly kind: "navigate";
  readonly url: Template;
}
export interface ReloadStep {
  readonly kind: "reload";
}
/** `Go back` / `Go forward`: one entry through the page's history, waiting for the page it lands on. */
export interface HistoryStep {
  readonly kind: "history";
  readonly direction: "back" | "forward";
}
/** `Clear local storage`, `Clear session storage` (the page's origin), `Clear cookies` (the flow's browser context). */
export interface ClearStorageStep {
  readonly kind: "clear_storage";
  readonly what: "local" | "session" | "cookies";
}
/** `Resize the viewport to 320x480`: the page's size in CSS pixels from here on. */
/** `Set cookie "theme" to dark`: a plain (never secret) cookie for the page's URL. */
export interface SetCookieStep {
  readonly kind: "set_cookie";
  readonly name: string;
  readonly value: string;
}
export interface ResizeStep {
  readonly kind: "resize";
  readonly width: number;
  readonly height: number;
}
/** Click, Press the "…" button (role "button"), Right-click, Double-click, Click … at x%,y%. */
export interface ClickStep {
  readonly kind: "click";
  readonly target: Target;
  readonly button: "left" | "right";
  readonly clickCount: 1 | 2;
  /** Click-at point as percentages of the element box, 0–100 inclusive. */
  readonly at?: { readonly xPct: number; readonly yPct: number };
  readonly dialog?: DialogSuffix;
}
export interface HoverStep {
  readonly kind: "hover";
  readonly target: Target;
  readonly dialog?: DialogSuffix;
}
/** `Drag "…" onto "…" [at x%,y%]`: the drop point as percentages of the drop target's box, 0–100 inclusive (default its centre). */
export interface DragStep {
  readonly kind: "drag";
  readonly source: Target;
  readonly onto: Target;
  readonly at?: { readonly xPct: number; readonly yPct: number };
}
/** `Type <text> into <target>` (fill) or `Type <text>` (focused element, append). */
export interface TypeStep {
  readonly kind: "type";
  readonly text: Template;
  readonly target?: Target;
}
export interface ClearStep {
  readonly kind: "clear";
  readonly target: Target;
}
export interface ReplaceStep {
  readonly kind: "replace";
  readonly target: Target;
  readonly text: Template;
}
/** `Press Enter`, `Press Control+V`. `key` is canonical (`Enter`, `ArrowUp`, `v`, `F4`). */
export interface PressKeyStep {
  readonly kind: "press_key";
  readonly key: string;
  readonly modifiers: readonly Modifier[];
}
/** `Select A from the "Role" field`; `multi` for the quoted-list form (`options.length >= 2`). */
export interface SelectStep {
  readonly kind: "select";
  readonly target: Target;
  readonly options: readonly string[];
  readonly multi: boolean;
}
export interface SetCheckedStep {
  readonly kind: "set_checked";
  readonly target: Target;
  readonly checked: boolean;
}
export interface UploadStep {
  readonly kind: "upload";
  readonly target: Target;
  readonly path: string;
}
export interface ScrollStep {
  readonly kind: "scroll";
  /** Absent = the page. */
  readonly target?: Target;
  /** `axis: "x"` (`across`): horizontally; otherwise vertically. `pct`: 0–100 of how far the box scrolls. */
  readonly to:
    | { readonly kind: "top" }
    | { readonly kind: "bottom" }
    | { readonly kind: "left" }
    | { readonly kind: "right" }
    | { readonly kind: "into_view" }
    | { readonly kind: "px"; readonly px: number; readonly axis?: "x" }
    | { readonly kind: "pct"; readonly pct: number; readonly axis?: "x" };
}
/** `Wait until page shows <text> [within Ns]` (default bound 60 s). */
export interface WaitTextStep {
  readonly kind: "wait_text";
  readonly text: Template;
  readonly timeoutMs?: number;
}
/** `Wait until the download completes as <name> [within Ns]`. */
export interface WaitDownloadStep {
  readonly kind: "wait_download";
  readonly name: string;
  readonly timeoutMs?: number;
}
/** `Remember the "…" as <name>` / `Remember how many "…" appear as <name>` (count). */
export interface RememberStep {
  readonly kind: "remember";
  readonly target: Target;
  readonly name: string;
  readonly count: boolean;
}
/** An `assert:` step. */
/** A numeric comparison: greater than, less than, at least, at most. */
export type NumberOp = "gt" | "lt" | "ge" | "le";
export interface AssertStep {
  readonly kind: "assert";
  readonly assertion: Assertion;
}
/**
 * A plain step under model authoring: natural-language intent that the rules grammar does not
 * read. It has no meaning until record grounds it against the live scene (src/authoring/).
 */
export interface IntentStep {
  readonly kind: "intent";
  readonly text: string;
}

export type ActionStep =
  | NavigateStep
  | ReloadStep
  | HistoryStep
  | ClearStorageStep
  | SetCookieStep
  | ResizeStep
  | ClickStep
  | HoverStep
  | DragStep
  | TypeStep
  | ClearStep
  | ReplaceStep
  | PressKeyStep
  | SelectStep
  | SetCheckedStep
  | UploadStep
  | ScrollStep
  | WaitTextStep
  | WaitDownloadStep
  | RememberStep;

/**
 * A structured step (`- assert_api: {…}`), loaded by spec/ (not parsed from text): the step key
 * and its arguments exactly as written (plain JSON, `${…}` references unresolved).
 */
export interface StructuredStep {
  readonly kind: "structured";
  readonly key: string;
  readonly args: unknown;
}
/** `- assert_no_secret_leak: ${VAR}` (or a list): the variable names whose values must not surface. */
export interface SecretLeakStep {
  readonly kind: "no_secret_leak";
  readonly vars: readonly string[];
}

/**
 * An agent flow's whole step list (`app: agent`), loaded by spec/ as one execution: the agent
 * declaration, the authored agent steps, `tools:` and `strict:`, as plain JSON (`${…}` raw).
 */
export interface AgentRunStep {
  readonly kind: "agent_run";
  readonly args: Readonly<Record<string, unknown>>;
}

export type StepAst = ActionStep | AssertStep | StructuredStep | SecretLeakStep | IntentStep | AgentRunStep;

// ---------------------------------------------------------------- assertions

interface Bound {
  readonly timeoutMs?: number;
}

export type Assertion = Bound &
  /** `page shows X` / `page does not show X` / `page shows X N times`. */
  (
    | { readonly kind: "page_shows"; readonly text: Template; readonly negate: boolean; readonly times?: number }
    | { readonly kind: "page_url"; readonly op: "is" | "contains"; readonly value: Template }
    | { readonly kind: "page_title"; readonly op: "is" | "contains"; readonly value: Template }
    /** `cookie "sid" exists|is httpOnly|is secure|is persistent`; `negate`: `does not exist`, `is not …` (never a value). */
    | { readonly kind: "cookie"; readonly name: string; readonly fact: "exists" | "http_only" | "secure" | "persistent"; readonly negate: boolean }
    /** `cookie "sid" has domain example.com` / `has path /app` (never a value). */
    | { readonly kind: "cookie_where"; readonly name: string; readonly attribute: "domain" | "path"; readonly value: string }
    /** `no cookies are set`, `2 cookies are set`: how many cookies the page's URL has. */
    | { readonly kind: "cookie_count"; readonly count: number }
    /** `local storage "todos" contains Walk the dog` (the value stored under the key contains the text); the key may hold `${VAR}`. */
    | { readonly kind: "storage"; readonly area: "local" | "session"; readonly key: Template; readonly text: Template; readonly exact?: true }
    /** `local storage has no keys` / `has only "a" and "b"`: exactly these keys are stored (`keys` empty: none). */
    /** `the "Total" shows a number greater than 10` (also `less than`, `at least`, `at most`): the element's text read as a number. */
    | { readonly kind: "number_compare"; readonly target: Target; readonly op: NumberOp; readonly value: number }
    | { readonly kind: "storage_keys"; readonly area: "local" | "session"; readonly keys: readonly Template[] }
    /** `local storage "todos" does not exist` (no value is stored under the key). */
    | { readonly kind: "storage_absent"; readonly area: "local" | "session"; readonly key: Template }
    /** `the "…" shows <text>` (substring; text may be `${captured.x}`). */
    | { readonly kind: "shows"; readonly target: Target; readonly text: Template }
    /** `the "…" does not show <text>` (the element's text or value lacks it; waits until it does). */
    | { readonly kind: "not_shows"; readonly target: Target; readonly text: Template }
    /** `the "…" shows ${captured.x} + 1`. */
    | { readonly kind: "shows_computed"; readonly target: Target; readonly capture: string; readonly op: "+" | "-"; readonly amount: number }
    /** `the "…" field contains <text>` (input value). */
    | { readonly kind: "field_contains"; readonly target: Target; readonly text: Template }
    /** `the "…" shows exactly <text>` / `the "…" field contains exactly <text>`: the whole text or value, trimmed. */
    | { readonly kind: "shows_exactly"; readonly target: Target; readonly text: Template }
    /** `the "…" is focused` / `is not focused`: it has keyboard focus. */
    | { readonly kind: "focused"; readonly target: Target; readonly negate: boolean }
    | { readonly kind: "visible"; readonly target: Target; readonly negate: boolean }
    | { readonly kind: "enabled"; readonly target: Target; readonly enabled: boolean }
    | { readonly kind: "checked"; readonly target: Target; readonly negate: boolean }
    /** `the "…" is [not] selected`: a tab, a list or tree item, an option (its own selection state). */
    | { readonly kind: "selected"; readonly target: Target; readonly negate: boolean }
    | { readonly kind: "empty"; readonly target: Target; readonly negate: boolean }
    /** `the "…" appears N times` (element count; 0 allowed). */
    | { readonly kind: "count"; readonly target: Target; readonly count: number }
    | { readonly kind: "attribute"; readonly target: Target; readonly name: string; readonly value: Template; readonly negate: boolean }
    | { readonly kind: "has_attribute"; readonly target: Target; readonly name: string; readonly negate: boolean }
    | {
        readonly kind: "style";
        readonly target: Target;
        readonly prop: "color" | "background-color" | "text-transform";
        readonly value: string;
        readonly negate: boolean;
      }
    /** A surface's own assertion (its grammar's `sugar`): `display shows 8`, `document contains hello`. */
    | {
        readonly kind: "app_sugar";
        readonly sugar: AssertionSugar["phrase"];
        readonly reads: AssertionSugar["reads"];
        readonly compare: AssertionSugar["compare"];
        readonly text: string;
      }
  );

// ---------------------------------------------------------------- conditions (repeat: until / when:)

export type Condition =
  | { readonly kind: "page_shows"; readonly text: Template; readonly negate: boolean }
  | { readonly kind: "shows"; readonly target: Target; readonly text: Template }
  | { readonly kind: "visible"; readonly target: Target; readonly negate: boolean }
  | { readonly kind: "compare"; readonly left: Target; readonly op: "gt" | "lt"; readonly right: Target };

// ---------------------------------------------------------------- results

/**
 * Why a text did not parse.
 * - `refused-step`: recognised in order to be refused (loops, branches, regex, Blur…); `hint` says what to write.
 * - `unknown-step`: matches no form; `hint` points at the nearest form.
 * - `unsupported-step`: a real form that this app kind does not have (F-keys on web, css: on windows…).
 * - `bad-reference`: a `${…}` that is malformed or not allowed where it stands.
 */
export interface GrammarError {
  readonly code: "refused-step" | "unknown-step" | "unsupported-step" | "bad-reference" | "limit-exceeded";
  readonly message: string;
  readonly hint: string;
  /** 0-based offset into the step text of the offending part, and its length (whole text when unknown). */
  readonly offset: number;
  readonly length: number;
}

export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: GrammarError };
