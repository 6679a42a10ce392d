// The frames part of the plugin contract (re-exported by api.ts): what a surface's frames are, the
// targets a frame masks and how a surface answers for them, and what a failed step's debug
// snapshot holds, with the policy every evidence HTML file carries.

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * What `rectsFor` locates (same-origin frames included): every element matching a CSS selector,
 * the innermost elements whose text contains `text`, every password field (PASSWORD_FIELDS), or
 * (`secretFields`) every field `fill` or `typeFocused` typed a secret into (`{ secret: true }`)
 * that is still there and not cleared. A surface that cannot tell where such a field is answers
 * ok:false (the frame is dropped). `secretText` is every place the surface shows any of these
 * secret values, letter case and whitespace ignored: text (split across elements too), a field's
 * value, an attribute shown as text; a surface that cannot search what it shows answers ok:false.
 */
export type RectTarget =
  | { readonly css: string }
  | { readonly text: string }
  | { readonly passwordFields: true }
  | { readonly secretFields: true }
  | { readonly secretText: readonly string[] };

/**
 * The password fields of the surface (`input[type=password]`, ES_PASSWORD, GuiPasswordField), masked
 * in every frame whatever the flow says; a surface answers with their rectangles (or none), never ok:false.
 */
export const PASSWORD_FIELDS: { readonly passwordFields: true } = { passwordFields: true };

/** One target's on-screen rectangles, or why it could not be resolved (the recorder then drops the frame). */
export type RectsAnswer = { readonly ok: true; readonly rects: readonly Rect[] } | { readonly ok: false; readonly detail: string };

/** One unredacted frame of the surface. Only the run recorder sees it; it masks before anything is persisted. */
export interface RawFrame {
  readonly png: Uint8Array;
}

/** The Content-Security-Policy of every evidence HTML file: nothing runs, loads or navigates; inline styles and `data:` images and fonts show. */
export const EVIDENCE_CSP = "default-src 'none'; style-src 'unsafe-inline' data:; img-src data:; font-src data:; base-uri 'none'; form-action 'none'";

/** What a surface shows and logged when a step failed (see AppDriver.debugSnapshot). */
export interface DebugSnapshot {
  /** What the surface shows: plain text (written escaped, in a `<pre>`), or an inert HTML document when `html` is set. */
  readonly dom: string;
  /**
   * `dom` is an HTML document the surface made inert: nothing of the app's can run or load when it
   * is opened (no script, no event-handler attribute, no script URL, no `srcdoc`, no plugin, no
   * redirect), and EVIDENCE_CSP is the first thing in its `<head>`.
   */
  readonly html?: boolean;
  /** One line per console message or uncaught error, oldest first. */
  readonly console: readonly string[];
  /** The uncaught errors the surface saw (the first line of each), oldest first: a failed step's message names them. */
  readonly errors?: readonly string[];
  /** Visible texts, labels and names of elements a step could target. */
  readonly anchors: readonly string[];
}
