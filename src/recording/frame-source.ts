// Where a recording's pixels come from. v1 is a keyframe source: a full frame on demand through
// the driver (web: CDP Page.captureScreenshot), plus the driver's "may the screen have changed"
// signal, which lets the recorder reuse the previous frame instead of capturing. Continuous sources (screencast, DXGI) would
// implement the same interface and feed the same redact → persist path.
import type { AppDriver, RawFrame, RectTarget, RectsAnswer } from "../plugins/api.ts";
import type { TraceStep } from "../trace/schema.ts";
import type { Point } from "./cursor.ts";

export interface FrameSource {
  /** One unredacted frame as PNG bytes; decoded and masked in memory, never persisted as is. */
  capture(): Promise<RawFrame>;
  /** Each target's rectangles now, in frame pixels; one answer per target. */
  resolve(targets: readonly RectTarget[]): Promise<RectsAnswer[]>;
  /** Where a pointer step's events will land (both ends for a drag); empty when unknown. */
  pointerPoints(step: TraceStep): Promise<Point[]>;
  /**
   * Holds the surface's input until `until` settles (see AppDriver.holdInput), so the step path
   * need not wait for a capture; false (or absent) when the caller must wait for it instead.
   */
  hold?(until: Promise<unknown>): boolean;
  /**
   * Whether the screen may have changed since the previous call (true on the first), clearing the
   * signal; never rejects. Absent: every capture is taken (nothing is ever reused).
   */
  changed?(): Promise<boolean>;
}

/** Action types that move the pointer, and so get a cursor checkpoint under --highlight-cursor. */
export const POINTER_ACTIONS: ReadonlySet<TraceStep["action"]["type"]> = new Set(["click", "double_click", "right_click", "hover", "drag"]);

/** The driver as a frame source, or undefined when the surface cannot give frames. */
export function driverFrameSource(driver: AppDriver): FrameSource | undefined {
  const { captureFrame, rectsFor, pointFor, holdInput, screenChanged } = driver;
  if (!driver.capabilities.has("screenshot") || !captureFrame || !rectsFor) return undefined;
  return {
    capture: () => captureFrame.call(driver),
    hold: (until) => holdInput?.call(driver, until) ?? false,
    // A signal that cannot be read counts as a change.
    ...(screenChanged ? { changed: () => screenChanged.call(driver).catch(() => true) } : {}),
    async resolve(targets) {
      try {
        return await rectsFor.call(driver, targets);
      } catch (error) {
        // An unanswerable query fails closed: every target unresolved, so the frame is dropped.
        const detail = error instanceof Error ? error.message : String(error);
        return targets.map(() => ({ ok: false as const, detail }));
      }
    },
    async pointerPoints(step) {
      if (!pointFor || step.selectors.length === 0) return [];
      const a = step.action;
      const p = a.type === "click" || a.type === "double_click" || a.type === "right_click" ? a.params : {};
      const at = p.x_pct !== undefined && p.y_pct !== undefined ? { xPct: p.x_pct, yPct: p.y_pct } : undefined;
      const point = await pointFor.call(driver, step.selectors, at).catch(() => undefined);
      const points = point ? [point] : [];
      // A drag presses on its target and releases on the drop target (`params.onto`): mark both.
      if (a.type === "drag" && a.params.onto.length > 0) {
        const end = await pointFor.call(driver, a.params.onto).catch(() => undefined);
        if (end) points.push(end);
      }
      return points;
    },
  };
}
