// The frame worker: runs frame jobs (decode → mask → overlay → encode → write) off the step path.
// `workerProcessor()` is the parent side; the `self.onmessage` block is the worker side.
import { inlineProcessor, processFrame, type FrameJob, type FrameProcessor } from "./frame-job.ts";
import type { PersistedFrame } from "./bundle.ts";

type Reply = { readonly id: number; readonly frames: PersistedFrame[] } | { readonly id: number; readonly error: string };

declare const self: { onmessage: ((e: MessageEvent<{ id: number; job: FrameJob }>) => void) | null; postMessage(m: Reply): void } | undefined;

const IS_WORKER = typeof Bun !== "undefined" && !Bun.isMainThread;

if (IS_WORKER && self) {
  self.onmessage = (e) => {
    const { id, job } = e.data;
    try {
      self.postMessage({ id, frames: processFrame(job) });
    } catch (error) {
      self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  };
}

/** A processor backed by one worker thread; falls back to inline processing when no worker can start. */
export function workerProcessor(): FrameProcessor {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./frame-worker.ts", import.meta.url).href);
  } catch {
    // Workers are unavailable in this runtime (e.g. some compiled builds): same work, on this thread.
    return inlineProcessor;
  }
  let next = 0;
  const waiting = new Map<number, { resolve(f: PersistedFrame[]): void; reject(e: Error): void }>();
  worker.onmessage = (e: MessageEvent<Reply>) => {
    const w = waiting.get(e.data.id);
    if (!w) return;
    waiting.delete(e.data.id);
    if ("error" in e.data) w.reject(new Error(`could not write a recording frame: ${e.data.error}`));
    else w.resolve(e.data.frames);
  };
  worker.onerror = (e) => {
    for (const w of waiting.values()) w.reject(new Error(`the frame worker stopped: ${e.message}`));
    waiting.clear();
  };
  return {
    submit(job) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        // Transfer a buffer that holds exactly the PNG (a pooled Buffer may share its ArrayBuffer).
        const png = job.png.byteOffset === 0 && job.png.byteLength === job.png.buffer.byteLength ? job.png : job.png.slice();
        worker.postMessage({ id, job: { ...job, png } }, [png.buffer as ArrayBuffer]);
      });
    },
    close: () => worker.terminate(),
  };
}
