// JavaScript dialogs over CDP (Page.javascriptDialogOpening / handleJavaScriptDialog): each one is
// answered as the shared PageDialogs decides (dialogs.ts); a beforeunload answered "stay" cancels
// the navigation that raised it.
import { PageDialogs } from "../dialogs.ts";
import type { Session } from "./connection.ts";

export class CdpDialogs extends PageDialogs {
  /** The dialog open now is a beforeunload (its answer decides whether the pending navigation happens). */
  #beforeUnloadOpen = false;

  /**
   * Answers the page's dialogs. `fault` fails the page (a storm); `navigationCancelled` runs when a
   * beforeunload dialog answered "stay" cancelled the navigation that raised it.
   */
  listen(session: Session, fault: (message: string) => void, navigationCancelled: () => void): Array<() => void> {
    return [
      session.on("Page.javascriptDialogOpening", (p) => {
        this.#beforeUnloadOpen = p.type === "beforeunload";
        if (session.failure) return;
        const verdict = this.opened(p.type, p.message);
        // A page that opens dialogs without end is stopped and named; its last dialog stays open.
        if ("storm" in verdict) return fault(verdict.storm);
        void session.send("Page.handleJavaScriptDialog", verdict.answer).catch(() => undefined);
      }),
      session.on("Page.javascriptDialogClosed", (p) => {
        const cancelled = this.#beforeUnloadOpen && !p.result;
        this.#beforeUnloadOpen = false;
        if (cancelled) navigationCancelled();
      }),
    ];
  }
}
