// The RunRecorder: the one clock of an execution and the owner of its visual timeline. The step
// loop only signals step started / finished; the recorder timestamps, captures keyframes per the
// detail level, redacts them in memory, draws the cursor overlay after redaction, persists them
// content-addressed and, with --video, assembles the GIF from the persisted (redacted) frames.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TraceStep } from "../trace/schema.ts";
import { FrameBundle, type PersistedFrame } from "./bundle.ts";
import { inlineProcessor, type FrameProcessor } from "./frame-job.ts";
import { LOW_DETAIL_INTERVAL, RECORDING_FORMAT, resolveControls, type RecordingControls } from "./controls.ts";
import type { CursorMarks, Point } from "./cursor.ts";
import { POINTER_ACTIONS, type FrameSource } from "./frame-source.ts";
import { assembleGif } from "./gif.ts";
import { decodePng } from "./image.ts";
import type { RawFrame } from "../plugins/api.ts";
import { parseRedactionRules, Redactor } from "./redactor.ts";

/** A capture or a rect query that takes longer than this is given up (the frame is not kept). */
const CAPTURE_TIMEOUT_MS = 15_000;

function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CAPTURE_TIMEOUT_MS} ms`)), CAPTURE_TIMEOUT_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** A monotonic millisecond clock (structurally the engine's Clock). */
export interface RecorderClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** One step's place on the timeline: offsets from the execution start, ms. */
export interface StepRange {
  readonly id: string;
  readonly start_ms: number;
  readonly end_ms: number;
  /** Set when a frame of this step was dropped because redaction could not be guaranteed. */
  readonly frames_dropped?: "redaction";
}

export interface RecordingSummary {
  readonly format: typeof RECORDING_FORMAT;
  readonly frames: readonly PersistedFrame[];
  readonly steps: readonly StepRange[];
  /** Bundle-relative path of recording.gif, with --video and at least one frame. */
  readonly gif?: string;
}

export interface RecorderOptions {
  /** Undefined when the surface gives no frames: the timeline is still kept. */
  readonly source: FrameSource | undefined;
  readonly bundle: FrameBundle;
  readonly clock: RecorderClock;
  readonly controls: RecordingControls;
  /** Redaction rules as written (flow `redact:` or trace header `redaction`). */
  readonly rules: readonly unknown[];
  /** Where frames are decoded, masked and written (default: this thread). */
  readonly processor?: FrameProcessor;
}

/** The status a finished step reports to the recorder. */
export interface FinishedStep {
  readonly status: "passed" | "failed" | "skipped" | "errored";
}

export class RunRecorder {
  /** The execution's clock: pass it to the step loop so the two can never disagree. */
  readonly clock: RecorderClock;
  readonly #source: FrameSource | undefined;
  readonly #bundle: FrameBundle;
  readonly #controls: Required<RecordingControls>;
  readonly #redactor: Redactor | undefined;
  /** Why no frame may be captured at all (an unparseable recorded rule). */
  readonly disabledReason: string | undefined;
  #origin = 0;
  #open: { id: string; start: number; dropped: boolean } | undefined;
  #completed = 0;
  #cursor: Point | undefined;
  /** The step whose finishing frame is the newest frame, if the newest frame is one. */
  #afterFrameOf: string | undefined;
  #lastExecuted: string | undefined;
  readonly #processor: FrameProcessor;
  /** One entry per capture, in capture order; resolved once its frames are on disk. */
  readonly #pending: Array<Promise<PersistedFrame[]>> = [];
  readonly #steps: StepRange[] = [];

  constructor(options: RecorderOptions) {
    this.clock = options.clock;
    this.#source = options.source;
    this.#bundle = options.bundle;
    this.#controls = resolveControls(options.controls);
    this.#processor = options.processor ?? inlineProcessor;
    const parsed = parseRedactionRules(options.rules);
    this.#redactor = parsed.ok ? new Redactor(parsed.rules) : undefined;
    this.disabledReason = parsed.ok ? undefined : parsed.detail;
  }

  get #capturing(): boolean {
    return this.#controls.recordingDetail !== "off";
  }

  #now(): number {
    return Math.round(this.clock.now() - this.#origin);
  }

  /** Marks the execution start (offset 0); in low detail, captures the initial state. */
  async start(): Promise<void> {
    this.#origin = this.clock.now();
    if (this.#controls.recordingDetail === "low") await this.#capture([this.#plain()]);
  }

  async stepStarted(step: TraceStep): Promise<void> {
    this.#open = { id: step.id, start: this.#now(), dropped: false };
    const { recordingDetail, highlightCursor } = this.#controls;
    const pointer = highlightCursor && POINTER_ACTIONS.has(step.action.type);
    const points = pointer && this.#source && this.#redactor ? await this.#source.pointerPoints(step) : [];
    const variants: CursorMarks[] = [];
    if (recordingDetail === "full") variants.push(this.#plain());
    // The pre-action checkpoint: halos where the events land, the cursor at the last of them.
    if (points.length > 0) variants.push({ halos: points, cursor: points[points.length - 1]! });
    if (variants.length > 0) await this.#capture(variants);
    if (points.length > 0) this.#cursor = points[points.length - 1];
  }

  async stepFinished(step: TraceStep, result: FinishedStep): Promise<void> {
    const open = this.#open?.id === step.id ? this.#open : { id: step.id, start: this.#now(), dropped: false };
    this.#open = open;
    if (result.status !== "skipped") {
      this.#completed++;
      const failedNow = result.status === "failed" || result.status === "errored";
      const detail = this.#controls.recordingDetail;
      // full: after every step (the failure frame when it failed); low: every 5th completed step and the failure.
      if (detail === "full" || (detail === "low" && (failedNow || this.#completed % LOW_DETAIL_INTERVAL === 0))) {
        if (await this.#capture([this.#plain()])) this.#afterFrameOf = step.id;
      }
      this.#lastExecuted = step.id;
    }
    const end = Math.max(this.#now(), open.start);
    this.#steps.push({ id: open.id, start_ms: open.start, end_ms: end, ...(open.dropped ? { frames_dropped: "redaction" as const } : {}) });
    this.#open = undefined;
  }

  /** In low detail, captures the final state (unless the last step's frame already shows it); assembles the GIF. */
  async finish(): Promise<RecordingSummary> {
    const finalShown = this.#lastExecuted !== undefined && this.#afterFrameOf === this.#lastExecuted;
    if (this.#controls.recordingDetail === "low" && !finalShown) await this.#capture([this.#plain()]);
    let frames: PersistedFrame[];
    try {
      frames = (await Promise.all(this.#pending)).flat();
    } finally {
      this.#processor.close();
    }
    let gif: string | undefined;
    if (this.#controls.video && frames.length > 0) {
      const bytes = await assembleGif(frames.map((f) => f.offset_ms), (i) => decodePng(readFileSync(join(this.#bundle.root, frames[i]!.file))));
      gif = this.#bundle.writeGif(bytes);
    }
    return { format: RECORDING_FORMAT, frames, steps: [...this.#steps], ...(gif ? { gif } : {}) };
  }

  /** The timeline so far (for traces and reports). */
  get steps(): readonly StepRange[] {
    return this.#steps;
  }

  #plain(): CursorMarks {
    return this.#cursor ? { halos: [], cursor: this.#cursor } : { halos: [] };
  }

  #drop(): void {
    if (this.#open) this.#open.dropped = true;
  }

  /** One raw capture, redacted in memory, then one persisted frame per overlay variant; true when persisted. */
  async #capture(variants: readonly CursorMarks[]): Promise<boolean> {
    if (!this.#capturing || !this.#source) return false;
    this.#afterFrameOf = undefined;
    const redactor = this.#redactor;
    if (!redactor) {
      this.#drop();
      return false;
    }
    const source = this.#source;
    const unresolved = (e: unknown) => redactor.targets.map(() => ({ ok: false as const, detail: e instanceof Error ? e.message : String(e) }));
    const before = await bounded(source.resolve(redactor.targets), "the redaction query").catch(unresolved);
    const offset = this.#now();
    let raw: RawFrame;
    try {
      raw = await bounded(source.capture(), "the frame capture");
    } catch {
      // No pixels came back (the surface was closing, navigating or stuck): nothing to persist or mask.
      return false;
    }
    const after = await bounded(source.resolve(redactor.targets), "the redaction query").catch(unresolved);
    const plan = redactor.masksFor([before, after]);
    if (!plan.ok) {
      this.#drop();
      return false;
    }
    // Masks and overlay are applied to the decoded frame off the step path, before it is encoded.
    const overlay = this.#controls.highlightCursor;
    this.#pending.push(this.#processor.submit({ root: this.#bundle.root, offsetMs: offset, png: raw.png, masks: plan.rects, variants: variants.map((m) => (overlay ? m : undefined)) }));
    return true;
  }
}
