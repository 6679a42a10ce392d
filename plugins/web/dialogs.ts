// JavaScript dialogs (alert, confirm, prompt, beforeunload), for every protocol's driver: the one a
// step declared is answered as declared, any other is dismissed and fails the step, and a page that
// opens dialogs without end is stopped and named instead of being waited out.
import type { DialogOutcome, DialogPlan } from "../../src/plugins/api.ts";

/** This many dialogs within DIALOG_STORM_WINDOW_MS is a page that opens dialogs without end. */
const DIALOG_STORM_COUNT = 20;
// Five seconds, not fewer: Firefox answers about nine dialogs a second, fewer on a busy machine.
const DIALOG_STORM_WINDOW_MS = 5_000;
/** How much of a dialog's message a fault names (the page may show anything there). */
const DIALOG_MESSAGE_CHARS = 60;

/** A dialog's answer: accepted or dismissed, a prompt's reply as `promptText`. */
export interface DialogAnswer {
  readonly accept: boolean;
  readonly promptText?: string;
}

/** How a dialog is answered: the declared one as declared (a message that does not match is dismissed), any other dismissed. */
export function dialogAnswer(plan: DialogPlan | undefined, type: string, message: string): DialogAnswer {
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

/** What a dialog that opened gets: a storm's fault (the page is stopped), or the answer to send. */
export type DialogVerdict = { readonly storm: string } | { readonly answer: DialogAnswer };

/**
 * The dialogs of one page, whatever the protocol: the step's plan, what opened, an undeclared
 * dialog to report, a storm. A backend (cdp/dialogs.ts, bidi/dialogs.ts) hears a dialog open,
 * asks `opened` what it gets, and sends that answer over its protocol.
 */
export class PageDialogs {
  #plan: DialogPlan | undefined;
  #seen: { type: string; message: string } | undefined;
  #unexpected: string | undefined;
  readonly #storm = new DialogStorm();

  /**
   * A dialog opened: counted toward a storm; the first one after `arm` is the declared one, answered
   * as declared (never accepted on the author's behalf); any other would block the page forever, so
   * it is dismissed and kept to fail the step.
   */
  opened(type: string, shown: string): DialogVerdict {
    // A leave prompt's words are the browser's own (no browser shows a page's text there), and
    // differ by browser: the page said nothing.
    const message = type === "beforeunload" ? "" : shown;
    const storm = this.#storm.count(type, message);
    if (storm !== undefined) return { storm };
    if (this.#plan && !this.#seen) {
      this.#seen = { type, message };
      return { answer: dialogAnswer(this.#plan, type, message) };
    }
    this.#unexpected = message === "" ? type : `${type}: ${message}`;
    return { answer: { accept: false } };
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
