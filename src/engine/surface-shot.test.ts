import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { maskTarget, surfaceShooter } from "./surface-shot.ts";
import type { AppDriver } from "../plugins/api.ts";

function white(w: number, h: number): Uint8Array {
  const p = new PNG({ width: w, height: h });
  p.data.fill(255);
  return PNG.sync.write(p);
}

type Answer = { ok: boolean; rects?: { x: number; y: number; width: number; height: number }[] };
const answer = (r: Answer) => (r.ok ? { ok: true, rects: r.rects ?? [] } : { ok: false, detail: "bad selector" });
/** A surface whose password and secret fields answer `always` and whose step masks answer `rects`; `after` for the read after the capture. */
const driver = (rects: Answer[], always: Answer[] = [{ ok: true }, { ok: true }], after?: Answer[]) => {
  let reads = 0;
  return {
    capabilities: new Set(["screenshot"]),
    captureFrame: async () => ({ png: white(4, 4) }),
    rectsFor: async (targets: unknown[]) => {
      expect(targets.slice(0, 2)).toEqual([{ passwordFields: true }, { secretFields: true }]);
      const own = reads++ === 0 ? rects : (after ?? rects);
      return [...always, ...own].map(answer);
    },
  } as unknown as AppDriver;
};

describe("surfaceShooter", () => {
  test("maps css: and id: masks to CSS, anything else to text", () => {
    expect(maskTarget("css:.clock")).toEqual({ css: ".clock" });
    expect(maskTarget('id:a"b')).toEqual({ css: '[id="a\\"b"]' });
    expect(maskTarget("Sync")).toEqual({ text: "Sync" });
  });

  test("paints every mask rectangle black", async () => {
    const shot = await surfaceShooter(driver([{ ok: true, rects: [{ x: 0, y: 0, width: 2, height: 1 }] }]))!(["css:.a"]);
    if (!shot.ok) throw new Error(shot.detail);
    const p = PNG.sync.read(Buffer.from(shot.png));
    expect([...p.data.subarray(0, 4)]).toEqual([0, 0, 0, 255]);
    expect([...p.data.subarray(8, 12)]).toEqual([255, 255, 255, 255]);
  });

  test("fails when a mask resolves to nothing", async () => {
    expect(await surfaceShooter(driver([{ ok: true }]))!(["css:.none"])).toEqual({ ok: false, detail: 'mask "css:.none" does not resolve to any element' });
  });

  test("always paints password fields and fields a secret was typed into, with no step mask", async () => {
    const shot = await surfaceShooter(
      driver(
        [],
        [
          { ok: true, rects: [{ x: 0, y: 0, width: 1, height: 1 }] },
          { ok: true, rects: [{ x: 2, y: 0, width: 1, height: 1 }] },
        ],
      ),
    )!([]);
    if (!shot.ok) throw new Error(shot.detail);
    const p = PNG.sync.read(Buffer.from(shot.png));
    expect([...p.data.subarray(0, 4)]).toEqual([0, 0, 0, 255]);
    expect([...p.data.subarray(4, 8)]).toEqual([255, 255, 255, 255]);
    expect([...p.data.subarray(8, 12)]).toEqual([0, 0, 0, 255]);
  });

  test("fails when a secret field cannot be located, or a mask moved while the frame was taken", async () => {
    expect(await surfaceShooter(driver([], [{ ok: true }, { ok: false }]))!([])).toEqual({
      ok: false,
      detail: "the screenshot could not be masked safely: fields a secret was typed into: bad selector",
    });
    const moved = driver([{ ok: true, rects: [{ x: 0, y: 0, width: 1, height: 1 }] }], undefined, [{ ok: true, rects: [{ x: 3, y: 0, width: 1, height: 1 }] }]);
    expect(await surfaceShooter(moved)!(["css:.badge"])).toEqual({
      ok: false,
      detail: "the screenshot could not be masked safely: css:.badge: moved while the frame was taken",
    });
  });

  test("is absent for a surface that cannot take screenshots", () => {
    expect(surfaceShooter({ capabilities: new Set() } as unknown as AppDriver)).toBeUndefined();
  });
});
