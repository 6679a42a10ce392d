// JavaScript dialogs (alert, confirm, prompt, beforeunload): the one a step declared is answered
// as declared, any other is dismissed and fails the step, and a page that opens dialogs without
// end is stopped and named instead of being waited out.
import type { DialogOutcome, DialogPlan } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";

/** This many dialogs within DIALOG_STORM_WINDOW_MS is a page that opens dialogs without end. */
const DIALOG_STORM_COUNT = 20;
const DIALOG_STORM_WINDOW_MS = 2_000;
/** How much of a dialog's message a fault names (the page may show anything there). */
const DIALOG_MESSAGE_CHARS = 60;

/** How a dialog is answered: the declared one as declared (a message that does not match is dismissed), any other dismissed. */
export function dialogAnswer(plan: DialogPlan | undefined, type: string, message: string): { accept: boolean; promptText?: string } {
  if (!plan) return { accept: false };
  const accept = plan.disposition === "accept" && (plan.message === undefined || message.includes(plan.message));
  return accept && type === "prompt" && plan.reply !== undefined ? { accept, promptText: plan.reply } : { accept };
}

/** A dialog's message as a fault quotes it: one line, control characters out, bounded. */
export function shortMessage(message: string): string {
  const line = message.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  return line.length > DIALOG_MESSAGE_CHARS ? `${line.slice(0, DIALOG_MESSAGE_CHARS - 1)}…` : line;
}

/** Counts dialogs as they open; names a storm (DIALOG_STORM_COUNT within the window) by its kinds. */
export class DialogStorm {
  /** When recent dialogs opened (ms, monotonic) and what they were. */
  readonly #times: number[] = [];
  readonly #kinds = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Counts one dialog; the fault to report when dialogs now open without end, else undefined. */
  count(type: string, message: string): string | undefined {
    const now = this.#now();
    this.#times.push(now);
    while (this.#times.length > 0 && now - this.#times[0]! > DIALOG_STORM_WINDOW_MS) this.#times.shift();
    const kind = `${type} ${JSON.stringify(shortMessage(message))}`;
    this.#kinds.set(kind, (this.#kinds.get(kind) ?? 0) + 1);
    if (this.#times.length < DIALOG_STORM_COUNT) return undefined;
    const seen = [...this.#kinds.entries()].sort((a, b) => b[1] - a[1]);
    const named = seen
      .slice(0, 3)
      .map(([k, n]) => `${k} ×${n}`)
      .join(", ");
    const more = seen.length > 3 ? ` and ${seen.length - 3} other kinds` : "";
    const secs = (DIALOG_STORM_WINDOW_MS / 1000).toFixed(0);
    return `the page opens dialogs without end: ${this.#times.length} within ${secs} s (${named}${more}); flowproof dismissed them and stopped; a page should open one dialog per action`;
  }
}

/** The dialogs of one page: the step's plan, what opened, and an undeclared dialog to report. */
export class Dialogs {
  #plan: DialogPlan | undefined;
  #seen: { type: string; message: string } | undefined;
  #unexpected: string | undefined;
  /** The dialog open now is a beforeunload (its answer decides whether the pending navigation happens). */
  #beforeUnloadOpen = false;
  readonly #storm = new DialogStorm();

  /**
   * Answers the page's dialogs. `fault` fails the page (a storm); `navigationCancelled` runs when a
   * beforeunload dialog answered "stay" cancelled the navigation that raised it.
   */
  listen(session: Session, fault: (message: string) => void, navigationCancelled: () => void): Array<() => void> {
    return [
      session.on("Page.javascriptDialogOpening", (p) => {
        this.#beforeUnloadOpen = p.type === "beforeunload";
        // A page that opens dialogs without end is stopped and named; its last dialog stays open.
        if (session.failure) return;
        const storm = this.#storm.count(p.type, p.message);
        if (storm !== undefined) return fault(storm);
        if (this.#plan && !this.#seen) {
          // The declared dialog: answered as declared, never accepted on the author's behalf.
          this.#seen = { type: p.type, message: p.message };
          void session.send("Page.handleJavaScriptDialog", dialogAnswer(this.#plan, p.type, p.message)).catch(() => undefined);
          return;
        }
        // An undeclared dialog would block the page forever: dismiss it and fail the step.
        this.#unexpected = `${p.type}: ${p.message}`;
        void session.send("Page.handleJavaScriptDialog", { accept: false }).catch(() => undefined);
      }),
      session.on("Page.javascriptDialogClosed", (p) => {
        const cancelled = this.#beforeUnloadOpen && !p.result;
        this.#beforeUnloadOpen = false;
        if (cancelled) navigationCancelled();
      }),
    ];
  }

  arm(plan: DialogPlan | undefined): void {
    this.#plan = plan;
    this.#seen = undefined;
  }

  outcome(): DialogOutcome {
    const seen = this.#seen;
    return seen ? { opened: true, type: seen.type, message: seen.message } : { opened: false };
  }

  /** The undeclared dialog dismissed since last asked ("type: message"), once. */
  takeUnexpected(): string | undefined {
    const message = this.#unexpected;
    this.#unexpected = undefined;
    return message;
  }
}
