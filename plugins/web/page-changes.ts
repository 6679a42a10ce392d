// The wake of a retry loop on a web page: a promise that resolves as soon as the page may show
// something new (its DOM changed, a field's value was set by input, its document or URL changed),
// so that an assertion or a `wait` that did not hold yet looks again at once instead of after its
// fixed interval. It only ever ends a wait early: the caller races it with its own interval, so a
// change the page script cannot see (a cookie, a value set from script) is looked at as before.
import type { Session } from "./cdp/connection.ts";

/** The page-global name of the shared observer (one per document, installed by the first wait). */
export const CHANGE_KEY = "__flowproofPageChange";

/**
 * Runs in the page: resolves true at the next change of the document. One MutationObserver per
 * document serves every wait (installed on first use, never visible as an enumerable global);
 * every pending wait resolves together, and the page's own timers are never used (a flow's frozen
 * clock cannot hold it back).
 */
function untilChangeInPage(key: string): Promise<boolean> {
  const w = window as unknown as Record<string, ((resolve: (changed: boolean) => void) => void) | undefined>;
  let add = w[key];
  if (typeof add !== "function") {
    const waiters: Array<(changed: boolean) => void> = [];
    const wake = (): void => {
      for (const resolve of waiters.splice(0)) resolve(true);
    };
    new MutationObserver(wake).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const type of ["input", "change", "hashchange", "popstate", "pageshow"]) window.addEventListener(type, wake, { capture: true, passive: true });
    add = (resolve) => {
      waiters.push(resolve);
    };
    Object.defineProperty(window, key, { value: add, enumerable: false, configurable: true });
  }
  return new Promise<boolean>((resolve) => add!(resolve));
}

export const UNTIL_CHANGE_EXPRESSION = `(${untilChangeInPage.toString()})(${JSON.stringify(CHANGE_KEY)})`;

/**
 * Resolves once the page may have changed: the observer saw a change, or the document it ran in
 * went away (a navigation, a crash, the page closed: each a change too). Never rejects; may never
 * resolve on a page that stays still, so callers race it with their own interval.
 */
export function untilPageChange(session: Session): Promise<void> {
  return session.send("Runtime.evaluate", { expression: UNTIL_CHANGE_EXPRESSION, awaitPromise: true, returnByValue: true }).then(
    () => undefined,
    () => undefined,
  );
}
