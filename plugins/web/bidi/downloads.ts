// Downloads of one Firefox user context: saved into a private directory (or the flow's
// `downloads_dir`) by `browser.setDownloadBehavior`, followed through
// `browsingContext.downloadWillBegin` / `downloadEnd`, and folded into the same state the engine
// polls on Chromium (downloads.ts: each file in a folder of its own under its server name).
// As on Chromium, every browsing context of the user context counts: the flow's tab, its frames,
// and the tabs and popups it opened (seen through `browsingContext.contextCreated`).
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { trackDownloads, type Downloads } from "../downloads.ts";
import type { BidiConnection } from "./connection.ts";

/** The download events a page is followed by. */
export const DOWNLOAD_EVENTS = ["browsingContext.downloadWillBegin", "browsingContext.downloadEnd"];
/** The events followed across the whole user context: its new browsing contexts and their downloads. */
const USER_CONTEXT_EVENTS = ["browsingContext.contextCreated", ...DOWNLOAD_EVENTS];

/**
 * Sends the user context's downloads to `dir` (see trackDownloads), tracking those started by any
 * of its browsing contexts: `context` (the flow's tab) and every frame, tab and popup created in the
 * user context after it.
 */
export function createFirefoxDownloads(connection: BidiConnection, userContext: string, context: string, dir?: string): Promise<Downloads> {
  return trackDownloads(dir, (tracker) => {
    // Firefox saves under the server's name; the file is moved under the download's id first, so the
    // tracker names and places it as on Chromium.
    const landing = mkdtempSync(join(tracker.dir, ".landing-"));
    // The connection may serve other flows' user contexts: a download counts when its context is one of ours.
    const contexts = new Set([context]);
    // Firefox names a download by the navigation it came from, which downloads started by one
    // document share: each gets a key of its own, and an end goes to the oldest one under way from
    // the same navigation and URL.
    const underWay: Array<{ key: string; navigation: string; url: string }> = [];
    let count = 0;
    let subscription: string | undefined;
    return {
      offs: [
        connection.on("browsingContext.contextCreated", (p) => {
          const parent = p["parent"];
          if (p["userContext"] === userContext || (typeof parent === "string" && contexts.has(parent))) contexts.add(String(p["context"]));
        }),
        connection.on("browsingContext.downloadWillBegin", (p) => {
          if (!contexts.has(String(p["context"]))) return;
          const key = `download-${++count}`;
          underWay.push({ key, navigation: String(p["navigation"]), url: String(p["url"]) });
          tracker.begin(key, String(p["suggestedFilename"] ?? "download"));
        }),
        connection.on("browsingContext.downloadEnd", (p) => {
          const at = underWay.findIndex((d) => d.navigation === String(p["navigation"]) && d.url === String(p["url"]));
          if (at < 0) return;
          const id = underWay.splice(at, 1)[0]!.key;
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
        // The whole user context, not the flow's tab alone: a tab or popup it opened is a context of its own.
        const subscribed = await connection.send<{ subscription?: string }>("session.subscribe", { events: USER_CONTEXT_EVENTS, userContexts: [userContext] });
        subscription = subscribed.subscription;
      },
      cleanup: () => {
        if (subscription !== undefined) void connection.send("session.unsubscribe", { subscriptions: [subscription] }).catch(() => undefined);
        rmSync(landing, { recursive: true, force: true });
      },
    };
  });
}
