// A web page's frames for the run recorder, and the input they hold back: while a frame is read
// back, calls that could change the page wait for it (AppDriver.holdInput); captures overlap
// unless the page is emulated at a device scale factor other than 1 (see capture()). Also the
// wait of `--keep-open` for the flow's pages to be closed.
import { FlowproofError, type RawFrame, type RectTarget, type RectsAnswer } from "../../src/plugins/api.ts";
import type { Connection, Session } from "./cdp/connection.ts";
import { rectsExpression } from "./redaction-rects.ts";

export class CaptureGate {
  #held: Promise<unknown> = Promise.resolve();
  /** The capture in flight, when captures run one after another. */
  #last: Promise<unknown> = Promise.resolve();

  /** What a call that changes the page waits for first: every capture it was told to hold for. */
  get held(): Promise<unknown> {
    return this.#held;
  }

  hold(until: Promise<unknown>): void {
    this.#held = Promise.all([
      this.#held,
      until.then(
        () => undefined,
        () => undefined,
      ),
    ]);
  }

  /**
   * With a device scale factor other than 1, Chromium swaps the emulation for each capture and
   * restores what it saw when the capture began, so two overlapping captures would leave the page
   * emulated wrongly (clicks then miss): those captures run one at a time. At 1 they overlap,
   * which keeps the browser's readback off the step path.
   */
  capture(session: Session, deviceScaleFactor: number): Promise<RawFrame> {
    const take = async () => {
      const { data } = await session.send("Page.captureScreenshot", { format: "png", optimizeForSpeed: true });
      return { png: Buffer.from(data, "base64") };
    };
    if (deviceScaleFactor === 1) return take();
    const frame = this.#last.then(take);
    this.#last = frame.catch(() => undefined);
    return frame;
  }
}

/**
 * Each redaction target's rectangles on the page now (one answer per target), in one round trip.
 * Passwords the flow typed as written (not from a `${VAR}`) are secrets of the page's own: where
 * the page shows one counts as a field a secret was typed into.
 */
export async function pageRects(session: Session, targets: readonly RectTarget[], typedPasswords: readonly string[] = []): Promise<RectsAnswer[]> {
  const extra = typedPasswords.length > 0 && targets.some((t) => "secretFields" in t) ? [{ secretText: typedPasswords }] : [];
  const res = await session.send("Runtime.evaluate", { expression: rectsExpression([...targets, ...extra]), returnByValue: true });
  if (res.exceptionDetails) throw new FlowproofError({ code: "browser-error", message: `could not locate redaction targets: ${res.exceptionDetails.text}` });
  const answers = res.result.value as RectsAnswer[];
  if (extra.length === 0) return answers;
  const shown = answers.pop()!;
  return answers.map((a, i): RectsAnswer => {
    if (!("secretFields" in targets[i]!) || !a.ok) return a;
    return shown.ok ? { ok: true, rects: [...a.rects, ...shown.rects] } : { ok: false, detail: `a password typed as written: ${shown.detail}` };
  });
}

/** Resolves once no page of the browser context is left (the user closed the window) or the browser went away. */
export function untilContextClosed(connection: Connection, contextId: string, pollMs = 500): Promise<void> {
  return new Promise<void>((resolve) => {
    if (connection.closed) return resolve();
    let timer: ReturnType<typeof setInterval> | undefined;
    const done = () => {
      clearInterval(timer);
      resolve();
    };
    connection.onClose(done);
    timer = setInterval(() => {
      void connection
        .send("Target.getTargets")
        .then(({ targetInfos }) => {
          if (!targetInfos.some((t) => t.browserContextId === contextId && t.type === "page")) done();
        })
        .catch(done);
    }, pollMs);
  });
}
