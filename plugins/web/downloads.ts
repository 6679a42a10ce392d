// Downloads of one browser context: a private download directory, the browser's download events
// folded into a state the engine polls. Keeps no module state; one tracker per driver.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { guardDir, type DownloadState } from "../../src/plugins/api.ts";
import type { Connection } from "./cdp/connection.ts";

interface Entry {
  name: string;
  state: "inProgress" | "completed" | "canceled";
  path?: string;
  taken: boolean;
}

/** Folds download events into a state. Files are saved under their guid and moved to `<dir>/<n>/<suggested name>` on completion. */
export class DownloadTracker {
  readonly dir: string;
  readonly #entries = new Map<string, Entry>();
  #completedCount = 0;
  /** Files land directly in `dir` (a user's `downloads_dir`), a repeated name in a numbered folder. */
  readonly #flat: boolean;
  readonly #flatNames = new Set<string>();

  constructor(dir: string, flat = false) {
    this.dir = dir;
    this.#flat = flat;
  }

  begin(guid: string, suggestedFilename: string): void {
    this.#entries.set(guid, { name: basename(suggestedFilename) || "download", state: "inProgress", taken: false });
  }

  /** Ends a download as cancelled by flowproof, saying why beside its name (reports read "the download of <name> (<why>)"). */
  cancel(guid: string, why: string): void {
    const entry = this.#entries.get(guid);
    if (!entry || entry.state !== "inProgress") return;
    entry.name = `${entry.name} (${why})`;
    entry.state = "canceled";
  }

  progress(guid: string, state: "inProgress" | "completed" | "canceled"): void {
    const entry = this.#entries.get(guid);
    if (!entry || entry.state !== "inProgress" || state === "inProgress") return;
    entry.state = state;
    if (state !== "completed") return;
    ++this.#completedCount;
    if (this.#flat && !this.#flatNames.has(entry.name)) {
      this.#flatNames.add(entry.name);
      entry.path = join(this.dir, entry.name);
      renameSync(join(this.dir, guid), entry.path);
      return;
    }
    // Its own folder per download keeps the server's file name without collisions.
    const folder = join(this.dir, String(this.#completedCount));
    mkdirSync(folder, { recursive: true });
    const path = join(folder, entry.name);
    renameSync(join(this.dir, guid), path);
    entry.path = path;
  }

  /** Completed downloads not taken yet; `take` hands them over. */
  state(take: boolean): DownloadState {
    const completed: string[] = [];
    const canceled: string[] = [];
    let inProgress = 0;
    for (const e of this.#entries.values()) {
      if (e.state === "inProgress") inProgress++;
      else if (e.state === "canceled" && !e.taken) canceled.push(e.name);
      else if (e.state === "completed" && !e.taken && e.path) completed.push(e.path);
      if (take && e.state !== "inProgress") e.taken = true;
    }
    return { completed, inProgress, canceled };
  }
}

/** A browser on another machine (a grid node): files go there before an upload, and downloads come back from there. */
export interface RemoteFiles {
  /** Sends a local file to the browser's machine; resolves with its path there. */
  upload(localPath: string): Promise<string>;
  /** Fetches a finished download by its name on the browser's machine; absent when that machine hands none back. */
  readonly download?: (name: string) => Promise<Uint8Array>;
}

/** Why a download the grid node's browser cancelled did not come back. */
export const REMOTE_CANCELLED =
  "the grid node's browser cancelled it: a node running Chromium's headless shell keeps no download; run Chrome or Chromium on the node (docs/grid.md)";

export interface Downloads {
  state(take: boolean): DownloadState;
  close(): void;
}

/**
 * Sends this context's downloads to `dir` (the flow's `browser.downloads_dir`, created when
 * missing and kept) or else to a fresh temporary directory (removed at close), and tracks those
 * started by any page of the context: the flow's page and its frames (`ownFrame`), and every tab
 * or popup the flow opened (an attachment link with target=_blank, `window.open`).
 */
export async function createDownloads(
  connection: Connection,
  browserContextId: string,
  ownFrame: (frameId: string) => boolean,
  dir?: string,
  remote?: RemoteFiles,
): Promise<Downloads> {
  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const tracker = new DownloadTracker(dir ?? mkdtempSync(join(tmpdir(), "flowproof-downloads-")), dir !== undefined);
  // A temporary directory goes with this process even when it is killed outright.
  const unguard = dir === undefined ? guardDir(tracker.dir) : () => undefined;
  const removeTemporary = () => {
    // A directory the flow named is the user's: its files are the point of it.
    if (dir === undefined) rmSync(tracker.dir, { recursive: true, force: true });
    unguard();
  };
  const ours = new Set<string>();
  // A page target's id is its main frame's id: the pages this context opened, seen as they open.
  const pages = new Set<string>();
  const notePage = (info: { targetId: string; type: string; browserContextId?: string }) => {
    if (info.browserContextId === browserContextId && info.type === "page") pages.add(info.targetId);
  };
  const offs = [
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
  ];
  const fetchBack = async (guid: string, remotePath: string | undefined): Promise<void> => {
    // A node that hands no downloads back, or a fetch that failed: the download is reported as
    // cancelled, saying why (docs/grid.md).
    if (!remote?.download || remotePath === undefined)
      return tracker.cancel(guid, "it stayed on the grid node: start the nodes with --enable-managed-downloads true");
    try {
      writeFileSync(join(tracker.dir, guid), await remote.download(basename(remotePath)));
      tracker.progress(guid, "completed");
    } catch (error) {
      tracker.cancel(guid, `it could not be fetched from the grid node: ${(error as Error).message}`);
    }
  };
  try {
    // A remote browser saves into its node's own download directory (its default), fetched back from there.
    await connection.send(
      "Browser.setDownloadBehavior",
      remote ? { behavior: "default", eventsEnabled: true } : { behavior: "allowAndName", browserContextId, downloadPath: tracker.dir, eventsEnabled: true },
    );
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
