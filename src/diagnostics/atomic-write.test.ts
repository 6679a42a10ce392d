import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FlowproofError } from "./diagnostic.ts";
import { OutputError, checkWritable, makeDir, outputError, writeFileAtomic, writeFilesAtomic } from "./atomic-write.ts";

const root = mkdtempSync(join(tmpdir(), "flowproof-atomic-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The error `f` throws, which must be an OutputError. */
function thrown(f: () => void): OutputError {
  try {
    f();
  } catch (error) {
    if (error instanceof OutputError) return error;
    throw error;
  }
  throw new Error("expected an OutputError");
}

describe("writeFilesAtomic", () => {
  test("moves every file into place once all are written, and none when one cannot be", () => {
    const dir = mkdtempSync(join(tmpdir(), "flowproof-atomic-many-"));
    try {
      writeFilesAtomic([
        [join(dir, "a.txt"), "A"],
        [join(dir, "b.txt"), "B"],
      ]);
      expect([readFileSync(join(dir, "a.txt"), "utf8"), readFileSync(join(dir, "b.txt"), "utf8")]).toEqual(["A", "B"]);
      // The second file cannot be written (its directory is missing): the first stays as it was.
      expect(() =>
        writeFilesAtomic([
          [join(dir, "a.txt"), "A2"],
          [join(dir, "missing", "c.txt"), "C"],
        ]),
      ).toThrow(/cannot write .*missing\/c\.txt/);
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A");
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("writeFileAtomic", () => {
  test("writes text and bytes whole, replacing an older file, and leaves no temp file", () => {
    const dir = makeDir(join(root, "ok"));
    writeFileAtomic(join(dir, "a.json"), "old");
    writeFileAtomic(join(dir, "a.json"), '{"new":true}\n');
    writeFileAtomic(join(dir, "b.png"), new Uint8Array([137, 80, 78, 71]));
    expect(readFileSync(join(dir, "a.json"), "utf8")).toBe('{"new":true}\n');
    expect([...readFileSync(join(dir, "b.png"))]).toEqual([137, 80, 78, 71]);
    expect(readdirSync(dir).sort()).toEqual(["a.json", "b.png"]);
  });

  test("removes its temp file when the rename fails, and says what could not be written", () => {
    const dir = makeDir(join(root, "rename"));
    // The temp file is written, then renaming it over a directory fails.
    mkdirSync(join(dir, "result.json"));
    const e = thrown(() => writeFileAtomic(join(dir, "result.json"), "{}"));
    expect(e.code).toBe("io-error");
    expect(e.message).toStartWith(`cannot write ${join(dir, "result.json")}: `);
    expect(e.diagnostics[0]!.hint).toBeDefined();
    expect(readdirSync(dir)).toEqual(["result.json"]);
  });

  test("turns a missing directory into an io-error naming it", () => {
    const e = thrown(() => writeFileAtomic(join(root, "missing", "x.json"), "{}"));
    expect(e.message).toContain("(ENOENT)");
    expect(e.diagnostics[0]!.hint).toBe(`check that ${join(root, "missing")} exists and can be written`);
  });
});

describe("checkWritable", () => {
  test("makes the directory and leaves nothing in it", () => {
    const dir = join(root, "fresh", "runs", "r1");
    checkWritable(dir, "the run");
    expect(readdirSync(dir)).toEqual([]);
  });

  test("refuses a directory that cannot be made, naming its purpose", () => {
    writeFileSync(join(root, "a-file"), "x");
    const e = thrown(() => checkWritable(join(root, "a-file", "runs"), "the run's result.json"));
    expect(e.message).toBe(`cannot write ${join(root, "a-file", "runs")} (the run's result.json): ${e.message.split(": ").slice(1).join(": ")}`);
    expect(e.message).toContain("(ENOTDIR)");
  });
});

describe("outputError", () => {
  test.each([
    ["ENOSPC", "the disk is full (ENOSPC)", "free space on the disk holding /p"],
    ["EACCES", "permission denied (EACCES)", "make /p writable"],
    ["EPERM", "permission denied (EPERM)", "`lsattr`"],
    ["EROFS", "the file system is read-only (EROFS)", "read-only mounts"],
  ])("explains %s with a hint", (code, reason, hint) => {
    const e = outputError(Object.assign(new Error("raw"), { code }), "/p/result.json");
    expect(e.message).toBe(`cannot write /p/result.json: ${reason}`);
    expect(e.diagnostics[0]!.hint).toContain(hint);
  });

  test("passes a flowproof error through unchanged", () => {
    const original = new FlowproofError({ code: "io-error", message: "already explained" });
    expect(outputError(original, "/p")).toBe(original);
  });
});
