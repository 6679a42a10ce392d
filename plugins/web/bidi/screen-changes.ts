// Whether a Firefox page's screen may have changed since the recorder last looked (the signal that
// lets a step which changed nothing reuse the previous frame). The page half is Chromium's
// (screen-changes.ts: installed on every document); the host half here marks what only the
// browser knows: navigations, loading and dialogs. Conservative: an answer that cannot be read,
// or a page still loading, is "changed".
import { SCREEN_CHANGES_SCRIPT, SCREEN_KEY } from "../screen-changes.ts";
import type { BidiConnection } from "./connection.ts";
import { withinMs } from "./navigation.ts";
import type { BidiPage } from "./page.ts";

export { SCREEN_CHANGES_SCRIPT };

/** The browser events after which the screen counts as changed. */
export const SCREEN_EVENTS = [
  "browsingContext.navigationStarted",
  "browsingContext.domContentLoaded",
  "browsingContext.load",
  "browsingContext.fragmentNavigated",
  "browsingContext.navigationFailed",
  "browsingContext.userPromptOpened",
  "browsingContext.userPromptClosed",
];

/** Reads and clears the page's flag; a page without the script answers true. */
const LOOK = `(() => { const look = window[${JSON.stringify(SCREEN_KEY)}]; return typeof look === "function" ? look() === true : true; })()`;
/** How long a look may take before it counts as "changed" (a dialog or a busy page blocks it). */
const LOOK_TIMEOUT_MS = 1_000;

export class FirefoxScreenChanges {
  #dirty = true;

  /** Marks the screen changed on the page's browser events; returns the undo. */
  listen(connection: BidiConnection, context: string): Array<() => void> {
    return SCREEN_EVENTS.map((e) =>
      connection.on(e, (p) => {
        if (p["context"] === context) this.#dirty = true;
      }),
    );
  }

  /** True when the page may have changed since the previous call (always on the first); never throws. */
  async changed(page: BidiPage, loading: () => boolean): Promise<boolean> {
    const host = this.#dirty || loading();
    this.#dirty = false;
    const look = await withinMs(
      page.evaluate<boolean>(LOOK).then(
        (v) => v !== false,
        () => true,
      ),
      LOOK_TIMEOUT_MS,
    );
    return host || look !== false || loading();
  }
}
