// Upload in Firefox: the page API finds the file input a ladder names (as on Chromium, upload.ts),
// and `input.setFiles` gives it the file, by the element's shared reference.
import type { Attempt, Selector } from "../../../src/plugins/api.ts";
import { fail, NAVIGATING, ok, toRungs } from "../page-calls.ts";
import { isBidiTransient, type BidiPage } from "./page.ts";

interface RemoteValue {
  readonly type: string;
  readonly value?: unknown;
  readonly sharedId?: string;
}

/** One attempt to put `path` into the file input `ladder` names (the page API installed already). */
export async function setFirefoxInputFile(page: BidiPage, ladder: readonly Selector[], path: string): Promise<Attempt> {
  let res: { type: string; result?: RemoteValue; exceptionDetails?: { text: string } };
  try {
    res = await page.connection.send("script.evaluate", {
      expression: `globalThis.__flowproof.fileInput(${JSON.stringify({ ladder: toRungs(ladder) })})`,
      target: { context: page.context },
      awaitPromise: false,
      resultOwnership: "root",
      serializationOptions: { maxDomDepth: 0 },
    });
  } catch (error) {
    if (isBidiTransient(error)) return fail("attached", NAVIGATING);
    throw error;
  }
  if (res.type === "exception") return fail("attached", res.exceptionDetails?.text ?? "the file input could not be read");
  const value = res.result;
  if (value?.type === "string") {
    const detail = String(value.value);
    return fail(detail.includes("is not a file input") ? "unsupported" : "not-found", detail, !detail.includes("is not a file input"));
  }
  if (!value?.sharedId) return fail("not-found", "the file input could not be addressed");
  await page.connection.send("input.setFiles", { context: page.context, element: { sharedId: value.sharedId }, files: [path] });
  return ok(undefined, ladder[0]?.tier);
}
