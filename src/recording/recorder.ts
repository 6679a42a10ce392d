// The RunRecorder: the one clock of an execution and the owner of its visual timeline. The step
// loop only signals step started / finished; the recorder timestamps, captures keyframes per the
// detail level, redacts them in memory, draws the cursor overlay after redaction, persists them
// content-addressed and, with --video, assembles the GIF from the persisted (redacted) frames.
// In full detail one capture between two steps is both the after-frame of the one and the
// before-frame of the next (nothing runs in between), persisted at each step's own offset.
// A frame is captured only when the screen may have changed since the previous capture (the
// source's `changed` signal); otherwise the checkpoint reuses the previous picture: the frame
// already written (redacted) is linked under the new offset's name, so it is the same file.
// A capture is taken off the step path when the source can hold input: the next step's reads
// (its assertions, its polling) run while the frame is read back, and its first call that could
// change the screen waits for the frame, so a frame never shows a later step's input.
import type { TraceStep } from "../trace/schema.ts";
import { FrameBundle, type PersistedFrame } from "./bundle.ts";
import { inlineProcessor, type FrameOutput, type FrameProcessor, type FrameVariant } from "./frame-job.ts";
import { LOW_DETAIL_INTERVAL, RECORDING_FORMAT, resolveControls, type RecordingControls } from "./controls.ts";
import type { CursorMarks, Point } from "./cursor.ts";
import { POINTER_ACTIONS, type FrameSource } from "./frame-source.ts";
import { assembleGifChunks } from "./gif.ts";
import type { RawFrame, Rect } from "../plugins/api.ts";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { parseRedactionRules, Redactor, type SecretSource } from "./redactor.ts";

/** A capture or a rect query that takes longer than this is given up (the frame is not kept). */
const CAPTURE_TIMEOUT_MS = 15_000;

function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FlowproofError({ code: "driver-error", message: `${what} did not answer within ${CAPTURE_TIMEOUT_MS} ms` })),
      CAPTURE_TIMEOUT_MS,
    );
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
  /** Why the first dropped frame of this step could not be masked (never a secret's value). */
  readonly frames_dropped_why?: string;
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
  /** The run's secret values (masked wherever the screen shows them) and how a rule's `${VAR}` resolves. */
  readonly secrets?: SecretSource;
}

/** A capture that may be kept: its offset, the unredacted pixels and the masks they need. */
interface Shot {
  readonly offset: number;
  readonly png: Uint8Array;
  readonly masks: readonly Rect[];
}

/** Why a capture was not kept: its redaction could not be guaranteed. */
interface Dropped {
  readonly dropped: string;
}

/** A capture in flight: its pixels and masks, Dropped when redaction could not be guaranteed, or undefined when no pixels came back. */
type PendingShot = Promise<Shot | Dropped | undefined>;

/** What one capture made: its frame (and GIF image) for one overlay. */
interface Made {
  readonly frame: PersistedFrame;
  readonly gif?: Uint8Array;
}

/** One picture of the screen: a capture, and the frames already written from it, per overlay. A checkpoint at which nothing changed reuses it. */
interface Picture {
  readonly shot: PendingShot;
  /** Overlay (cursor marks as JSON, "null" for none) → the first frame written with it. */
  readonly made: Map<string, Promise<Made | undefined>>;
}

/** A step's timeline entry while the run is going; `dropped` may still be set by a capture in flight. */
interface OpenStep {
  readonly id: string;
  readonly start: number;
  end: number;
  dropped: boolean;
  /** Why its first dropped frame was dropped. */
  why?: string;
}

/** The status a finished step reports to the recorder. */
export interface FinishedStep {
  readonly status: "passed" | "failed" | "skipped" | "errored";
}

/** Marks a step as missing a frame, keeping the first reason. */
function markDropped(step: OpenStep, why: string): void {
  step.dropped = true;
  step.why ??= why;
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
  #open: OpenStep | undefined;
  #completed = 0;
  #cursor: Point | undefined;
  /** The step whose finishing frame is the newest frame, if the newest frame is one. */
  #afterFrameOf: string | undefined;
  #lastExecuted: string | undefined;
  readonly #processor: FrameProcessor;
  /** One entry per capture, in capture order; resolved once its frames are on disk. */
  readonly #pending: Array<Promise<FrameOutput>> = [];
  /** The last step's after-frame, held until the next step starts (and reuses it) or the run ends. */
  #boundary: { picture: Promise<Picture>; frames: FrameVariant[] } | undefined;
  /** The newest picture: what a checkpoint at which nothing changed shows. */
  #last: Promise<Picture> | undefined;
  #lastEnd = -1;
  readonly #steps: OpenStep[] = [];

  constructor(options: RecorderOptions) {
    this.clock = options.clock;
    this.#source = options.source;
    this.#bundle = options.bundle;
    this.#controls = resolveControls(options.controls);
    this.#processor = options.processor ?? inlineProcessor;
    const parsed = parseRedactionRules(options.rules);
    this.#redactor = parsed.ok ? new Redactor(parsed.rules, options.secrets) : undefined;
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
    if (this.#controls.recordingDetail !== "low") return;
    const shot = await this.#capture();
    if (shot) this.#persist(shot.picture, [this.#variant(shot.offset, this.#plain())]);
  }

  async stepStarted(step: TraceStep): Promise<void> {
    const now = this.#now();
    const { recordingDetail, highlightCursor } = this.#controls;
    const pointer = highlightCursor && POINTER_ACTIONS.has(step.action.type);
    const points = pointer && this.#source && this.#redactor ? await this.#source.pointerPoints(step) : [];
    const halo: CursorMarks | undefined = points.length > 0 ? { halos: points, cursor: points[points.length - 1]! } : undefined;
    const boundary = this.#boundary;
    if (recordingDetail === "full" && boundary) {
      // Nothing ran since the previous step's after-frame was taken: that capture is this step's
      // before-frame (and pre-action checkpoint) too, placed at this step's start.
      const start = Math.max(now, this.#lastEnd + 1);
      const open: OpenStep = { id: step.id, start, end: start, dropped: false };
      this.#open = open;
      // A frame dropped for redaction is missing from both steps it serves.
      void boundary.picture.then(async (picture) => {
        const shot = await picture.shot;
        if (shot && "dropped" in shot) markDropped(open, shot.dropped);
      });
      boundary.frames.push(this.#variant(start, this.#plain()));
      if (halo) boundary.frames.push(this.#variant(start, halo));
      this.#flush();
    } else {
      this.#flush();
      this.#open = { id: step.id, start: now, end: now, dropped: false };
      const variants: CursorMarks[] = [];
      if (recordingDetail === "full") variants.push(this.#plain());
      // The pre-action checkpoint: halos where the events land, the cursor at the last of them.
      if (halo) variants.push(halo);
      if (variants.length > 0) {
        const shot = await this.#capture();
        if (shot)
          this.#persist(
            shot.picture,
            variants.map((m) => this.#variant(shot.offset, m)),
          );
      }
    }
    if (halo) this.#cursor = halo.cursor;
  }

  async stepFinished(step: TraceStep, result: FinishedStep): Promise<void> {
    let open = this.#open;
    if (open?.id !== step.id) {
      const start = Math.max(this.#now(), this.#lastEnd + 1);
      open = { id: step.id, start, end: start, dropped: false };
    }
    this.#open = open;
    if (result.status !== "skipped") {
      this.#completed++;
      const failedNow = result.status === "failed" || result.status === "errored";
      const detail = this.#controls.recordingDetail;
      // full: after every step (the failure frame when it failed); low: every 5th completed step and the failure.
      if (detail === "full" || (detail === "low" && (failedNow || this.#completed % LOW_DETAIL_INTERVAL === 0))) {
        this.#flush();
        const shot = await this.#capture();
        if (shot) {
          const frames = [this.#variant(shot.offset, this.#plain())];
          // In full detail the next step may reuse this capture as its before-frame.
          if (detail === "full") this.#boundary = { picture: shot.picture, frames };
          else this.#persist(shot.picture, frames);
          this.#afterFrameOf = step.id;
        }
      }
      this.#lastExecuted = step.id;
    }
    open.end = Math.max(this.#now(), open.start);
    this.#lastEnd = open.end;
    this.#steps.push(open);
    this.#open = undefined;
  }

  /** In low detail, captures the final state (unless the last step's frame already shows it); assembles the GIF. */
  async finish(): Promise<RecordingSummary> {
    this.#flush();
    const finalShown = this.#lastExecuted !== undefined && this.#afterFrameOf === this.#lastExecuted;
    if (this.#controls.recordingDetail === "low" && !finalShown) {
      const shot = await this.#capture();
      if (shot) this.#persist(shot.picture, [this.#variant(shot.offset, this.#plain())]);
    }
    let outputs: FrameOutput[];
    try {
      outputs = await Promise.all(this.#pending);
    } finally {
      this.#processor.close();
    }
    const made = outputs.flatMap((o) => o.frames.map((frame, i) => ({ frame, gif: o.gif?.[i] })));
    made.sort((a, b) => a.frame.offset_ms - b.frame.offset_ms);
    const frames = made.map((m) => m.frame);
    let gif: string | undefined;
    if (this.#controls.video && frames.length > 0) {
      // Every job of a --video run carries `gif: true`, so each frame came back with its GIF image.
      const chunks = made.map((m) => m.gif!);
      gif = this.#bundle.writeGif(
        assembleGifChunks(
          frames.map((f) => f.offset_ms),
          chunks,
        ),
      );
    }
    return { format: RECORDING_FORMAT, frames, steps: this.steps, ...(gif ? { gif } : {}) };
  }

  /** The timeline so far (for traces and reports); final once `finish` has returned. */
  get steps(): readonly StepRange[] {
    return this.#steps.map((s) => ({
      id: s.id,
      start_ms: s.start,
      end_ms: s.end,
      ...(s.dropped ? { frames_dropped: "redaction" as const, ...(s.why ? { frames_dropped_why: s.why } : {}) } : {}),
    }));
  }

  #plain(): CursorMarks {
    return this.#cursor ? { halos: [], cursor: this.#cursor } : { halos: [] };
  }

  /** A timeline frame of a capture; the overlay only with --highlight-cursor. */
  #variant(offsetMs: number, marks: CursorMarks): FrameVariant {
    return { offsetMs, marks: this.#controls.highlightCursor ? marks : undefined };
  }

  /** Hands a capture to the frame processor once it is in: masked, overlaid, encoded and written off the step path. */
  #persist(picture: Promise<Picture>, frames: readonly FrameVariant[]): void {
    const job = picture.then((p) => this.#render(p, frames));
    // `finish` reports the first failed job; the others (a full disk fails them all) must not
    // surface as unhandled rejections with stack traces.
    job.catch(() => undefined);
    this.#pending.push(job);
  }

  /**
   * The picture's frames at these offsets. Each overlay is masked, drawn and encoded once per
   * picture (one job for the overlays not made yet); every other frame with the same overlay is
   * the file already written, linked under its own offset's name.
   */
  #render(picture: Picture, variants: readonly FrameVariant[]): Promise<FrameOutput> {
    const keys = variants.map((v) => JSON.stringify(v.marks ?? null));
    const fresh: FrameVariant[] = [];
    const freshKeys: string[] = [];
    keys.forEach((key, i) => {
      if (picture.made.has(key) || freshKeys.includes(key)) return;
      freshKeys.push(key);
      fresh.push(variants[i]!);
    });
    if (fresh.length > 0) {
      const job = picture.shot.then((shot) =>
        shot && !("dropped" in shot)
          ? this.#processor.submit({ root: this.#bundle.root, png: shot.png, masks: shot.masks, frames: fresh, gif: this.#controls.video })
          : undefined,
      );
      freshKeys.forEach((key, j) => {
        const made = job.then((out): Made | undefined => (out ? { frame: out.frames[j]!, ...(out.gif ? { gif: out.gif[j]! } : {}) } : undefined));
        made.catch(() => undefined);
        picture.made.set(key, made);
      });
    }
    return Promise.all(
      variants.map(async (v, i): Promise<Made | undefined> => {
        const made = await picture.made.get(keys[i]!)!;
        if (!made || made.frame.offset_ms === v.offsetMs) return made;
        return { frame: this.#bundle.linkFrame(v.offsetMs, made.frame.file), ...(made.gif ? { gif: made.gif } : {}) };
      }),
    ).then((all) => {
      const kept = all.filter((m): m is Made => m !== undefined);
      return this.#controls.video ? { frames: kept.map((m) => m.frame), gif: kept.map((m) => m.gif!) } : { frames: kept.map((m) => m.frame) };
    });
  }

  /** Persists the held after-frame when no next step took it as its before-frame. */
  #flush(): void {
    const boundary = this.#boundary;
    this.#boundary = undefined;
    if (boundary) this.#persist(boundary.picture, boundary.frames);
  }

  /**
   * A checkpoint at this instant's offset: the newest picture when the screen has not changed
   * since it was captured, else a new capture with the masks it needs. The step path waits for it
   * only when the source cannot hold input meanwhile. Undefined when nothing may be captured.
   */
  async #capture(): Promise<{ offset: number; picture: Promise<Picture> } | undefined> {
    if (!this.#capturing || !this.#source) return undefined;
    const source = this.#source;
    this.#afterFrameOf = undefined;
    const open = this.#open;
    const offset = this.#now();
    const previous = this.#last;
    const picture = (async (): Promise<Picture> => {
      // Looks go one at a time, in checkpoint order. A look clears the signal before its capture
      // starts, so whatever changes from then on (even while the pixels are read back) is in the
      // next look; a reused picture shares the previous capture's fate (a dropped frame stays
      // dropped: nothing changed that could make its masks resolve).
      const prior = previous !== undefined ? await previous.catch(() => undefined) : undefined;
      const changed = source.changed ? await source.changed() : true;
      if (prior && !changed) return prior;
      return { shot: this.#shoot(source, offset), made: new Map() };
    })();
    this.#last = picture;
    const pending = picture.then(async (p) => {
      const shot = await p.shot;
      if (shot && "dropped" in shot && open) markDropped(open, shot.dropped);
      return shot;
    });
    if (!source.hold?.(pending)) await pending;
    return { offset, picture };
  }

  /** Redaction targets as the capture starts, the pixels, the targets after: a frame is kept only when both answers allow it. */
  async #shoot(source: FrameSource, offset: number): PendingShot {
    const redactor = this.#redactor;
    if (!redactor) return { dropped: `the redaction rules cannot be applied: ${this.disabledReason ?? "unknown"}` };
    // One list of targets for both queries: the run's secrets as they are when the capture starts.
    const planned = redactor.targetsNow();
    if (!planned.ok) return { dropped: planned.detail };
    const targets = planned.targets;
    const unresolved = (e: unknown) => targets.map(() => ({ ok: false as const, detail: e instanceof Error ? e.message : String(e) }));
    // The first rect query and the capture go out together: the query runs in the page as the
    // capture starts, and nothing that could move an element runs before either answers.
    const beforeQuery = bounded(source.resolve(targets), "the redaction query").catch(unresolved);
    // A surface that cannot give frames may throw at once (an api surface of a multi-surface flow).
    const capture = bounded((async () => source.capture())(), "the frame capture");
    capture.catch(() => undefined);
    const before = await beforeQuery;
    let raw: RawFrame;
    try {
      raw = await capture;
    } catch {
      // No pixels came back (the surface was closing, navigating or stuck): nothing to persist or mask.
      return undefined;
    }
    const after = await bounded(source.resolve(targets), "the redaction query").catch(unresolved);
    const plan = redactor.masksFor([before, after], targets);
    return plan.ok ? { offset, png: raw.png, masks: plan.rects } : { dropped: plan.detail };
  }
}
