import { describe, expect, test } from "bun:test";
import type { Session } from "./cdp/connection.ts";
import type { RemoteFiles } from "./downloads.ts";
import { setInputFile } from "./upload.ts";

const LADDER = [{ tier: "text_anchor", provenance: "rules", payload: { text: "Invoice" } }] as const;

/** A session that answers the page API's `fileInput` with `answer` and records every call. */
function session(answer: unknown | Error): { session: Session; calls: [string, unknown][] } {
  const calls: [string, unknown][] = [];
  const send = async (method: string, params: unknown) => {
    calls.push([method, params]);
    if (method === "Runtime.evaluate") {
      if (answer instanceof Error) throw answer;
      return answer;
    }
    return {};
  };
  return { session: { send } as unknown as Session, calls };
}

describe("setInputFile", () => {
  test("puts the file into the input the page API found, and releases the handle", async () => {
    const s = session({ result: { type: "object", objectId: "obj-1" } });
    expect(await setInputFile(s.session, LADDER, "/tmp/invoice.pdf", undefined)).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(s.calls.slice(1)).toEqual([
      ["DOM.setFileInputFiles", { files: ["/tmp/invoice.pdf"], objectId: "obj-1" }],
      ["Runtime.releaseObject", { objectId: "obj-1" }],
    ]);
  });

  test("a remote browser gets the file sent to its machine first, and the input its path there", async () => {
    const s = session({ result: { type: "object", objectId: "obj-2" } });
    const remote = { upload: async (path: string) => `/node/uploads/${path.split("/").at(-1)}` } as unknown as RemoteFiles;
    expect((await setInputFile(s.session, LADDER, "/tmp/invoice.pdf", remote)).ok).toBe(true);
    expect(s.calls[1]).toEqual(["DOM.setFileInputFiles", { files: ["/node/uploads/invoice.pdf"], objectId: "obj-2" }]);
  });

  test("a target that is not a file input is final; one not found yet is retried; a document going away is transient", async () => {
    expect(
      await setInputFile(session({ result: { type: "string", value: '<button> "Invoice" is not a file input' } }).session, LADDER, "/f", undefined),
    ).toEqual({ ok: false, failed: "unsupported", detail: '<button> "Invoice" is not a file input', retryable: false });
    expect(await setInputFile(session({ result: { type: "string", value: 'nothing matches "Invoice"' } }).session, LADDER, "/f", undefined)).toMatchObject({
      ok: false,
      failed: "not-found",
      retryable: true,
    });
    expect(await setInputFile(session(new Error("Execution context was destroyed.")).session, LADDER, "/f", undefined)).toMatchObject({
      ok: false,
      failed: "attached",
    });
    await expect(setInputFile(session(new Error("the browser closed")).session, LADDER, "/f", undefined)).rejects.toThrow("the browser closed");
  });
});
