// The vocabulary of one surface, as data: which general forms it lacks, the keys it can press,
// and the assertion sugar it adds. An adapter declares it (docs/plugins.md, "Grammar"); the
// grammar reads it from its parse context and never asks which app kind it parses for. Pure types.

/**
 * General forms a surface may lack. Each is refused by name on a surface that lacks it
 * (`unsupported-step`), with the surface's name in the message:
 * - `css`: `"css:…"` targets (`cssHint` says what to write instead);
 * - `iframe`: `in the iframe "…"` scopes;
 * - `container`: `in the item "…"|"css:…"|"id:…" containing "…"` scopes (a table cell's row is not one);
 * - `dialog`: native dialog suffixes (`, accepting the dialog`);
 * - `reload`: `Reload the page`;
 * - `download`: `Wait until the download completes as …`;
 * - `history`: `Go back`, `Go forward`;
 * - `viewport`: `Resize the viewport to …`;
 * - `clear_storage`: `Clear local storage`, `Clear cookies`, …;
 * - `page_url`, `page_title`, `cookie`, `storage`, `attribute`, `style`: the page's address,
 *   title, cookies, storage, and an element's attributes and computed style;
 * - `exact_text`: `shows exactly`, `contains exactly`, `shows a number greater than …`; `focus`: `is [not] focused`.
 */
export type GrammarForm =
  | "css"
  | "iframe"
  | "container"
  | "dialog"
  | "reload"
  | "download"
  | "history"
  | "viewport"
  | "clear_storage"
  | "page_url"
  | "page_title"
  | "cookie"
  | "storage"
  | "attribute"
  | "style"
  | "exact_text"
  | "focus";

/** Every general form, in the order the docs list them. */
export const GRAMMAR_FORMS: readonly GrammarForm[] = [
  "css",
  "iframe",
  "container",
  "dialog",
  "reload",
  "download",
  "history",
  "viewport",
  "clear_storage",
  "page_url",
  "page_title",
  "cookie",
  "storage",
  "attribute",
  "style",
  "exact_text",
  "focus",
];

/** Verbs a surface may refuse outright, before their arguments are read. */
export type GrammarVerb = "Go to" | "Go back" | "Reload the page" | "Resize the viewport" | "Hover over" | "Upload";

/** Every verb a surface may refuse. */
export const GRAMMAR_VERBS: readonly GrammarVerb[] = ["Go to", "Go back", "Reload the page", "Resize the viewport", "Hover over", "Upload"];

/**
 * An assertion a surface adds: `<phrase> <value>` reads one element and compares it, e.g. a
 * calculator's `display shows 8` or an editor's `document contains hello`.
 */
export interface AssertionSugar {
  /** The words the assertion starts with, e.g. `display shows` (matched case-insensitively). */
  readonly phrase: string;
  /** What follows the phrase: a plain number (digits, one dot, a leading minus) or any text. */
  readonly value: "number" | "text";
  /**
   * The element it reads: a native id (the trace's `native_id` rung), and optionally one
   * structural rung tried after it (its payload: a control type and optionally its name, e.g.
   * `{ control_type: "edit" }`).
   */
  readonly reads: { readonly id: string; readonly fallback?: { readonly control_type: string; readonly name?: string } };
  /** How the element's value is compared: numerically equal, or containing the text. */
  readonly compare: "numeric_equals" | "contains";
  /** A complete example, e.g. `display shows 8`; shown when the value is not a number. */
  readonly example: string;
  /**
   * How other surfaces refuse the phrase: what it is (`calculator sugar (app: calc)`) and what
   * to write there instead (`write \`page shows 8\``).
   */
  readonly elsewhere: { readonly what: string; readonly hint: string };
}

/** The keys a surface can press besides the named keys and chords every surface has. */
export interface KeyVocabulary {
  /** F1–F12, alone or in a chord; refused otherwise (they belong to desktop apps). */
  readonly functionKeys?: boolean;
  /** Extra key words, alone (not in a chord), by lowercase spelling → the canonical key the driver receives, e.g. `add` → `plus`. */
  readonly words?: Readonly<Record<string, string>>;
  /** How a word that is no key is refused on this surface (`{word}` is replaced), instead of the general message. */
  readonly unknown?: { readonly message: string; readonly hint: string };
}

/** One surface's vocabulary. Every member is optional: a surface that declares nothing has the whole general grammar. */
export interface SurfaceGrammar {
  /**
   * How messages name the surface: its adapter's title ("the inventory console", "SAP GUI"), else
   * "an `app: <kind>` surface" — "cannot be checked on the inventory console". Never compared with anything.
   */
  readonly name: string;
  /** General forms this surface lacks. */
  readonly lacks?: readonly GrammarForm[];
  /** What to write instead of a `css:` target here (with `css` in `lacks`). */
  readonly cssHint?: string;
  /** Verbs refused outright, with one message (`{verb}` and `{surface}`, the surface's title, are replaced) and hint for all of them. */
  readonly refusedVerbs?: { readonly verbs: readonly GrammarVerb[]; readonly message: string; readonly hint: string };
  readonly keys?: KeyVocabulary;
  /**
   * `Go to <word>` with a bare word (letters, digits, `_`) names a destination the surface
   * reaches by `prefix` + word: SAP's `Go to VA01` is recorded as `/nVA01`.
   */
  readonly bareDestination?: { readonly prefix: string };
  readonly sugar?: readonly AssertionSugar[];
}

/** What the grammar parses a step for: the surface's vocabulary, and the sugar other surfaces own (to refuse it by name). */
export interface ParseContext {
  readonly surface: SurfaceGrammar;
  readonly foreignSugar?: readonly AssertionSugar[];
}

/** What a surface lacking each form has not, for "cannot be … on <surface>: it has no <what>". */
const ABSENT: Readonly<Record<GrammarForm, string>> = {
  css: "CSS selectors",
  iframe: "iframes",
  container: "item or container scopes",
  dialog: "native dialogs (a message box there is a window driven by ordinary steps)",
  reload: "page to reload",
  download: "downloads",
  history: "page history",
  viewport: "viewport",
  clear_storage: "browser storage to clear",
  page_url: "page address",
  page_title: "page title",
  cookie: "cookies",
  storage: "browser storage",
  attribute: "element attributes",
  style: "computed styles",
  exact_text: "exact text reading",
  focus: "keyboard focus to check",
};

/** Why a surface refuses a step of `form`: "it has no page address (grammar form `page_url`)". */
export const lacking = (form: GrammarForm): string => `it has no ${ABSENT[form]} (grammar form \`${form}\`)`;

/** The sentence refusing `what` (a step or an assertion, as written) on a surface that lacks `form`. */
export const lackedForm = (ctx: ParseContext, what: string, verb: "checked" | "done" | "used", form: GrammarForm): string =>
  `${what} cannot be ${verb} on ${ctx.surface.name}: ${lacking(form)}.`;

/** Whether the surface lacks `form`. */
export const lacks = (ctx: ParseContext, form: GrammarForm): boolean => ctx.surface.lacks?.includes(form) === true;
