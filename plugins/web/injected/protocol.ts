// The wire shapes between the driver and the page script (types only): the requests the driver
// sends through Runtime.evaluate and the answers the page gives.
import type { Expectation, SelectorPayload } from "../../../src/plugins/api.ts";
import type { SceneOptions, SceneReading } from "./scene.ts";
import type { DebugPage } from "./debug-page.ts";

/** A selector rung as the page resolves it: its payload shape decides how (a framed rung's inner target keeps the framed rung's tier). */
export interface Rung {
  readonly tier: string;
  readonly payload: SelectorPayload;
}
export type Purpose = "pointer" | "drag" | "type" | "read" | "check" | "select";
export interface ProbeRequest {
  readonly ladder: readonly Rung[];
  readonly purpose: Purpose;
  /** Click-at point in percent of the box. */
  readonly at?: { readonly xPct: number; readonly yPct: number } | undefined;
  /** A click follows: its pointer events are checked as they land (see `clickLanded`). */
  readonly guard?: boolean | undefined;
}
export type ProbeFailure = "not-found" | "visible" | "stable" | "enabled" | "editable" | "receives-pointer" | "unsupported" | "ambiguous";
export type ProbeAnswer =
  | {
      readonly ok: true;
      readonly tier: string;
      readonly x: number;
      readonly y: number;
      readonly tag: string;
      readonly kind: string;
      readonly checked?: boolean;
    }
  /** `precaution`: held off while the target may still change (see Attempt), not a condition found false. */
  | { readonly ok: false; readonly failed: ProbeFailure; readonly detail: string; readonly precaution?: true };
export interface CheckRequest {
  /** Absent = the whole page surface. */
  readonly ladder?: readonly Rung[] | undefined;
  readonly expect: Expectation;
}
export interface CheckAnswer {
  readonly pass: boolean;
  /** What was seen, for the failure message (already shortened). */
  readonly actual: string;
  readonly tier?: string;
}
export type ValueAnswer =
  | { readonly ok: true; readonly value: string; readonly tier: string }
  | { readonly ok: false; readonly failed: ProbeFailure; readonly detail: string };

/**
 * One move of Select: the outcome, or what the driver does as a user would before asking again
 * (`after` tells the page which move was made): a trusted click that opens the popup or picks an
 * option, Escape that closes a multi-select's popup once its options are set, or typing the
 * option's text into an editable combobox whose popup does not list it yet. A `settling` failure
 * (the control does not show the option yet) is asked again for a moment before it stands.
 */
export type SelectMove = "open" | "option" | "close" | "type";
export type SelectAnswer =
  | { readonly ok: true; readonly value: string; readonly tier: string; readonly chosen?: readonly string[] }
  | { readonly ok: true; readonly click: { readonly x: number; readonly y: number; readonly what: "open" | "option" }; readonly tier: string }
  | { readonly ok: true; readonly key: "Escape"; readonly tier: string }
  | { readonly ok: true; readonly type: string; readonly tier: string }
  | { readonly ok: false; readonly failed: ProbeFailure; readonly detail: string; readonly retryable?: boolean; readonly settling?: true };
export interface SelectRequest {
  readonly ladder: readonly Rung[];
  readonly values: readonly string[];
  readonly after?: SelectMove | undefined;
  /** Only an option whose label reads exactly so (a recording's choice, replayed). */
  readonly exact?: boolean | undefined;
}

/** One element a plain label names: its ordinal among the label's matches, and how it reads. */
export interface Candidate {
  readonly nth: number;
  readonly what: string;
}

export interface PageApi {
  probe(req: ProbeRequest): ProbeAnswer;
  focusForTyping(req: ProbeRequest): ProbeAnswer;
  /** What the last guarded click's press landed on when that was not its target (its events were kept from the page), or null. */
  clickLanded(): string | null;
  /** Whether the focus left the field `focusForTyping` focused before it got all `length` characters typed: the sentence, or null. */
  typingLost(req: { length: number }): string | null;
  check(req: CheckRequest): CheckAnswer;
  read(req: { ladder: readonly Rung[] }): ValueAnswer;
  count(req: { ladder: readonly Rung[] }): number;
  /** The distinct visible elements a plain label (a text rung without an ordinal) names, described. */
  candidates(req: { ladder: readonly Rung[] }): Candidate[];
  select(req: SelectRequest): SelectAnswer;
  checkedState(req: { ladder: readonly Rung[] }): ValueAnswer;
  /** Whether the target is under the pointer (`:hover`) right now. */
  hovered(req: { ladder: readonly Rung[]; x: number; y: number }): ValueAnswer;
  /** The `<input type=file>` the ladder names (directly, through its label, or inside it); hidden inputs count. */
  fileInput(req: { ladder: readonly Rung[] }): HTMLInputElement | string;
  /** The scene inventory for model authoring. */
  scene(req: SceneOptions): SceneReading;
  /** The document as data and the visible target names, for the debug snapshot of a failed step. */
  debugPage(req: { max: number }): DebugPage;
}

/** `{to:"top"|"bottom"|"left"|"right"} | {into_view:true} | {to_px:n, axis?} | {to_pct:n, axis?}`, as in the trace's `scroll` params. */
export interface ScrollRequest {
  readonly ladder?: readonly Rung[] | undefined;
  readonly to: {
    readonly to?: "top" | "bottom" | "left" | "right";
    readonly into_view?: boolean;
    readonly to_px?: number;
    readonly to_pct?: number;
    readonly axis?: "x";
  };
}

export type ScopeAnswer =
  | { readonly ok: true; readonly value: string; readonly tier: string }
  | { readonly ok: false; readonly failed: string; readonly detail: string };

export interface ScopeMethods {
  /** Sets a field's value as a script would (value setter + input/change), then reads it back. */
  assignValue(req: { ladder: readonly Rung[]; value: string }): ScopeAnswer;
  scroll(req: ScrollRequest): ScopeAnswer;
}
