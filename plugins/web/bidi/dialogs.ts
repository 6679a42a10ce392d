// JavaScript dialogs in Firefox (browsingContext.userPromptOpened / handleUserPrompt): each one is
// answered as the shared PageDialogs decides (dialogs.ts); a storm's last dialog is dismissed too.
import { PageDialogs, type DialogAnswer } from "../dialogs.ts";
import type { BidiConnection } from "./connection.ts";

export class BidiDialogs extends PageDialogs {
  /** Answers the dialogs of `context`; `fault` fails the page (a storm). */
  listen(connection: BidiConnection, context: string, fault: (message: string) => void): Array<() => void> {
    return [
      connection.on("browsingContext.userPromptOpened", (p) => {
        if (p["context"] !== context) return;
        const verdict = this.opened(String(p["type"] ?? "alert"), String(p["message"] ?? ""));
        const { accept, promptText }: DialogAnswer = "storm" in verdict ? { accept: false } : verdict.answer;
        const userText = promptText !== undefined ? { userText: promptText } : {};
        void connection.send("browsingContext.handleUserPrompt", { context, accept, ...userText }).catch(() => undefined);
        if ("storm" in verdict) fault(verdict.storm);
      }),
    ];
  }
}
