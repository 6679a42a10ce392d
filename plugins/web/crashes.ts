// A page's unplanned end: its renderer crashed or its tab went away. A crashed page never answers
// again, so the page is failed at once (every command in flight and later says why).
import type { Connection, Session } from "./cdp/connection.ts";

/** After the page's own crash event, how long the browser-level event (with the reason) gets to follow. */
const CRASH_REASON_MS = 200;

/**
 * Calls `fault` with the reason when the page `targetId` crashes or its tab closes while
 * `closing()` is false. Returns the unsubscribers.
 */
export function watchPageEnd(
  connection: Connection,
  session: Session,
  targetId: string,
  closing: () => boolean,
  fault: (message: string) => void,
): Array<() => void> {
  let crashFallback: ReturnType<typeof setTimeout> | undefined;
  return [
    connection.on("Target.targetCrashed", (p) => {
      if (p.targetId !== targetId) return;
      clearTimeout(crashFallback);
      fault(`the page crashed: ${describeCrash(p.status, p.errorCode)}`);
    }),
    // The same news on the page's own session; the browser-level event (with the reason) may follow.
    session.on("Inspector.targetCrashed", () => {
      crashFallback = setTimeout(() => fault("the page crashed: its renderer process ended"), CRASH_REASON_MS);
    }),
    connection.on("Target.targetDestroyed", (p) => {
      if (p.targetId === targetId && !closing()) fault("the page was closed: its tab went away during the flow");
    }),
    () => clearTimeout(crashFallback),
  ];
}

/** A renderer's end as Target.targetCrashed reports it, in words. */
export function describeCrash(status: string, errorCode: number): string {
  const code = errorCode ? `, code ${errorCode}` : "";
  switch (status) {
    case "killed":
      return `its renderer process was killed (status "killed"${code})`;
    case "oom":
      return `its renderer process ran out of memory (status "oom"${code})`;
    case "crashed":
      return `its renderer process crashed (status "crashed"${code})`;
    default:
      return `its renderer process ended (status ${JSON.stringify(status)}${code})`;
  }
}
