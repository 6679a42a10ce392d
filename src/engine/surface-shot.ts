// The screenshot hook structured assertions get (`AssertionContext.screenshot`): one frame of the
// active surface with the step's mask targets painted opaque black, and, whatever the step says,
// password fields, fields a `${VAR}` was typed into and every place the screen shows a secret. Fails (never guesses) when a mask target
// does not resolve, or when a masked element moved while the frame was taken.
import type { AppDriver, RectTarget, SurfaceShot } from "../plugins/api.ts";
import { decodePng, encodePng, fillRect } from "../recording/image.ts";
import { Redactor } from "../recording/redactor.ts";

/** `css:.clock` → `.clock`; `id:total` → `[id="total"]`; anything else is text on the page. */
export function maskTarget(mask: string): RectTarget {
  const m = /^(css|id):(.+)$/s.exec(mask.trim());
  if (!m) return { text: mask };
  return m[1] === "css" ? { css: m[2]! } : { css: `[id="${m[2]!.replace(/["\\]/g, "\\$&")}"]` };
}

/** Captures the surface and blanks every mask; undefined when the driver cannot take screenshots. */
export function surfaceShooter(
  driver: AppDriver,
  secrets: () => readonly string[] = () => [],
): ((mask: readonly string[]) => Promise<SurfaceShot>) | undefined {
  const capture = driver.captureFrame?.bind(driver);
  const rectsFor = driver.rectsFor?.bind(driver);
  if (!driver.capabilities.has("screenshot") || !capture || !rectsFor) return undefined;
  const always = new Redactor([]).targets;
  return async (mask) => {
    // Every secret of the run is blanked wherever the screen shows it, as in a recorded frame.
    const values = secrets().filter((v) => v.trim() !== "");
    const shown: RectTarget[] = values.length > 0 ? [{ secretText: values }] : [];
    const targets = [...always, ...mask.map(maskTarget), ...shown];
    // Read around the capture: a masked element that moved meanwhile could show where it passed.
    const before = await rectsFor(targets);
    const frame = await capture();
    const after = await rectsFor(targets);
    for (const [i, answer] of after.slice(always.length, always.length + mask.length).entries()) {
      if (!answer.ok || answer.rects.length === 0) {
        return { ok: false, detail: `mask ${JSON.stringify(mask[i])} does not resolve to any element${answer.ok ? "" : `: ${answer.detail}`}` };
      }
    }
    // The same plan as a recorded frame's, each step mask named as written.
    const named = new Redactor(mask.map((m) => ({ target: { css: m }, mode: "mask" as const })));
    const plan = named.masksFor([before, after], [...named.targets, ...shown]);
    if (!plan.ok) return { ok: false, detail: `the screenshot could not be masked safely: ${plan.detail}` };
    const image = decodePng(frame.png);
    for (const r of plan.rects) fillRect(image, r, [0, 0, 0]);
    return { ok: true, png: encodePng(image) };
  };
}
