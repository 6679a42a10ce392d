import { describe, expect, test } from "bun:test";
import { drawCursor, drawHalo, drawMarks, HALO_RGB } from "./cursor.ts";
import { solidImage, type Image } from "./image.ts";

const px = (img: Image, x: number, y: number) => [...img.data.slice((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];

describe("cursor overlay", () => {
  test("draws a white arrow with a black outline whose tip is at the point", () => {
    const img = solidImage(100, 100, [0, 128, 0]);
    drawCursor(img, { x: 40, y: 40 });
    expect(px(img, 42, 50)).toEqual([255, 255, 255]);
    expect(px(img, 40, 40)).toEqual([0, 0, 0]);
    expect(px(img, 80, 80)).toEqual([0, 128, 0]);
  });

  test("draws a bright ring around the event point and tints inside it", () => {
    const img = solidImage(100, 100, [255, 255, 255]);
    drawHalo(img, { x: 50, y: 50 });
    expect(px(img, 50 + 25, 50)).toEqual([...HALO_RGB]);
    const centre = px(img, 50, 50);
    expect(centre).not.toEqual([255, 255, 255]);
    expect(centre[1]).toBeLessThan(255);
    expect(px(img, 5, 5)).toEqual([255, 255, 255]);
  });

  test("marks both ends of a drag and keeps the cursor at the end", () => {
    const img = solidImage(200, 100, [255, 255, 255]);
    drawMarks(img, {
      halos: [
        { x: 30, y: 50 },
        { x: 170, y: 50 },
      ],
      cursor: { x: 170, y: 50 },
    });
    expect(px(img, 30 + 25, 50)).toEqual([...HALO_RGB]);
    expect(px(img, 170 - 25, 50)).toEqual([...HALO_RGB]);
    expect(px(img, 172, 60)).toEqual([255, 255, 255]);
  });

  test("clips marks at the frame edge", () => {
    const img = solidImage(10, 10, [255, 255, 255]);
    drawMarks(img, { halos: [{ x: 0, y: 0 }], cursor: { x: 9, y: 9 } });
    // The frame keeps its size; the halo's translucent fill reaches the corner it is centred on.
    expect(img.data.length).toBe(10 * 10 * 4);
    expect(px(img, 0, 0)).toEqual([255, 184, 240]);
    expect(px(img, 9, 9)).not.toEqual([255, 255, 255]);
  });
});
