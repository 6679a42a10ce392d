// Looking at the window: capture its pixels, and OCR them only when they changed. A view is one
// frame with its scene; frames and OCR are reused while the window's pixels hash the same, so
// several reads of an unchanged window cost one capture each and one OCR in all.
import type { Rect } from "../../src/plugins/api.ts";
import { captionColumn, captionWords, uncoveredCaptions } from "./captions.ts";
import { findField, type FieldAnswer } from "./field.ts";
import { frameHash, toGrey, upscaleGrey, type Frame } from "./frame.ts";
import type { GreyImage, OcrLayout, OcrWord } from "./ocr/engine.ts";
import { darkOnLight } from "./polarity.ts";
import { buildScene, type Scene, type SceneWord } from "./scene.ts";
import type { Screen, ScreenWindow } from "./screen.ts";

/**
 * The window is OCR'd at this scale: UI fonts (9–12 px x-height) read markedly better at twice
 * their size (text touching a field's border among them), for about 1.5× the time.
 */
export const OCR_SCALE = 2;

/** First-pass words at least this sure (0–100) are not read again; less sure ones may be, as part of a caption. */
export const SURE_CONFIDENCE = 80;

/** How much surer (mean confidence) the first pass's words must be to be kept over a caption's second reading. */
export const SECOND_READING_EDGE = 10;

/** A box in OCR pixels → window pixels (outwards, so the box still covers the text), offset by where the OCR'd area starts. */
function unscale(r: Rect, at: { x: number; y: number }): Rect {
  const x = Math.floor(r.x / OCR_SCALE);
  const y = Math.floor(r.y / OCR_SCALE);
  return { x: x + at.x, y: y + at.y, width: Math.ceil((r.x + r.width) / OCR_SCALE) - x, height: Math.ceil((r.y + r.height) / OCR_SCALE) - y };
}

/**
 * Where something is drawn: when three of the four corners share one grey (a remote desktop's
 * empty surroundings around a dialog at its own size, a window's plain background), the bounding
 * box of the pixels that differ from it, with a 4 px margin; else the whole image. Only that area
 * is OCR'd.
 */
export function drawnArea(image: GreyImage): Rect {
  const { width, height, grey } = image;
  const whole = { x: 0, y: 0, width, height };
  if (width === 0 || height === 0) return whole;
  const corners = [grey[0]!, grey[width - 1]!, grey[(height - 1) * width]!, grey[height * width - 1]!];
  const c = corners.find((v) => corners.filter((k) => k === v).length >= 3);
  if (c === undefined) return whole;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (grey[y * width + x] === c) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  if (x1 < 0) return whole;
  const x = Math.max(0, x0 - 4);
  const y = Math.max(0, y0 - 4);
  return { x, y, width: Math.min(width, x1 + 5) - x, height: Math.min(height, y1 + 5) - y };
}

function crop(image: GreyImage, r: Rect): GreyImage {
  if (r.x === 0 && r.y === 0 && r.width === image.width && r.height === image.height) return image;
  const grey = new Uint8Array(r.width * r.height);
  for (let y = 0; y < r.height; y++) grey.set(image.grey.subarray((r.y + y) * image.width + r.x, (r.y + y) * image.width + r.x + r.width), y * r.width);
  return { width: r.width, height: r.height, grey };
}

/** What reads text from pixels (the OCR engine; a fixed reading in unit tests). */
export interface TextReader {
  recognize(image: GreyImage, layout?: OcrLayout): Promise<OcrWord[]>;
}

/**
 * The scene of one frame, boxes in the frame's pixels. The frame is made dark-on-light (light text
 * on dark areas inverted, see polarity.ts), and the area where something is drawn (see drawnArea)
 * is OCR'd at OCR_SCALE; then, only when ink is left
 * that no surely-read word covers, those short captions are read once more, each on its own line
 * at caption size (see captions.ts), and per caption the better-read of the two readings is kept
 * (with, when the first is kept, the second's words over ink the first read nothing on).
 * Both passes run once per frame: views are cached by hash.
 */
export async function readScene(ocr: TextReader, frame: Frame): Promise<Scene> {
  const grey = darkOnLight(toGrey(frame));
  const area = drawnArea(grey);
  const words: SceneWord[] = (await ocr.recognize(upscaleGrey(crop(grey, area), OCR_SCALE))).map((w) => ({ ...w, box: unscale(w.box, area) }));
  const first = buildScene(words);
  const sure = first.lines.flatMap((l) => l.words.filter((w) => w.confidence >= SURE_CONFIDENCE).map((w) => w.box));
  const captions = uncoveredCaptions(grey, sure);
  if (captions.length === 0) return first;
  const column = captionColumn(grey, captions);
  const more = captionWords(await ocr.recognize(column.image, "lines"), column.places);
  if (more.length === 0) return first;
  // Per caption, the better-read of the two readings (mean confidence): the second (read alone, at
  // caption size) unless the first pass's words there are clearly surer.
  const centreIn = (r: Rect, b: Rect) =>
    b.x + b.width / 2 >= r.x && b.x + b.width / 2 <= r.x + r.width && b.y + b.height / 2 >= r.y && b.y + b.height / 2 <= r.y + r.height;
  const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const mean = (ws: readonly SceneWord[]) => ws.reduce((s, w) => s + w.confidence, 0) / ws.length;
  const dropped = new Set<SceneWord>();
  const kept: SceneWord[] = [];
  column.places.forEach((place, i) => {
    const second = more.filter((w) => w.place === i);
    if (second.length === 0) return;
    const before = words.filter((w) => centreIn(place.caption, w.box));
    const plain = second.map(({ place: _, ...w }) => w);
    if (before.length > 0 && mean(before) > mean(second) + SECOND_READING_EDGE) {
      // The first pass read its words there better; what it did not read at all (a button's face
      // beside a label that changed) is still the second reading's.
      // Only a word that sits inside the caption it was read from: a box the stacked reading
      // mapped elsewhere would be a line where nothing is drawn.
      kept.push(...plain.filter((w) => centreIn(place.caption, w.box) && !before.some((b) => overlaps(b.box, w.box))));
      return;
    }
    for (const w of before) dropped.add(w);
    kept.push(...plain);
  });
  return buildScene([...words.filter((w) => !dropped.has(w)), ...kept]);
}

/** One look at the window: a frame, its hash and its scene. */
export interface View {
  readonly hash: string;
  readonly frame: Frame;
  readonly scene: Scene;
  /** The field a label names (see field.ts), memoised per view. */
  field(label: Rect): FieldAnswer;
}

/** How many captures and OCR runs a reader made (the reuse is observable). */
export interface ReaderStats {
  captures: number;
  ocrRuns: number;
}

export class WindowReader {
  readonly #screen: Screen;
  readonly #window: ScreenWindow;
  readonly #ocr: TextReader;
  #last: View | undefined;
  /** The hash `changed()` last compared against. */
  #signalled: string | undefined;
  readonly stats: ReaderStats = { captures: 0, ocrRuns: 0 };

  constructor(screen: Screen, window: ScreenWindow, ocr: TextReader) {
    this.#screen = screen;
    this.#window = window;
    this.#ocr = ocr;
  }

  /** The window now: captured, and OCR'd unless its pixels are the last view's. */
  async look(): Promise<View> {
    const frame = await this.#capture();
    const hash = frameHash(frame);
    if (this.#last && this.#last.hash === hash) return this.#last;
    this.stats.ocrRuns++;
    const scene = await readScene(this.#ocr, frame);
    const fields = new Map<string, FieldAnswer>();
    const boxes = scene.lines.map((l) => l.box);
    const view: View = {
      hash,
      frame,
      scene,
      field(label) {
        const key = `${label.x},${label.y},${label.width},${label.height}`;
        let answer = fields.get(key);
        if (!answer) fields.set(key, (answer = findField(frame, label, boxes)));
        return answer;
      },
    };
    this.#last = view;
    return view;
  }

  /** The window's pixels now, without OCR. */
  async frameNow(): Promise<Frame> {
    return this.#capture();
  }

  /** The window's hash now, without OCR. */
  async hashNow(): Promise<string> {
    return frameHash(await this.#capture());
  }

  /** Whether the pixels differ from the previous call's (true on the first); exact, so no change is missed. */
  async changed(): Promise<boolean> {
    const hash = await this.hashNow();
    const changed = hash !== this.#signalled;
    this.#signalled = hash;
    return changed;
  }

  async #capture(): Promise<Frame> {
    this.stats.captures++;
    return this.#screen.capture(this.#window);
  }
}
