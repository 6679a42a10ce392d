import { describe, expect, test } from "bun:test";
import { isModelPacket, isWorkerReply, isWorkerRequest } from "./protocol.ts";

describe("OCR worker protocol", () => {
  test("tells jobs, the model packet and replies apart", () => {
    expect(isWorkerRequest({ workerId: "w", jobId: "1", action: "recognize", payload: {} })).toBe(true);
    expect(isWorkerRequest({ jobId: "1", action: "flowproof-model", payload: {} })).toBe(false);
    expect(isModelPacket({ jobId: "1", action: "flowproof-model", payload: { model: new Uint8Array(1) } })).toBe(true);
    expect(isModelPacket({ jobId: "1", action: "flowproof-model", payload: { model: "x" } })).toBe(false);
    expect(isWorkerReply({ jobId: "1", action: "load", status: "resolve", data: 1 })).toBe(true);
    expect(isWorkerReply({ jobId: "1", action: "load", status: "done" })).toBe(false);
    expect(isWorkerReply(null)).toBe(false);
  });
});
