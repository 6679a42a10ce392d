// Downloads over CDP (Browser.setDownloadBehavior, downloadWillBegin / downloadProgress), folded
// into the shared tracker (downloads.ts); a grid node's browser saves on its node, and a finished
// download is fetched back from there.
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { trackDownloads, type Downloads, type RemoteFiles } from "../downloads.ts";
import type { Connection } from "./connection.ts";

/** Why a download the grid node's browser cancelled did not come back. */
export const REMOTE_CANCELLED =
  "the grid node's browser cancelled it: a node running Chromium's headless shell keeps no download; run Chrome or Chromium on the node (docs/grid.md)";

/**
 * Sends this context's downloads to `dir` (see trackDownloads), and tracks those started by any page
 * of the context: the flow's page and its frames (`ownFrame`), and every tab or popup the flow
 * opened (an attachment link with target=_blank, `window.open`).
 */
export function createDownloads(
  connection: Connection,
  browserContextId: string,
  ownFrame: (frameId: string) => boolean,
  dir?: string,
  remote?: RemoteFiles,
): Promise<Downloads> {
  return trackDownloads(dir, (tracker) => {
    const ours = new Set<string>();
    // A page target's id is its main frame's id: the pages this context opened, seen as they open.
    const pages = new Set<string>();
    const notePage = (info: { targetId: string; type: string; browserContextId?: string }) => {
      if (info.browserContextId === browserContextId && info.type === "page") pages.add(info.targetId);
    };
    const fetchBack = (guid: string, remotePath: string | undefined): Promise<void> | void => {
      // A node that hands no downloads back, or a fetch that failed: the download is reported as
      // cancelled, saying why (docs/grid.md).
      if (!remote?.download || remotePath === undefined)
        return tracker.cancel(guid, "it stayed on the grid node: start the nodes with --enable-managed-downloads true");
      const download = remote.download.bind(remote);
      const bring = async () => writeFileSync(join(tracker.dir, guid), await download(basename(remotePath)));
      return tracker.land(guid, bring, "it could not be fetched from the grid node");
    };
    return {
      offs: [
        connection.on("Target.targetCreated", (p) => notePage(p.targetInfo)),
        connection.on("Target.targetInfoChanged", (p) => notePage(p.targetInfo)),
        connection.on("Browser.downloadWillBegin", (p) => {
          // Browser events are global; the frame tells which context's page started it.
          if (!ownFrame(p.frameId) && !pages.has(p.frameId)) return;
          ours.add(p.guid);
          tracker.begin(p.guid, p.suggestedFilename);
        }),
        connection.on("Browser.downloadProgress", (p) => {
          if (!ours.has(p.guid)) return;
          // A remote browser's file is fetched back under its guid first; until then it is in progress.
          if (remote && p.state === "completed") void fetchBack(p.guid, p.filePath);
          // A node's browser that cancels a download itself is, nearly always, Chromium's headless
          // shell, which saves no download it was not told where to put (docs/grid.md).
          else if (remote && p.state === "canceled") tracker.cancel(p.guid, REMOTE_CANCELLED);
          else tracker.progress(p.guid, p.state);
        }),
      ],
      // A remote browser saves into its node's own download directory (its default), fetched back from there.
      start: async () => {
        await connection.send(
          "Browser.setDownloadBehavior",
          remote
            ? { behavior: "default", eventsEnabled: true }
            : { behavior: "allowAndName", browserContextId, downloadPath: tracker.dir, eventsEnabled: true },
        );
      },
    };
  });
}
