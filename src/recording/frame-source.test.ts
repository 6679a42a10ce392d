import { describe, expect, test } from "bun:test";
import type { AppDriver, Capability } from "../plugins/api.ts";
import type { TraceStep } from "../trace/schema.ts";
import { driverFrameSource, POINTER_ACTIONS } from "./frame-source.ts";
import { encodePng, solidImage } from "./image.ts";

function fakeDriver(capabilities: Capability[], extra: Partial<AppDriver>): AppDriver {
  return { capabilities: new Set(capabilities), ...extra } as unknown as AppDriver;
}

const step = (params: Record<string, unknown> = {}): TraceStep => ({
  id: "s0001",
  intent: "Click Save",
  action: { type: "click", params },
  selectors: [{ tier: "native_id", provenance: "rules", payload: { id: "save" } }],
  sync: { pre: [], post: [] },
  artifacts: {},
});

describe("driverFrameSource", () => {
  test("is absent for a driver without the screenshot capability", () => {
    expect(driverFrameSource(fakeDriver(["pointer"], {}))).toBeUndefined();
  });

  test("passes the driver's PNG frame through", async () => {
    const png = encodePng(solidImage(4, 2, [7, 8, 9]));
    const source = driverFrameSource(fakeDriver(["screenshot"], { captureFrame: async () => ({ png }), rectsFor: async () => [] }))!;
    expect((await source.capture()).png).toBe(png);
  });

  test("a rect query that throws answers every target unresolved (fail closed)", async () => {
    const source = driverFrameSource(
      fakeDriver(["screenshot"], {
        captureFrame: async () => ({ png: new Uint8Array() }),
        rectsFor: async () => {
          throw new Error("page navigated");
        },
      }),
    )!;
    expect(await source.resolve([{ css: "a" }, { css: "b" }])).toEqual([
      { ok: false, detail: "page navigated" },
      { ok: false, detail: "page navigated" },
    ]);
  });

  test("asks the driver where a pointer step lands, passing a click-at point", async () => {
    const seen: unknown[] = [];
    const source = driverFrameSource(
      fakeDriver(["screenshot"], {
        captureFrame: async () => ({ png: new Uint8Array() }),
        rectsFor: async () => [],
        pointFor: async (ladder, at) => {
          seen.push(ladder.length, at);
          return { x: 3, y: 4 };
        },
      }),
    )!;
    expect(await source.pointerPoints(step({ x_pct: 10, y_pct: 90 }))).toEqual([{ x: 3, y: 4 }]);
    expect(seen).toEqual([1, { xPct: 10, yPct: 90 }]);
  });

  test("a drag lands at both ends: its source and its drop target (params.onto)", async () => {
    const onto: TraceStep["selectors"] = [{ tier: "text_anchor", provenance: "rules", payload: { text: "Bin" } }];
    const source = driverFrameSource(
      fakeDriver(["screenshot"], {
        captureFrame: async () => ({ png: new Uint8Array() }),
        rectsFor: async () => [],
        pointFor: async (ladder) => (ladder === onto ? { x: 50, y: 60 } : { x: 5, y: 6 }),
      }),
    )!;
    const drag: TraceStep = { ...step(), action: { type: "drag", params: { onto } } };
    expect(await source.pointerPoints(drag)).toEqual([
      { x: 5, y: 6 },
      { x: 50, y: 60 },
    ]);
  });

  test("counts click, double, right, hover and drag as pointer actions, typing not", () => {
    expect(["click", "double_click", "right_click", "hover", "drag"].every((t) => POINTER_ACTIONS.has(t as never))).toBe(true);
    expect(POINTER_ACTIONS.has("type_text")).toBe(false);
  });
});
