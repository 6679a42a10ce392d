// The OCR engine: one tesseract.js worker thread per run, started once, fed one grey image at a
// time, terminated at the end (and awaited, so no thread outlives the run). Words come back with
// their boxes in image pixels. The model's bytes are read here and handed to the worker; the
// worker never reads a file or the network itself.
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { FlowproofError, type Rect } from "../../../src/plugins/api.ts";
import { isWorkerReply, type WorkerPacket } from "./protocol.ts";

/** One OCR'd word: its text, tesseract's confidence (0–100) and its box in image pixels. */
export interface OcrWord {
  readonly text: string;
  readonly confidence: number;
  readonly box: Rect;
}

/** How an image is laid out: a window's sparse texts, or a column of one-line captions. */
export type OcrLayout = "sparse" | "lines";

/** An 8-bit grey image, rows top-down. */
export interface GreyImage {
  readonly width: number;
  readonly height: number;
  readonly grey: Uint8Array;
}

/**
 * Tesseract settings: sparse text (a screen is labels and controls, not a page of prose; reading
 * order is computed from the boxes afterwards), a fixed resolution (no per-image estimate, so the
 * same pixels always read the same), spaces kept as seen.
 */
export const OCR_PARAMETERS: Readonly<Record<string, string>> = {
  tessedit_pageseg_mode: "11",
  user_defined_dpi: "96",
  preserve_interword_spaces: "1",
};
/** How long the worker may take to start (the model is ~3 MB gzipped). */
const START_TIMEOUT_MS = 60_000;
/** How long one image may take. */
const RECOGNIZE_TIMEOUT_MS = 30_000;
const BUG_HINT = "report this as a flowproof bug, with the run's log";
/** How long terminating may take before it is reported. */
const TERMINATE_TIMEOUT_MS = 5_000;

export class OcrError extends FlowproofError {
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super({ code: "plugin-error", message, hint }, options);
  }
}

/** Pure: a binary PGM (P5) of the image: what tesseract's image reader takes without decoding work. */
export function encodePgm(image: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.grey.length);
  out.set(header, 0);
  out.set(image.grey, header.length);
  return out;
}

/** Pure: the words of tesseract's TSV output (level 5 rows with text), in the order given. */
export function parseTsv(tsv: string): OcrWord[] {
  const out: OcrWord[] = [];
  for (const line of tsv.split("\n")) {
    const cols = line.split("\t");
    if (cols[0] !== "5" || cols.length < 12) continue;
    const text = cols.slice(11).join("\t").trim();
    if (text === "") continue;
    const [x, y, width, height, conf] = cols.slice(6, 11).map(Number) as [number, number, number, number, number];
    out.push({ text, confidence: conf, box: { x, y, width, height } });
  }
  return out;
}

/**
 * The worker module's path: beside this one when run from source or the npm package. In a compiled
 * executable this module lives in the bundle's virtual root (`/$bunfs/root`, `B:/~BUN/root`), and
 * the worker is an entry point of its own under its repository path (scripts/build.ts adds it).
 */
export function workerPath(dir: string = import.meta.dir): string {
  const compiled = dir.includes("$bunfs") || dir.includes("~BUN");
  return compiled ? join(dir, "plugins", "vision", "ocr", "worker.ts") : join(dir, "worker.ts");
}

interface Pending {
  readonly resolve: (data: unknown) => void;
  readonly reject: (error: Error) => void;
}

export class OcrEngine {
  readonly #worker: Worker;
  readonly #pending = new Map<string, Pending>();
  #seq = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #dead: Error | undefined;
  readonly #exited: Promise<void>;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    worker.on("message", (reply: unknown) => this.#onReply(reply));
    worker.on("error", (error: Error) => this.#fail(new OcrError(`the OCR worker failed: ${error.message}`, BUG_HINT, { cause: error })));
    worker.once("exit", (code: number) => this.#fail(new OcrError(`the OCR worker ended (exit code ${code})`, BUG_HINT)));
    // The worker never keeps the process alive: an unfinished run still exits.
    worker.unref();
  }

  /** Starts the worker and loads the model (`modelBytes`: eng.traineddata, gzipped or not). */
  static async start(modelBytes: Uint8Array, worker: string = workerPath()): Promise<OcrEngine> {
    const engine = new OcrEngine(new Worker(worker));
    try {
      await engine.#job("flowproof-model", { model: modelBytes }, START_TIMEOUT_MS);
      await engine.#job("load", { options: { lstmOnly: true, logging: false } }, START_TIMEOUT_MS);
      // langPath is only a name here: the worker answers its read with the bytes it was given.
      await engine.#job(
        "loadLanguage",
        { langs: "eng", options: { langPath: "/flowproof-model", cacheMethod: "none", gzip: true, lstmOnly: true } },
        START_TIMEOUT_MS,
      );
      await engine.#job("initialize", { langs: "eng", oem: 1, config: {} }, START_TIMEOUT_MS);
      await engine.#job("setParameters", { params: OCR_PARAMETERS }, START_TIMEOUT_MS);
    } catch (error) {
      await engine.terminate();
      throw new OcrError(
        `the OCR engine could not start: ${(error as Error).message}`,
        "check that the OCR model file is eng.traineddata(.gz) from @tesseract.js-data/eng",
        { cause: error },
      );
    }
    return engine;
  }

  /**
   * The words tesseract reads in `image`, with boxes in its pixels. `lines`: the image is a column
   * of one-line captions (page segmentation "a single uniform block of text"), which reads lone
   * characters and symbols that sparse mode drops.
   */
  async recognize(image: GreyImage, layout: OcrLayout = "sparse"): Promise<OcrWord[]> {
    if (layout === "lines") {
      await this.#job("setParameters", { params: { tessedit_pageseg_mode: "6" } }, RECOGNIZE_TIMEOUT_MS);
      try {
        return await this.#recognize(image);
      } finally {
        await this.#job("setParameters", { params: { tessedit_pageseg_mode: OCR_PARAMETERS["tessedit_pageseg_mode"] } }, RECOGNIZE_TIMEOUT_MS);
      }
    }
    return this.#recognize(image);
  }

  async #recognize(image: GreyImage): Promise<OcrWord[]> {
    const output = {
      text: false,
      blocks: false,
      layoutBlocks: false,
      hocr: false,
      tsv: true,
      box: false,
      unlv: false,
      osd: false,
      pdf: false,
      imageColor: false,
      imageGrey: false,
      imageBinary: false,
      debug: false,
    };
    const data = await this.#job("recognize", { image: encodePgm(image), options: {}, output }, RECOGNIZE_TIMEOUT_MS);
    const tsv = typeof data === "object" && data !== null ? (data as Record<string, unknown>)["tsv"] : undefined;
    if (typeof tsv !== "string") throw new OcrError("the OCR worker answered without words", BUG_HINT);
    return parseTsv(tsv);
  }

  /** Ends the worker thread and waits until it is gone. Idempotent. */
  async terminate(): Promise<void> {
    this.#fail(new OcrError("the OCR engine was terminated", "start a new engine; an engine is not used after its run ends"));
    void this.#worker.terminate();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gone = await Promise.race([this.#exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), TERMINATE_TIMEOUT_MS)))]);
    clearTimeout(timer);
    if (!gone) throw new OcrError(`the OCR worker did not end within ${TERMINATE_TIMEOUT_MS} ms`, BUG_HINT);
  }

  /** Jobs run one at a time, in order: tesseract's API is not re-entrant. */
  #job(action: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    const run = this.#queue.then(() => this.#send(action, payload, timeoutMs));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #send(action: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    if (this.#dead) return Promise.reject(this.#dead);
    const jobId = `job-${++this.#seq}`;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(jobId);
        reject(
          new OcrError(
            `the OCR worker did not answer \`${action}\` within ${timeoutMs} ms`,
            "check that the machine is not overloaded; a window of a few megapixels takes seconds",
          ),
        );
      }, timeoutMs);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        this.#pending.delete(jobId);
        fn();
      };
      this.#pending.set(jobId, { resolve: (d) => settle(() => resolve(d)), reject: (e) => settle(() => reject(e)) });
      const packet: WorkerPacket = { workerId: "flowproof-ocr", jobId, action, payload };
      this.#worker.postMessage(packet);
    });
  }

  #onReply(reply: unknown): void {
    if (!isWorkerReply(reply) || reply.status === "progress") return;
    const pending = this.#pending.get(reply.jobId);
    if (!pending) return;
    if (reply.status === "resolve") pending.resolve(reply.data);
    else pending.reject(new OcrError(`the OCR worker refused \`${reply.action}\`: ${String(reply.data)}`, BUG_HINT));
  }

  #fail(error: Error): void {
    this.#dead ??= error;
    for (const p of [...this.#pending.values()]) p.reject(error);
  }
}
