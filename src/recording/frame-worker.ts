// The frame worker: runs frame jobs (decode → mask → overlay → encode → write) off the step path.
// `workerProcessor()` is the parent side; the `self.onmessage` block is the worker side.
import { inlineProcessor, processFrame, type FrameJob, type FrameOutput, type FrameProcessor } from "./frame-job.ts";
import { FlowproofError, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { OutputError } from "../diagnostics/atomic-write.ts";

/** A failed job's reply carries its diagnostics when it had them (an io-error keeps its hint across the thread). */
type Reply =
  | { readonly id: number; readonly output: FrameOutput }
  | { readonly id: number; readonly error: string; readonly diagnostics?: readonly Diagnostic[] };

declare const self: { onmessage: ((e: MessageEvent<{ id: number; job: FrameJob }>) => void) | null; postMessage(m: Reply): void } | undefined;

const IS_WORKER = typeof Bun !== "undefined" && !Bun.isMainThread;

if (IS_WORKER && self) {
  self.onmessage = (e) => {
    const { id, job } = e.data;
    try {
      self.postMessage({ id, output: processFrame(job) });
    } catch (error) {
      self.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
        ...(error instanceof FlowproofError ? { diagnostics: error.diagnostics } : {}),
      });
    }
  };
}

/** A processor backed by one worker thread; falls back to inline processing when no worker can start. */
export function workerProcessor(workerUrl: string = new URL("./frame-worker.ts", import.meta.url).href): FrameProcessor {
  let worker: Worker;
  try {
    worker = new Worker(workerUrl);
  } catch {
    // Workers are unavailable in this runtime (e.g. some compiled builds): same work, on this thread.
    return inlineProcessor;
  }
  let next = 0;
  let dead = false;
  const waiting = new Map<number, { job: FrameJob; resolve(f: FrameOutput): void; reject(e: Error): void }>();
  const inline = (w: { job: FrameJob; resolve(f: FrameOutput): void; reject(e: Error): void }) => inlineProcessor.submit(w.job).then(w.resolve, w.reject);
  worker.onmessage = (e: MessageEvent<Reply>) => {
    const w = waiting.get(e.data.id);
    if (!w) return;
    waiting.delete(e.data.id);
    if ("error" in e.data)
      w.reject(
        e.data.diagnostics
          ? new OutputError(e.data.diagnostics)
          : new OutputError({ code: "io-error", message: `could not write a recording frame: ${e.data.error}` }),
      );
    else w.resolve(e.data.output);
  };
  worker.onerror = () => {
    // The worker could not run (e.g. its module is missing from a compiled build): every job,
    // queued or later, runs on this thread instead. Jobs are copied, not transferred, for this.
    dead = true;
    for (const w of waiting.values()) void inline(w);
    waiting.clear();
  };
  return {
    submit(job) {
      return new Promise((resolve, reject) => {
        if (dead) return void inline({ job, resolve, reject });
        const id = next++;
        waiting.set(id, { job, resolve, reject });
        worker.postMessage({ id, job });
      });
    },
    close: () => worker.terminate(),
  };
}
