// The screenshot hook structured assertions get (`AssertionContext.screenshot`): one frame of the
// active surface with the step's mask targets painted opaque black. Fails (never guesses) when a
// mask target does not resolve.
import type { AppDriver, RectTarget, SurfaceShot } from "../plugins/api.ts";
import { decodePng, encodePng, fillRect } from "../recording/image.ts";

/** `css:.clock` → `.clock`; `id:total` → `[id="total"]`; anything else is text on the page. */
export function maskTarget(mask: string): RectTarget {
  const m = /^(css|id):(.+)$/s.exec(mask.trim());
  if (!m) return { text: mask };
  return m[1] === "css" ? { css: m[2]! } : { css: `[id="${m[2]!.replace(/["\\]/g, "\\$&")}"]` };
}

/** Captures the surface and blanks every mask; undefined when the driver cannot take screenshots. */
export function surfaceShooter(driver: AppDriver): ((mask: readonly string[]) => Promise<SurfaceShot>) | undefined {
  const capture = driver.captureFrame?.bind(driver);
  const rectsFor = driver.rectsFor?.bind(driver);
  if (!driver.capabilities.has("screenshot") || !capture || !rectsFor) return undefined;
  return async (mask) => {
    const targets = mask.map(maskTarget);
    const frame = await capture();
    if (targets.length === 0) return { ok: true, png: frame.png };
    const answers = await rectsFor(targets);
    const image = decodePng(frame.png);
    for (const [i, answer] of answers.entries()) {
      if (!answer.ok || answer.rects.length === 0) {
        return { ok: false, detail: `mask ${JSON.stringify(mask[i])} does not resolve to any element${answer.ok ? "" : `: ${answer.detail}`}` };
      }
      for (const r of answer.rects) fillRect(image, r, [0, 0, 0]);
    }
    return { ok: true, png: encodePng(image) };
  };
}
