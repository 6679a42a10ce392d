// Downloads of one Firefox user context: saved into a private directory (or the flow's
// `downloads_dir`) by `browser.setDownloadBehavior`, followed through
// `browsingContext.downloadWillBegin` / `downloadEnd`, and folded into the same state the engine
// polls on Chromium (downloads.ts: each file in a folder of its own under its server name).
import { mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardDir } from "../../../src/plugins/api.ts";
import { DownloadTracker, type Downloads } from "../downloads.ts";
import type { BidiConnection } from "./connection.ts";

/** The download events a page is followed by. */
export const DOWNLOAD_EVENTS = ["browsingContext.downloadWillBegin", "browsingContext.downloadEnd"];

/**
 * Sends the user context's downloads to `dir` (created when missing and kept) or to a fresh
 * temporary directory (removed at close), tracking those its pages start (`ours`: a context of the flow).
 */
export async function createFirefoxDownloads(
  connection: BidiConnection,
  userContext: string,
  ours: (context: string) => boolean,
  dir?: string,
): Promise<Downloads> {
  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const tracker = new DownloadTracker(dir ?? mkdtempSync(join(tmpdir(), "flowproof-downloads-")), dir !== undefined);
  const unguard = dir === undefined ? guardDir(tracker.dir) : () => undefined;
  // Firefox saves under the server's name; the file is moved under the download's id first, so the
  // tracker names and places it as on Chromium.
  const landing = mkdtempSync(join(tracker.dir, ".landing-"));
  const removeTemporary = () => {
    rmSync(landing, { recursive: true, force: true });
    if (dir === undefined) rmSync(tracker.dir, { recursive: true, force: true });
    unguard();
  };
  const mine = new Set<string>();
  const offs = [
    connection.on("browsingContext.downloadWillBegin", (p) => {
      if (!ours(String(p["context"]))) return;
      const id = String(p["navigation"]);
      mine.add(id);
      tracker.begin(id, String(p["suggestedFilename"] ?? "download"));
    }),
    connection.on("browsingContext.downloadEnd", (p) => {
      const id = String(p["navigation"]);
      if (!mine.has(id)) return;
      const path = p["filepath"];
      if (p["status"] !== "complete" || typeof path !== "string") return tracker.progress(id, "canceled");
      try {
        renameSync(path, join(tracker.dir, id));
        tracker.progress(id, "completed");
      } catch (error) {
        tracker.cancel(id, `it could not be moved into place: ${(error as Error).message}`);
      }
    }),
  ];
  try {
    await connection.send("browser.setDownloadBehavior", { downloadBehavior: { type: "allowed", destinationFolder: landing }, userContexts: [userContext] });
  } catch (error) {
    for (const off of offs) off();
    removeTemporary();
    throw error;
  }
  return {
    state: (take) => tracker.state(take),
    close() {
      for (const off of offs) off();
      removeTemporary();
    },
  };
}
