// Downloads of one Firefox user context: saved into a private directory (or the flow's
// `downloads_dir`) by `browser.setDownloadBehavior`, followed through
// `browsingContext.downloadWillBegin` / `downloadEnd`, and folded into the same state the engine
// polls on Chromium (downloads.ts: each file in a folder of its own under its server name).
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { trackDownloads, type Downloads } from "../downloads.ts";
import type { BidiConnection } from "./connection.ts";

/** The download events a page is followed by. */
export const DOWNLOAD_EVENTS = ["browsingContext.downloadWillBegin", "browsingContext.downloadEnd"];

/**
 * Sends the user context's downloads to `dir` (see trackDownloads), tracking those its pages start
 * (`ours`: a context of the flow).
 */
export function createFirefoxDownloads(connection: BidiConnection, userContext: string, ours: (context: string) => boolean, dir?: string): Promise<Downloads> {
  return trackDownloads(dir, (tracker) => {
    // Firefox saves under the server's name; the file is moved under the download's id first, so the
    // tracker names and places it as on Chromium.
    const landing = mkdtempSync(join(tracker.dir, ".landing-"));
    const mine = new Set<string>();
    return {
      offs: [
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
          void tracker.land(id, () => renameSync(path, join(tracker.dir, id)), "it could not be moved into place");
        }),
      ],
      start: async () => {
        await connection.send("browser.setDownloadBehavior", {
          downloadBehavior: { type: "allowed", destinationFolder: landing },
          userContexts: [userContext],
        });
      },
      cleanup: () => rmSync(landing, { recursive: true, force: true }),
    };
  });
}
