// The vision AppDriver: one window seen only through its pixels, driven by the one desktop driver
// (plugins/desktop/driver.ts) over the vision surface and its OCR element backend (surface.ts):
// resolution, checks, counts, masks, the scene and the debug snapshot are the driver's. What is
// vision's own besides: the reuse counters, the change signal, the point a pointer goes to and the
// candidates an ambiguous text offers. Every method is one attempt.
import type { Attempt, Candidate, PointerOptions, Rect, Selector } from "../../src/plugins/api.ts";
import { DesktopDriver } from "../desktop/driver.ts";
import type { ScreenWindow } from "./screen.ts";
import { OCR_INFO, VisionSurface, type VisionSurfaceOptions } from "./surface.ts";
import { allMatches, anchorOf, ordinal, resolveTarget } from "./target.ts";

export { OCR_INFO };

/** The launch config of a vision surface: the window it attaches to and the geometry it pins. */
export interface VisionConfig {
  /** A substring of the window's title (`window.title`). */
  readonly title: string;
  readonly width?: number;
  readonly height?: number;
  readonly x?: number;
  readonly y?: number;
}

/** The driver is opened with what its surface needs (the screen, the window, OCR, the geometry). */
export type VisionDriverOptions = VisionSurfaceOptions;

const at = (box: Rect, pct?: PointerOptions["at"]) => ({
  x: Math.round(box.x + (box.width * (pct?.xPct ?? 50)) / 100),
  y: Math.round(box.y + (box.height * (pct?.yPct ?? 50)) / 100),
});

function parts(options: VisionDriverOptions) {
  const surface = new VisionSurface(options);
  return { surface, backend: surface.backend, sleep: options.sleep ?? ((ms: number) => Bun.sleep(ms)) };
}

export class VisionDriver extends DesktopDriver {
  readonly #vision: VisionSurface;

  constructor(options: VisionDriverOptions) {
    super(parts(options));
    this.#vision = this.surface as VisionSurface;
  }

  /** Captures and OCR runs so far (frames and OCR are reused while the pixels are unchanged). */
  get stats(): { readonly captures: number; readonly ocrRuns: number } {
    return { ...this.#vision.reader.stats };
  }

  /** The window as found (its title when attached). */
  get window(): ScreenWindow {
    return this.#vision.window;
  }

  /** A vision app names no lists: refused without reading the window. */
  override async select(): Promise<Attempt> {
    return this.#vision.select();
  }

  /** A vision app reads no check box's state: refused without reading the window. */
  override async setChecked(): Promise<Attempt> {
    return this.#vision.setChecked();
  }

  async candidates(ladder: readonly Selector[]): Promise<readonly Candidate[]> {
    const first = ladder[0];
    const anchor = first && anchorOf(first);
    if (!anchor || anchor.nth !== undefined) return [];
    const matches = allMatches(await this.#vision.reader.look(), [first]);
    return matches.map((m, i) => ({ nth: i + 1, what: `${ordinal(i + 1)} ${JSON.stringify(m.line.text)} at ${m.box.x},${m.box.y}` }));
  }

  async screenChanged(): Promise<boolean> {
    return this.#vision.reader.changed();
  }

  async pointFor(ladder: readonly Selector[], pct?: PointerOptions["at"]): Promise<{ readonly x: number; readonly y: number } | undefined> {
    const target = resolveTarget(await this.#vision.reader.look(), ladder, "any");
    return target.ok ? at(target.box, pct) : undefined;
  }
}
