// The worker thread itself: it answers tesseract's jobs with flowproof's adapter and never downloads.
import { expect, test } from "bun:test";
import { Worker } from "node:worker_threads";
import { workerPath } from "./engine.ts";
import { isWorkerReply, type WorkerReply } from "./protocol.ts";

async function ask(worker: Worker, action: string, payload: unknown): Promise<WorkerReply> {
  const jobId = `t-${action}`;
  return new Promise((resolve) => {
    const on = (reply: unknown) => {
      if (isWorkerReply(reply) && reply.jobId === jobId && reply.status !== "progress") {
        worker.off("message", on);
        resolve(reply);
      }
    };
    worker.on("message", on);
    worker.postMessage({ workerId: "t", jobId, action, payload });
  });
}

test("refuses to download a model, and reads none before one is handed over", async () => {
  const worker = new Worker(workerPath());
  try {
    const remote = await ask(worker, "loadLanguage", { langs: "eng", options: { langPath: "https://cdn.example/tessdata", cacheMethod: "none", gzip: true } });
    expect(remote.status).toBe("reject");
    expect(String(remote.data)).toContain("flowproof never downloads OCR data (asked for https://cdn.example/tessdata/eng.traineddata.gz)");
    const local = await ask(worker, "loadLanguage", { langs: "eng", options: { langPath: "/models", cacheMethod: "none", gzip: true } });
    expect(String(local.data)).toContain("no OCR model was handed to the worker (asked for /models/eng.traineddata.gz)");
    expect(await ask(worker, "flowproof-model", { model: new Uint8Array([1]) })).toMatchObject({ status: "resolve", data: true });
  } finally {
    await worker.terminate();
  }
}, 30_000);
