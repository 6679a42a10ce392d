// Downloads of one browser context, for every protocol's driver: a private download directory (or
// the flow's), the browser's download events folded into a state the engine polls. Keeps no module
// state; one tracker per driver. The events are the backends' (cdp/downloads.ts, bidi/downloads.ts).
import { mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { guardDir, type DownloadState } from "../../src/plugins/api.ts";

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

  /**
   * A download the browser finished: `put` brings its file to `<dir>/<id>` (moved there, or fetched
   * back); it completes, or is cancelled saying why (`failure`, then what went wrong).
   */
  async land(id: string, put: () => void | Promise<void>, failure: string): Promise<void> {
    try {
      await put();
      this.progress(id, "completed");
    } catch (error) {
      this.cancel(id, `${failure}: ${(error as Error).message}`);
    }
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

export interface Downloads {
  state(take: boolean): DownloadState;
  close(): void;
}

/** What a protocol's backend brings to the shared set-up (cdp/downloads.ts, bidi/downloads.ts). */
export interface DownloadBackend {
  /** Unsubscribes what the backend listens to: the browser's download events, folded into the tracker. */
  readonly offs: ReadonlyArray<() => void>;
  /** Tells the browser where this context's downloads go, and to report them. */
  start(): Promise<void>;
  /** Removes what the backend made for itself (at close, or when start fails). */
  cleanup?(): void;
}

/**
 * Sends a context's downloads to `dir` (the flow's `browser.downloads_dir`, created when missing
 * and kept) or else to a fresh temporary directory (removed at close), and folds the browser's
 * download events into one tracker, through the backend `attach` makes for it.
 */
export async function trackDownloads(dir: string | undefined, attach: (tracker: DownloadTracker) => DownloadBackend): Promise<Downloads> {
  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  const tracker = new DownloadTracker(dir ?? mkdtempSync(join(tmpdir(), "flowproof-downloads-")), dir !== undefined);
  // A temporary directory goes with this process even when it is killed outright.
  const unguard = dir === undefined ? guardDir(tracker.dir) : () => undefined;
  const backend = attach(tracker);
  const close = () => {
    for (const off of backend.offs) off();
    backend.cleanup?.();
    // A directory the flow named is the user's: its files are the point of it.
    if (dir === undefined) rmSync(tracker.dir, { recursive: true, force: true });
    unguard();
  };
  try {
    await backend.start();
  } catch (error) {
    close();
    throw error;
  }
  return { state: (take) => tracker.state(take), close };
}
