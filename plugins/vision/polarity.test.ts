import { describe, expect, test } from "bun:test";
import { darkOnLight } from "./polarity.ts";

/** A grey image: `bg` everywhere, a `panel` rectangle of `panelGrey`, one `ink` pixel at (x, y). */
function image(width: number, height: number, bg: number, panel?: { x0: number; x1: number; grey: number }) {
  const grey = new Uint8Array(width * height).fill(bg);
  if (panel) for (let y = 0; y < height; y++) for (let x = panel.x0; x < panel.x1; x++) grey[y * width + x] = panel.grey;
  return { width, height, grey };
}

describe("darkOnLight", () => {
  test("a light image is returned as it is", () => {
    const light = image(80, 40, 240);
    light.grey[20 * 80 + 10] = 20;
    expect(darkOnLight(light)).toBe(light);
  });

  test("light text on a dark area becomes dark text on light; the light area stays as it was", () => {
    const img = image(200, 40, 230, { x0: 100, x1: 200, grey: 40 });
    img.grey[20 * 200 + 150] = 250; // light ink on the dark panel
    img.grey[20 * 200 + 30] = 10; // dark ink on the light side
    const out = darkOnLight(img);
    expect(out.grey[20 * 200 + 150]).toBe(5);
    expect(out.grey[20 * 200 + 160]).toBe(215);
    expect(out.grey[20 * 200 + 30]).toBe(10);
    expect(out.grey[20 * 200 + 40]).toBe(230);
  });
});
