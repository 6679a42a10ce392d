import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RectTarget, RectsAnswer } from "../plugins/api.ts";
import type { TraceStep } from "../trace/schema.ts";
import { FrameBundle } from "./bundle.ts";
import type { RecordingControls } from "./controls.ts";
import type { FrameSource } from "./frame-source.ts";
import { decodePng, encodePng, isUniform, solidImage } from "./image.ts";
import type { RawFrame } from "../plugins/api.ts";
import { RunRecorder, type RecorderClock, type RecordingSummary } from "./recorder.ts";
import { HALO_RGB } from "./cursor.ts";

/** A deterministic clock: every reading advances it by a fixed step. */
function tickingClock(stepMs = 7): RecorderClock {
  let t = 1000;
  return {
    now: () => (t += stepMs),
    sleep: async (ms) => {
      t += ms;
    },
  };
}

/** Deterministic frames: frame n is a solid colour n; rects answered from a table per css. */
function fakeSource(options: { rects?: Record<string, RectsAnswer>; points?: { x: number; y: number }[] } = {}): FrameSource & { captures: number } {
  const src = {
    captures: 0,
    async capture(): Promise<RawFrame> {
      src.captures++;
      return { png: encodePng(solidImage(64, 40, [src.captures, 200, 100])) };
    },
    async resolve(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
      return targets.map(
        (t) => ("css" in t ? options.rects?.[t.css] : "passwordFields" in t ? options.rects?.["input[type=password i]"] : undefined) ?? { ok: true, rects: [] },
      );
    },
    async pointerPoints(): Promise<{ x: number; y: number }[]> {
      return options.points ?? [];
    },
  };
  return src;
}

const step = (n: number, type: TraceStep["action"]["type"] = "type_text"): TraceStep => ({
  id: `s${String(n).padStart(4, "0")}`,
  intent: `step ${n}`,
  action: { type, params: {} } as TraceStep["action"],
  selectors: [],
  sync: { pre: [], post: [] },
  artifacts: {},
});

let root = "";
/** Every bundle root a test made (some make two): all removed after it. */
const roots: string[] = [];
const newRoot = () => {
  root = mkdtempSync(join(tmpdir(), "flowproof-recorder-"));
  roots.push(root);
  return root;
};
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function record(
  statuses: Array<"passed" | "failed" | "skipped" | "errored">,
  controls: RecordingControls,
  source: FrameSource | null = fakeSource(),
  rules: unknown[] = [],
  types?: Array<TraceStep["action"]["type"]>,
): Promise<RecordingSummary> {
  newRoot();
  const recorder = new RunRecorder({ source: source ?? undefined, bundle: new FrameBundle(root), clock: tickingClock(), controls, rules });
  await recorder.start();
  for (const [i, status] of statuses.entries()) {
    const s = step(i + 1, types?.[i]);
    if (status !== "skipped") await recorder.stepStarted(s);
    await recorder.stepFinished(s, { status });
  }
  return recorder.finish();
}

function framesIn(summary: RecordingSummary, range: { start_ms: number; end_ms: number }) {
  return summary.frames.filter((f) => f.offset_ms >= range.start_ms && f.offset_ms <= range.end_ms);
}

describe("RunRecorder timeline", () => {
  test("full: every step's range brackets exactly its before and after frames; ranges are monotonic and non-overlapping", async () => {
    const source = fakeSource();
    const summary = await record(["passed", "passed", "passed", "failed", "skipped"], { recordingDetail: "full" }, source);
    expect(summary.format).toBe("filmstrip/1");
    expect(summary.steps.map((s) => s.id)).toEqual(["s0001", "s0002", "s0003", "s0004", "s0005"]);
    for (const [i, s] of summary.steps.entries()) {
      expect(s.end_ms).toBeGreaterThanOrEqual(s.start_ms);
      const prev = summary.steps[i - 1];
      if (prev) expect(s.start_ms).toBeGreaterThan(prev.end_ms);
    }
    expect(summary.steps.slice(0, 4).map((s) => framesIn(summary, s).length)).toEqual([2, 2, 2, 2]);
    // One capture between two steps serves as the after-frame of one and the before-frame of the next.
    expect(source.captures).toBe(5);
    const [after1, before2] = [framesIn(summary, summary.steps[0]!)[1]!, framesIn(summary, summary.steps[1]!)[0]!];
    expect(after1.file.slice(-12)).toBe(before2.file.slice(-12));
    expect(after1.offset_ms).toBeLessThan(before2.offset_ms);
    expect(framesIn(summary, summary.steps[4]!)).toEqual([]);
    // Every frame lies in exactly one step's range.
    for (const f of summary.frames) expect(summary.steps.filter((s) => f.offset_ms >= s.start_ms && f.offset_ms <= s.end_ms).length).toBe(1);
    const offsets = summary.frames.map((f) => f.offset_ms);
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
  });

  test("low: the initial state, every 5th completed step, the failure and the final state", async () => {
    const summary = await record(Array(12).fill("passed"), { recordingDetail: "low" });
    const s = summary.steps;
    expect(summary.frames.length).toBe(4);
    expect(summary.frames[0]!.offset_ms).toBeLessThan(s[0]!.start_ms);
    expect(framesIn(summary, s[4]!).length).toBe(1);
    expect(framesIn(summary, s[9]!).length).toBe(1);
    expect(summary.frames[3]!.offset_ms).toBeGreaterThan(s[11]!.end_ms);
    const failing = await record(["passed", "passed", "failed", "skipped"], { recordingDetail: "low" });
    // Initial + the failure frame, which is also the final state.
    expect(failing.frames.length).toBe(2);
    expect(framesIn(failing, failing.steps[2]!).length).toBe(1);
  });

  test("low: a 5th step that ends the flow is not captured twice", async () => {
    const summary = await record(Array(5).fill("passed"), { recordingDetail: "low" });
    expect(summary.frames.length).toBe(2);
  });

  test("off: no frames and no captures, but the same timeline", async () => {
    const source = fakeSource();
    const summary = await record(["passed", "failed"], { recordingDetail: "off", video: true, highlightCursor: true }, source);
    expect(summary.frames).toEqual([]);
    expect(summary.gif).toBeUndefined();
    expect(source.captures).toBe(0);
    expect(summary.steps.map((s) => s.id)).toEqual(["s0001", "s0002"]);
  });

  test("a surface without frames still gets a timeline", async () => {
    const summary = await record(["passed"], { recordingDetail: "full" }, null);
    expect(summary.frames).toEqual([]);
    expect(summary.steps.length).toBe(1);
  });
});

describe("RunRecorder redaction", () => {
  test("masks password fields and css rules in every persisted frame", async () => {
    const source = fakeSource({
      rects: {
        "input[type=password i]": { ok: true, rects: [{ x: 2, y: 2, width: 10, height: 5 }] },
        "#ssn": { ok: true, rects: [{ x: 30, y: 10, width: 20, height: 8 }] },
      },
    });
    const summary = await record(["passed", "passed"], { recordingDetail: "full" }, source, [
      { target: { css: "#ssn" }, mode: "mask" },
      { target: { rect: [0, 30, 64, 10] }, mode: "mask" },
    ]);
    expect(summary.frames.length).toBe(4);
    for (const f of summary.frames) {
      const img = decodePng(readFileSync(join(root, f.file)));
      expect(isUniform(img, { x: 2, y: 2, width: 10, height: 5 }, [0, 0, 0])).toBe(true);
      expect(isUniform(img, { x: 30, y: 10, width: 20, height: 8 }, [0, 0, 0])).toBe(true);
      expect(isUniform(img, { x: 0, y: 30, width: 64, height: 10 }, [0, 0, 0])).toBe(true);
      expect(isUniform(img, { x: 14, y: 2, width: 10, height: 5 }, [0, 0, 0])).toBe(false);
    }
  });

  test("fails closed: a rule that cannot resolve drops the frames and marks the step", async () => {
    const source = fakeSource({ rects: { "#ssn[": { ok: false, detail: "not a valid selector" } } });
    const summary = await record(["passed", "passed"], { recordingDetail: "full" }, source, [{ target: { css: "#ssn[" }, mode: "mask" }]);
    expect(summary.frames).toEqual([]);
    expect(summary.steps.map((s) => s.frames_dropped)).toEqual(["redaction", "redaction"]);
    expect(readdirSync(root)).toEqual([]);
  });

  test("masks every place the screen shows a secret of the run, read as each frame is taken; a failed lookup drops the frame and says why", async () => {
    const values: string[] = [];
    const asked: RectTarget[][] = [];
    const shown = (answer: RectsAnswer): FrameSource => ({
      ...fakeSource(),
      async resolve(targets) {
        asked.push([...targets]);
        return targets.map((t) => ("secretText" in t ? answer : { ok: true, rects: [] }));
      },
    });
    const secrets = { values: () => values, resolve: (t: string) => t };
    newRoot();
    let recorder = new RunRecorder({
      source: shown({ ok: true, rects: [{ x: 2, y: 3, width: 20, height: 10 }] }),
      bundle: new FrameBundle(root),
      clock: tickingClock(),
      controls: { recordingDetail: "full" },
      rules: [],
      secrets,
    });
    await recorder.stepStarted(step(1));
    values.push("Pw-1234-x");
    await recorder.stepFinished(step(1), { status: "passed" });
    const kept = await recorder.finish();
    expect(asked.map((targets) => targets.some((t) => "secretText" in t))).toEqual([false, false, true, true]);
    expect(asked[2]!.at(-1)).toEqual({ secretText: ["Pw-1234-x"] });
    const after = decodePng(readFileSync(join(root, kept.frames.at(-1)!.file)));
    expect(isUniform(after, { x: 2, y: 3, width: 20, height: 10 }, [0, 0, 0])).toBe(true);
    newRoot();
    recorder = new RunRecorder({
      source: shown({ ok: false, detail: "the page script failed" }),
      bundle: new FrameBundle(root),
      clock: tickingClock(),
      controls: { recordingDetail: "full" },
      rules: [],
      secrets,
    });
    await recorder.stepStarted(step(1));
    await recorder.stepFinished(step(1), { status: "passed" });
    const dropped = await recorder.finish();
    expect(dropped.frames).toEqual([]);
    expect(dropped.steps[0]).toMatchObject({ frames_dropped: "redaction", frames_dropped_why: "a secret the screen shows: the page script failed" });
  });

  test("an unparseable recorded rule captures no frames at all", async () => {
    const source = fakeSource();
    const summary = await record(["passed"], { recordingDetail: "full", video: true }, source, [{ target: { automation_id: "Pin" }, mode: "mask" }]);
    expect(source.captures).toBe(0);
    expect(summary.frames).toEqual([]);
    expect(summary.steps[0]!.frames_dropped).toBe("redaction");
  });
});

describe("RunRecorder cursor and video", () => {
  test("--highlight-cursor adds a pre-action checkpoint with a halo, and later frames keep the cursor", async () => {
    const source = fakeSource({ points: [{ x: 32, y: 20 }] });
    const summary = await record(["passed", "passed"], { recordingDetail: "full", highlightCursor: true }, source, [], ["click", "type_text"]);
    // s0001: before, checkpoint, after; s0002: before (the same capture as s0001's after), after.
    expect(framesIn(summary, summary.steps[0]!).length).toBe(3);
    expect(framesIn(summary, summary.steps[1]!).length).toBe(2);
    expect(source.captures).toBe(3);
    const checkpoint = decodePng(readFileSync(join(root, summary.frames[1]!.file)));
    expect(isUniform(checkpoint, { x: 32 + 25, y: 20, width: 1, height: 1 }, HALO_RGB)).toBe(true);
    const later = decodePng(readFileSync(join(root, summary.frames[3]!.file)));
    expect(isUniform(later, { x: 34, y: 30, width: 1, height: 1 }, [255, 255, 255])).toBe(true);
    expect(isUniform(later, { x: 32 + 25, y: 20, width: 1, height: 1 }, HALO_RGB)).toBe(false);
  });

  test("low keeps pointer checkpoints", async () => {
    const source = fakeSource({ points: [{ x: 10, y: 10 }] });
    const summary = await record(["passed", "passed"], { recordingDetail: "low", highlightCursor: true }, source, [], ["hover", "type_text"]);
    expect(framesIn(summary, summary.steps[0]!).length).toBe(1);
  });

  test("the cursor is drawn after redaction, over the mask", async () => {
    const source = fakeSource({
      rects: { "input[type=password i]": { ok: true, rects: [{ x: 0, y: 0, width: 64, height: 40 }] } },
      points: [{ x: 20, y: 10 }],
    });
    const summary = await record(["passed"], { recordingDetail: "low", highlightCursor: true }, source, [], ["click"]);
    const checkpoint = decodePng(readFileSync(join(root, summary.frames[1]!.file)));
    expect(isUniform(checkpoint, { x: 22, y: 20, width: 1, height: 1 }, [255, 255, 255])).toBe(true);
    expect(isUniform(checkpoint, { x: 60, y: 38, width: 2, height: 2 }, [0, 0, 0])).toBe(true);
  });

  test("--video assembles recording.gif from the persisted frames, also in low detail", async () => {
    const summary = await record(["passed", "passed"], { recordingDetail: "low", video: true });
    expect(summary.gif).toBe("recording.gif");
    expect(new TextDecoder().decode(readFileSync(join(root, "recording.gif")).subarray(0, 6))).toBe("GIF89a");
  });
});

describe("RunRecorder with a source that holds input", () => {
  /** Captures answer only when released; `hold` records what the driver was told to wait for. */
  function slowSource(rects: Record<string, RectsAnswer> = {}) {
    const base = fakeSource({ rects });
    const waiting: Array<() => void> = [];
    const holds: Array<Promise<unknown>> = [];
    const source: FrameSource = {
      ...base,
      capture: () => new Promise<RawFrame>((resolve) => waiting.push(() => resolve(base.capture()))),
      hold: (until) => {
        holds.push(until);
        return true;
      },
    };
    return { source, waiting, holds, release: () => waiting.splice(0).forEach((go) => go()) };
  }

  test("the step path does not wait for a capture; input is held on it and the frames land at their offsets", async () => {
    newRoot();
    const slow = slowSource();
    const recorder = new RunRecorder({
      source: slow.source,
      bundle: new FrameBundle(root),
      clock: tickingClock(),
      controls: { recordingDetail: "full" },
      rules: [],
    });
    await recorder.start();
    await recorder.stepStarted(step(1));
    await recorder.stepFinished(step(1), { status: "passed" });
    await recorder.stepStarted(step(2));
    await recorder.stepFinished(step(2), { status: "passed" });
    // Three captures requested (before 1, between 1 and 2, after 2); none answered yet.
    await Bun.sleep(5);
    expect(slow.holds.length).toBe(3);
    let held = false;
    void Promise.all(slow.holds).then(() => (held = true));
    await Bun.sleep(5);
    expect(held).toBe(false);
    const finished = recorder.finish();
    await Bun.sleep(5);
    slow.release();
    await Bun.sleep(5);
    slow.release();
    const summary = await finished;
    expect(held).toBe(true);
    expect(summary.frames.length).toBe(4);
    for (const range of summary.steps) expect(framesIn(summary, range).length).toBe(2);
  });

  test("a frame dropped after its steps finished still marks both steps it served", async () => {
    newRoot();
    const slow = slowSource({ "#ssn[": { ok: false, detail: "not a valid selector" } });
    const recorder = new RunRecorder({
      source: slow.source,
      bundle: new FrameBundle(root),
      clock: tickingClock(),
      controls: { recordingDetail: "full" },
      rules: [{ target: { css: "#ssn[" }, mode: "mask" }],
    });
    await recorder.start();
    await recorder.stepStarted(step(1));
    await recorder.stepFinished(step(1), { status: "passed" });
    await recorder.stepStarted(step(2));
    await recorder.stepFinished(step(2), { status: "passed" });
    expect(recorder.steps.map((s) => s.frames_dropped)).toEqual([undefined, undefined]);
    const finished = recorder.finish();
    for (let i = 0; i < 4; i++) {
      await Bun.sleep(2);
      slow.release();
    }
    const summary = await finished;
    expect(summary.frames).toEqual([]);
    expect(summary.steps.map((s) => s.frames_dropped)).toEqual(["redaction", "redaction"]);
  });
});

describe("RunRecorder with a source that cannot give a frame now", () => {
  test("a capture that throws at once keeps no frame and does not fail the step", async () => {
    const source: FrameSource = {
      ...fakeSource(),
      capture: () => {
        throw new Error("surface `backend` cannot captureFrame");
      },
    };
    const summary = await record(["passed", "passed"], { recordingDetail: "full" }, source);
    expect(summary.frames).toEqual([]);
    expect(summary.steps.map((s) => s.frames_dropped)).toEqual([undefined, undefined]);
  });
});

describe("RunRecorder reusing a picture when the screen did not change", () => {
  /** fakeSource plus a scripted `changed` signal: one answer per look, in order (true once they run out). */
  function lookingSource(answers: boolean[], options: Parameters<typeof fakeSource>[0] = {}) {
    const base = fakeSource(options);
    const looks: boolean[] = [];
    const source = Object.assign(base, {
      changed: async () => {
        const a = answers.shift() ?? true;
        looks.push(a);
        return a;
      },
    });
    return { source, looks };
  }
  const inode = (file: string) => statSync(join(root, file)).ino;

  test("a step that changed nothing shows the previous capture: the same file under its own offset, no new capture", async () => {
    // looks: before step 1 (first), after step 1 (changed), after step 2 (unchanged), after step 3 (changed)
    const { source, looks } = lookingSource([true, true, false, true]);
    const summary = await record(["passed", "passed", "passed"], { recordingDetail: "full" }, source);
    expect(looks.length).toBe(4);
    expect(source.captures).toBe(3);
    const [one, two, three] = summary.steps.map((r) => framesIn(summary, r));
    expect([one!.length, two!.length, three!.length]).toEqual([2, 2, 2]);
    // Step 2's before- and after-frames are the one picture taken after step 1: one file.
    expect(inode(two![0]!.file)).toBe(inode(one![1]!.file));
    expect(inode(two![1]!.file)).toBe(inode(two![0]!.file));
    expect(two![1]!.file).not.toBe(two![0]!.file);
    expect(two![1]!.offset_ms).toBeGreaterThanOrEqual(summary.steps[1]!.start_ms);
    expect(two![1]!.offset_ms).toBeLessThanOrEqual(summary.steps[1]!.end_ms);
    // Step 3 changed the screen: its after-frame is a new capture.
    expect(inode(three![1]!.file)).not.toBe(inode(three![0]!.file));
    expect(decodePng(readFileSync(join(root, three![1]!.file))).data[0]).toBe(3);
  });

  test("without a signal, or when it says changed, every checkpoint is captured", async () => {
    const bare = fakeSource();
    await record(["passed", "passed", "passed"], { recordingDetail: "full" }, bare);
    expect(bare.captures).toBe(4);
    const { source } = lookingSource([true, true, true, true]);
    await record(["passed", "passed", "passed"], { recordingDetail: "full" }, source);
    expect(source.captures).toBe(4);
  });

  test("a reused picture keeps its masks, and a dropped one stays dropped", async () => {
    const masked = lookingSource([true, false, false], { rects: { "#ssn": { ok: true, rects: [{ x: 0, y: 0, width: 10, height: 10 }] } } });
    const summary = await record(["passed", "passed"], { recordingDetail: "full" }, masked.source, [{ target: { css: "#ssn" }, mode: "mask" }]);
    expect(masked.source.captures).toBe(1);
    expect(summary.frames.length).toBe(4);
    for (const f of summary.frames) expect(isUniform(decodePng(readFileSync(join(root, f.file))), { x: 0, y: 0, width: 10, height: 10 }, [0, 0, 0])).toBe(true);
    const broken = lookingSource([true, false, false], { rects: { "#ssn[": { ok: false, detail: "not a valid selector" } } });
    const dropped = await record(["passed", "passed"], { recordingDetail: "full" }, broken.source, [{ target: { css: "#ssn[" }, mode: "mask" }]);
    expect(dropped.frames).toEqual([]);
    expect(dropped.steps.map((s) => s.frames_dropped)).toEqual(["redaction", "redaction"]);
  });

  test("a reused picture with another overlay is drawn again from its pixels (cursor halo), not captured again", async () => {
    const { source } = lookingSource([true, false, false, false], { points: [{ x: 20, y: 20 }] });
    const summary = await record(["passed", "passed"], { recordingDetail: "full", highlightCursor: true }, source, [], ["click", "click"]);
    expect(source.captures).toBe(1);
    const halo = summary.frames.filter((f) => {
      const { data } = decodePng(readFileSync(join(root, f.file)));
      for (let k = 0; k < data.length; k += 4) if (data[k] === HALO_RGB[0] && data[k + 1] === HALO_RGB[1] && data[k + 2] === HALO_RGB[2]) return true;
      return false;
    });
    // Each click's pointer checkpoint carries its halo, though both show the first capture.
    expect(halo.length).toBe(2);
    expect(new Set(summary.frames.map((f) => decodePng(readFileSync(join(root, f.file))).data[0])).size).toBe(1);
  });
});
