// The OCR worker thread: tesseract.js's own worker script with flowproof's adapter. The WASM core
// is imported here (its module inlines the binary, so a compiled executable carries it), the
// model's bytes come from the parent thread, and any download is refused.
import { parentPort } from "node:worker_threads";
import { gunzipSync } from "node:zlib";
import script from "tesseract.js/src/worker-script/index.js";
import TesseractCore from "tesseract.js-core/tesseract-core-simd-lstm.wasm.js";
import { isModelPacket, isWorkerRequest } from "./protocol.ts";

let model: Uint8Array | undefined;

script.setAdapter({
  getCore: async () => TesseractCore,
  gunzip: gunzipSync,
  fetch: async (url: string) => {
    // A plain Error on purpose: tesseract's worker script sends only its message back, as text.
    throw new Error(`flowproof never downloads OCR data (asked for ${url})`);
  },
  // The model is the only file the worker reads, and it was handed over already.
  readCache: async (path: string) => {
    // A plain Error on purpose: tesseract's worker script sends only its message back, as text.
    if (model === undefined) throw new Error(`no OCR model was handed to the worker (asked for ${path})`);
    return model;
  },
  writeCache: async () => undefined,
  deleteCache: async () => undefined,
  checkCache: async () => false,
});

parentPort?.on("message", (packet: unknown) => {
  if (isModelPacket(packet)) {
    model = packet.payload.model;
    parentPort?.postMessage({ jobId: packet.jobId, action: packet.action, status: "resolve", data: true });
  } else if (isWorkerRequest(packet)) {
    script.dispatchHandlers(packet, (reply) => parentPort?.postMessage(reply));
  }
});
