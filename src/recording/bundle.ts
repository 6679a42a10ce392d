// A recording bundle on disk: content-addressed frames under `<root>/recording/` and the optional
// `recording.gif`. Only already-redacted images reach `writeFrame`; each file is written whole.
import { createHash } from "node:crypto";
import { existsSync, linkSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeDir, writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { encodePng, type Image } from "./image.ts";

export const FRAMES_DIR = "recording";
export const GIF_FILE = "recording.gif";

/** `frame-<offset_ms>-<first 8 hex of sha256(png)>.png`: derivable from the timeline, tamper-evident. */
export function frameFileName(offsetMs: number, png: Uint8Array): string {
  const hash = createHash("sha256").update(png).digest("hex").slice(0, 8);
  return `frame-${offsetMs}-${hash}.png`;
}

export interface PersistedFrame {
  readonly offset_ms: number;
  /** Relative to the bundle root, e.g. `recording/frame-120-1a2b3c4d.png`. */
  readonly file: string;
}

export class FrameBundle {
  /** The bundle root (a run directory, or `.flowproof/recordings/<trace_id>`). */
  readonly root: string;
  #made = false;

  constructor(root: string) {
    this.root = root;
  }

  /** Encodes a redacted image and writes it under its content name. */
  writeFrame(offsetMs: number, redacted: Image): PersistedFrame {
    return this.writeEncoded(offsetMs, encodePng(redacted));
  }

  /** Writes an already encoded, already redacted frame under its content name. */
  writeEncoded(offsetMs: number, png: Uint8Array): PersistedFrame {
    const name = frameFileName(offsetMs, png);
    const dir = join(this.root, FRAMES_DIR);
    if (!this.#made) {
      makeDir(dir);
      this.#made = true;
    }
    const path = join(dir, name);
    if (!existsSync(path)) writeFileAtomic(path, png);
    return { offset_ms: offsetMs, file: `${FRAMES_DIR}/${name}` };
  }

  /**
   * The frame at `offsetMs` shows the same picture as an already written frame (`file`, relative
   * to the root): that file, linked under this offset's name (a copy where links are refused).
   */
  linkFrame(offsetMs: number, file: string): PersistedFrame {
    const hash = /-([0-9a-f]{8})\.png$/.exec(file)?.[1];
    // A plain Error on purpose: `file` is a frame this bundle wrote, so a name without its hash is a flowproof bug.
    if (!hash) throw new Error(`not a frame file: ${file}`);
    const name = `frame-${offsetMs}-${hash}.png`;
    const from = join(this.root, file);
    const path = join(this.root, FRAMES_DIR, name);
    if (!existsSync(path)) {
      try {
        linkSync(from, path);
      } catch {
        writeFileAtomic(path, readFileSync(from));
      }
    }
    return { offset_ms: offsetMs, file: `${FRAMES_DIR}/${name}` };
  }

  writeGif(bytes: Uint8Array): string {
    makeDir(this.root);
    writeFileAtomic(join(this.root, GIF_FILE), bytes);
    return GIF_FILE;
  }
}
