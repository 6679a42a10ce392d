import { describe, expect, test } from "bun:test";
import { clickEvents, dragPath } from "./pointer.ts";

describe("clickEvents", () => {
  test("a double click moves once, then two press/release pairs counted 1 and 2", () => {
    const events = clickEvents({ x: 10, y: 20 }, { button: "left", clickCount: 2 });
    expect(events.map((e) => [e.type, e.clickCount ?? 0, e.buttons ?? -1])).toEqual([
      ["mouseMoved", 0, -1],
      ["mousePressed", 1, 1],
      ["mouseReleased", 1, 0],
      ["mousePressed", 2, 1],
      ["mouseReleased", 2, 0],
    ]);
    expect(events.every((e) => e.x === 10 && e.y === 20)).toBe(true);
  });

  test("a right click holds the secondary button", () => {
    expect(clickEvents({ x: 0, y: 0 }, { button: "right", clickCount: 1 })[1]).toMatchObject({ type: "mousePressed", button: "right", buttons: 2 });
  });
});

describe("dragPath", () => {
  test("evenly spaced points from just past the start to the end", () => {
    expect(dragPath({ x: 0, y: 100 }, { x: 40, y: 0 }, 4)).toEqual([
      { x: 10, y: 75 },
      { x: 20, y: 50 },
      { x: 30, y: 25 },
      { x: 40, y: 0 },
    ]);
  });

  test("ten moves by default", () => {
    expect(dragPath({ x: 0, y: 0 }, { x: 100, y: 0 })).toHaveLength(10);
  });
});
