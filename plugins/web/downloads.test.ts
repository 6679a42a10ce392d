import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DownloadTracker, trackDownloads } from "./downloads.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("DownloadTracker", () => {
  test("moves a completed download to its suggested name and hands it over once", () => {
    dir = mkdtempSync(join(tmpdir(), "fp-dl-test-"));
    const t = new DownloadTracker(dir);
    t.begin("g1", "report.csv");
    expect(t.state(false)).toEqual({ completed: [], inProgress: 1, canceled: [] });
    writeFileSync(join(dir, "g1"), "a,b\n");
    t.progress("g1", "completed");
    const s = t.state(true);
    expect(s.completed).toHaveLength(1);
    expect(s.completed[0]!.endsWith("report.csv")).toBe(true);
    expect(readFileSync(s.completed[0]!, "utf8")).toBe("a,b\n");
    expect(existsSync(join(dir, "g1"))).toBe(false);
    expect(t.state(true).completed).toEqual([]);
  });

  test("reports cancelled downloads by name and ignores events for unknown guids", () => {
    dir = mkdtempSync(join(tmpdir(), "fp-dl-test-"));
    const t = new DownloadTracker(dir);
    t.progress("nope", "completed");
    t.begin("g2", "big.zip");
    t.progress("g2", "canceled");
    expect(t.state(false)).toEqual({ completed: [], inProgress: 0, canceled: ["big.zip"] });
  });

  test("a download flowproof cancels (one left on a grid node) says why beside its name", () => {
    dir = mkdtempSync(join(tmpdir(), "fp-dl-test-"));
    const t = new DownloadTracker(dir);
    t.begin("g3", "prices.xlsx");
    t.cancel("g3", "it stayed on the grid node");
    t.progress("g3", "completed");
    expect(t.state(false)).toEqual({ completed: [], inProgress: 0, canceled: ["prices.xlsx (it stayed on the grid node)"] });
  });

  test("in a flow's downloads_dir, lands files directly under their names and a repeated name in a numbered folder", () => {
    dir = mkdtempSync(join(tmpdir(), "fp-dl-test-"));
    const t = new DownloadTracker(dir, true);
    t.begin("g1", "report.csv");
    writeFileSync(join(dir, "g1"), "first");
    t.progress("g1", "completed");
    t.begin("g2", "report.csv");
    writeFileSync(join(dir, "g2"), "second");
    t.progress("g2", "completed");
    const s = t.state(true);
    expect(s.completed).toEqual([join(dir, "report.csv"), join(dir, "2", "report.csv")]);
    expect(readFileSync(join(dir, "report.csv"), "utf8")).toBe("first");
  });
});

describe("DownloadTracker.land", () => {
  test("a file brought under the download's id completes it; one that could not be brought cancels it, saying why", async () => {
    dir = mkdtempSync(join(tmpdir(), "fp-dl-test-"));
    const t = new DownloadTracker(dir);
    t.begin("g1", "report.csv");
    t.begin("g2", "prices.xlsx");
    await t.land("g1", () => writeFileSync(join(dir, "g1"), "a,b\n"), "it could not be moved into place");
    await t.land(
      "g2",
      async () => {
        throw new Error("HTTP 404");
      },
      "it could not be fetched from the grid node",
    );
    const s = t.state(false);
    expect(s.completed.map((p) => readFileSync(p, "utf8"))).toEqual(["a,b\n"]);
    expect(s.canceled).toEqual(["prices.xlsx (it could not be fetched from the grid node: HTTP 404)"]);
  });
});

describe("trackDownloads", () => {
  const backend = (log: string[], start: () => Promise<void>) => ({
    offs: [() => void log.push("off")],
    start,
    cleanup: () => void log.push("cleanup"),
  });

  test("a temporary directory goes at close, after the backend stops listening and cleans up", async () => {
    const log: string[] = [];
    let where = "";
    const downloads = await trackDownloads(undefined, (tracker) => {
      where = tracker.dir;
      return backend(log, async () => void log.push("start"));
    });
    expect(existsSync(where)).toBe(true);
    expect(downloads.state(false)).toEqual({ completed: [], inProgress: 0, canceled: [] });
    downloads.close();
    expect(log).toEqual(["start", "off", "cleanup"]);
    expect(existsSync(where)).toBe(false);
  });

  test("the flow's downloads_dir is created when missing and kept; a start the browser refuses undoes the rest and throws", async () => {
    dir = mkdtempSync(join(tmpdir(), "fp-dl-test-"));
    const own = join(dir, "mine");
    const log: string[] = [];
    const refused = trackDownloads(own, () =>
      backend(log, async () => {
        throw new Error("no downloads here");
      }),
    );
    await expect(refused).rejects.toThrow("no downloads here");
    expect(log).toEqual(["off", "cleanup"]);
    expect(existsSync(own)).toBe(true);
  });
});
