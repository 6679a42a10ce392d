// JavaScript dialogs in Firefox (browsingContext.userPromptOpened / handleUserPrompt): the one a
// step declared is answered as declared, any other is dismissed and fails the step, a storm of
// them is stopped and named. The answers are the Chromium driver's (dialogs.ts).
import type { DialogOutcome, DialogPlan } from "../../../src/plugins/api.ts";
import { DialogStorm, dialogAnswer } from "../dialogs.ts";
import type { BidiConnection } from "./connection.ts";

export class BidiDialogs {
  #plan: DialogPlan | undefined;
  #seen: { type: string; message: string } | undefined;
  #unexpected: string | undefined;
  readonly #storm = new DialogStorm();

  /** Answers the dialogs of `context`; `fault` fails the page (a storm). */
  listen(connection: BidiConnection, context: string, fault: (message: string) => void): Array<() => void> {
    return [
      connection.on("browsingContext.userPromptOpened", (p) => {
        if (p["context"] !== context) return;
        const type = String(p["type"] ?? "alert");
        const message = String(p["message"] ?? "");
        const answer = (accept: boolean, userText?: string) =>
          void connection.send("browsingContext.handleUserPrompt", { context, accept, ...(userText !== undefined ? { userText } : {}) }).catch(() => undefined);
        const storm = this.#storm.count(type, message);
        if (storm !== undefined) {
          answer(false);
          return fault(storm);
        }
        if (this.#plan && !this.#seen) {
          this.#seen = { type, message };
          const a = dialogAnswer(this.#plan, type, message);
          return answer(a.accept, a.promptText);
        }
        this.#unexpected = `${type}: ${message}`;
        answer(false);
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

  takeUnexpected(): string | undefined {
    const message = this.#unexpected;
    this.#unexpected = undefined;
    return message;
  }
}
