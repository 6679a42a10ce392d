// Trusted pointer input (Input.dispatchMouseEvent): clicks, hovers and drags, native HTML5
// drag-and-drop included. What happens after the input (a navigation it started) is the caller's.
import type { Protocol } from "devtools-protocol/types/protocol";
import type { PointerOptions } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";

type MouseEvent = Protocol.Input.DispatchMouseEventRequest;

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Intermediate pointer moves of a drag: sortable libraries react to motion, not to a jump. */
const DRAG_STEPS = 10;
/** Time between native drag events: at least a few frames, as a hand's motion gives a drop zone. */
const DRAG_EVENT_GAP_MS = 50;

/** Move, then press and release `clickCount` times (a double click is two pairs, counted 1 and 2). */
export function clickEvents(at: Point, options: Pick<PointerOptions, "button" | "clickCount">): MouseEvent[] {
  const { x, y } = at;
  const events: MouseEvent[] = [{ type: "mouseMoved", x, y }];
  for (let n = 1; n <= options.clickCount; n++) {
    events.push(
      { type: "mousePressed", x, y, button: options.button, buttons: options.button === "left" ? 1 : 2, clickCount: n },
      { type: "mouseReleased", x, y, button: options.button, buttons: 0, clickCount: n },
    );
  }
  return events;
}

/**
 * Move, press and release sent together: a lone mouse move waits for the next animation frame,
 * while the press that follows it flushes the move at once.
 */
export async function sendClick(session: Session, at: Point, options: Pick<PointerOptions, "button" | "clickCount">): Promise<void> {
  await Promise.all(clickEvents(at, options).map((e) => session.send("Input.dispatchMouseEvent", e)));
}

/** The points a drag from `a` to `b` moves through (DRAG_STEPS of them, `b` last). */
export function dragPath(a: Point, b: Point, steps: number = DRAG_STEPS): Point[] {
  return Array.from({ length: steps }, (_, i) => ({ x: a.x + ((b.x - a.x) * (i + 1)) / steps, y: a.y + ((b.y - a.y) * (i + 1)) / steps }));
}

/**
 * Drags from `a` to `b` with the left button. Native HTML5 drag-and-drop runs a browser drag loop
 * that synthetic mouse events cannot reach; intercepting it hands the drag data back so the drop is
 * dispatched over CDP. `nextFrame` waits for one rendering update (the hover state before a drop).
 */
export async function dragAndDrop(session: Session, a: Point, b: Point, nextFrame: () => Promise<void>): Promise<void> {
  const s = session;
  let data: Protocol.Input.DragData | undefined;
  const off = s.on("Input.dragIntercepted", (p) => {
    data = p.data;
  });
  // Drag events are paced as a hand moves: a drop zone (an iframe canvas above all) gets time
  // to react to the drag entering and moving over it before the drop.
  const dragEvent = async (type: "dragEnter" | "dragOver" | "drop", x: number, y: number, dragData: Protocol.Input.DragData) => {
    await s.send("Input.dispatchDragEvent", { type, x, y, data: dragData });
    if (type !== "drop") await Bun.sleep(DRAG_EVENT_GAP_MS);
  };
  try {
    await s.send("Input.setInterceptDrags", { enabled: true });
    await s.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: a.x, y: a.y });
    await s.send("Input.dispatchMouseEvent", { type: "mousePressed", x: a.x, y: a.y, button: "left", buttons: 1, clickCount: 1 });
    let entered = false;
    for (const { x, y } of dragPath(a, b)) {
      if (data) {
        await dragEvent(entered ? "dragOver" : "dragEnter", x, y, data);
        entered = true;
        continue;
      }
      await s.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "left", buttons: 1 });
      // One round trip lets a drag the move started announce itself before the next move.
      await s.send("Runtime.evaluate", { expression: "0", returnByValue: true });
    }
    if (data) {
      if (!entered) await dragEvent("dragEnter", b.x, b.y, data);
      await dragEvent("dragOver", b.x, b.y, data);
      // The page (and the frame under the point) renders the hover state before the drop.
      await nextFrame();
      await dragEvent("drop", b.x, b.y, data);
    } else {
      await s.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: b.x, y: b.y, button: "left", buttons: 0, clickCount: 1 });
    }
  } finally {
    off();
    await s.send("Input.setInterceptDrags", { enabled: false }).catch(() => undefined);
  }
}
