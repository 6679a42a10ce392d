// The messages between the OCR client and its worker thread: tesseract.js's job packets
// ({workerId, jobId, action, payload} out; {jobId, action, status, data} back) plus one of
// flowproof's own, handing the model's bytes over. Pure.

/** A job for the worker. */
export interface WorkerPacket {
  readonly workerId: string;
  readonly jobId: string;
  readonly action: string;
  readonly payload: unknown;
}

/** flowproof's own job: the model's (gzipped) bytes, sent before tesseract's `loadLanguage`. */
export interface ModelPacket extends WorkerPacket {
  readonly action: "flowproof-model";
  readonly payload: { readonly model: Uint8Array };
}

/** The worker's answer to a job: progress (ignored), then resolve or reject. */
export interface WorkerReply {
  readonly jobId: string;
  readonly action: string;
  readonly status: "resolve" | "reject" | "progress";
  readonly data: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** Whether `v` is a job packet for tesseract's worker script. */
export function isWorkerRequest(v: unknown): v is WorkerPacket {
  return isRecord(v) && typeof v["jobId"] === "string" && typeof v["action"] === "string" && v["action"] !== "flowproof-model";
}

/** Whether `v` is flowproof's model packet, with its bytes. */
export function isModelPacket(v: unknown): v is ModelPacket {
  return (
    isRecord(v) && typeof v["jobId"] === "string" && v["action"] === "flowproof-model" && isRecord(v["payload"]) && v["payload"]["model"] instanceof Uint8Array
  );
}

/** Whether `v` is a reply from the worker. */
export function isWorkerReply(v: unknown): v is WorkerReply {
  return (
    isRecord(v) &&
    typeof v["jobId"] === "string" &&
    typeof v["action"] === "string" &&
    (v["status"] === "resolve" || v["status"] === "reject" || v["status"] === "progress")
  );
}
