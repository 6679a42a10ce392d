// The terminal's screen as a PNG: each cell a glyph of the 5x7 font, scaled, light on dark, the
// cursor as a bar under its cell. Deterministic: the same screen is the same bytes. PNG written
// with node:zlib (deflate) and a CRC-32 table, so the plugin needs no package.
import { deflateSync } from "node:zlib";
import { glyph } from "./font.ts";
import type { Screen } from "./screen.ts";

/** Pixels per font pixel. */
const SCALE = 2;
/** A cell: the 5x7 glyph with one column and two rows of spacing, scaled. */
export const CELL_WIDTH = 6 * SCALE;
export const CELL_HEIGHT = 9 * SCALE;
const INK = [221, 221, 221];
const PAPER = [17, 17, 17];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** An 8-bit RGB PNG of `width` x `height` pixels from `rgb` (3 bytes a pixel, row by row). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  const header = new Uint8Array(13);
  const h = new DataView(header.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 6 })),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The screen's picture. */
export function picture(screen: Screen): Uint8Array {
  const width = screen.columns * CELL_WIDTH;
  const height = screen.rows * CELL_HEIGHT;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) rgb.set(PAPER, i * 3);
  const paint = (x: number, y: number) => rgb.set(INK, (y * width + x) * 3);
  screen.lines().forEach((line, row) => {
    [...line].forEach((ch, col) => {
      glyph(ch).forEach((bits, gy) => {
        for (let gx = 0; gx < 5; gx++) {
          if (!((bits >> (4 - gx)) & 1)) continue;
          for (let dy = 0; dy < SCALE; dy++)
            for (let dx = 0; dx < SCALE; dx++) paint(col * CELL_WIDTH + gx * SCALE + dx, row * CELL_HEIGHT + (gy + 1) * SCALE + dy);
        }
      });
    });
  });
  const { row, col } = screen.cursor;
  for (let x = 0; x < CELL_WIDTH - SCALE; x++)
    for (let dy = 0; dy < SCALE; dy++) paint(Math.min(col, screen.columns - 1) * CELL_WIDTH + x, row * CELL_HEIGHT + CELL_HEIGHT - SCALE + dy);
  return encodePng(width, height, rgb);
}
