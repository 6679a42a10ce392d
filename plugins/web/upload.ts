// Upload: the file input a ladder names gets the file, through DOM.setFileInputFiles. The page API
// finds the input (a label, a drop zone's own input, or the input itself); a remote browser (a grid
// node) reads the file on its own machine, so it is sent there first.
import type { Attempt, Selector } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import type { RemoteFiles } from "./downloads.ts";
import { NAVIGATING, fail, isTransient, ok, toRungs } from "./page-calls.ts";

/** One attempt to put `path` into the file input `ladder` names (the page API installed already). */
export async function setInputFile(session: Session, ladder: readonly Selector[], path: string, remote: RemoteFiles | undefined): Promise<Attempt> {
  let res;
  try {
    res = await session.send("Runtime.evaluate", {
      expression: `globalThis.__flowproof.fileInput(${JSON.stringify({ ladder: toRungs(ladder) })})`,
      returnByValue: false,
    });
  } catch (error) {
    if (isTransient(error)) return fail("attached", NAVIGATING);
    throw error;
  }
  if (res.exceptionDetails) return fail("attached", res.exceptionDetails.text);
  if (res.result.type === "string") {
    const detail = String(res.result.value);
    return fail(detail.includes("is not a file input") ? "unsupported" : "not-found", detail, !detail.includes("is not a file input"));
  }
  const objectId = res.result.objectId;
  if (!objectId) return fail("not-found", "the file input could not be addressed");
  try {
    // A remote browser reads the file on its own machine: it is sent there first.
    await session.send("DOM.setFileInputFiles", { files: [remote ? await remote.upload(path) : path], objectId });
  } finally {
    await session.send("Runtime.releaseObject", { objectId }).catch(() => undefined);
  }
  return ok(undefined, ladder[0]?.tier);
}
