import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createRunDir, runId, writeRunBundle } from "./bundle.ts";
import { junitXml } from "./junit.ts";
import { reportHtml } from "./html.ts";
import type { RunReport } from "./schema.ts";

const REPORT: RunReport = {
  name: "Checkout",
  trace_id: "t-1",
  passed: true,
  outcome: "passed",
  steps: [{ id: "s0001", intent: 'Click "Save"', status: "passed", started_ms: 0, duration_ms: 12 }],
  duration_ms: 12,
  started_at: "2025-01-02T03:04:05.678Z",
  flowproof_version: "0.1.0",
  spec_path: "checkout.flow.yaml",
  trace_path: "checkout.trace.jsonl",
};

describe("runId", () => {
  test.each([
    ["2025-01-02T03:04:05.678Z", "20250102T030405.678Z"],
    ["1999-12-31T23:59:59.000Z", "19991231T235959.000Z"],
  ])("formats %s as %s", (iso, id) => {
    expect(runId(new Date(iso))).toBe(id);
  });

  test("matches YYYYMMDDTHHMMSS.mmmZ", () => {
    expect(runId(new Date())).toMatch(/^\d{8}T\d{6}\.\d{3}Z$/);
  });

  test("sorts in time order as text", () => {
    const [a, b, c] = ["2025-01-02T03:04:05.678Z", "2024-12-31T23:59:59.999Z", "2025-01-02T03:04:05.679Z"].map((s) => runId(new Date(s)));
    expect([a, b, c].sort()).toEqual([b, a, c]);
  });
});

describe("createRunDir", () => {
  let base = "";
  afterEach(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  test("creates .flowproof/runs/<run-id> under the base directory", () => {
    base = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    const at = new Date("2025-01-02T03:04:05.678Z");
    const dir = createRunDir(base, at);
    expect(dir).toBe(join(base, ".flowproof", "runs", "20250102T030405.678Z"));
    expect(existsSync(dir)).toBe(true);
  });

  test("makes a distinct directory for each run at the same instant", () => {
    base = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    const at = new Date("2025-01-02T03:04:05.678Z");
    const dirs = [createRunDir(base, at), createRunDir(base, at), createRunDir(base, at)];
    expect(new Set(dirs).size).toBe(3);
    expect(dirs.map((d) => basename(d))).toEqual(["20250102T030405.678Z", "20250102T030405.678Z-2", "20250102T030405.678Z-3"]);
    expect(readdirSync(dirname(dirs[0]!)).sort()).toEqual(dirs.map((d) => basename(d)).sort());
  });
});

describe("writeRunBundle", () => {
  let base = "";
  afterEach(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  test("a file that cannot be written: the others are written errored, none says passed, and the io-error is thrown", () => {
    base = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    // A directory where report.html goes: that one file cannot be written.
    mkdirSync(join(base, "report.html"));
    expect(() => writeRunBundle(base, REPORT)).toThrow(/cannot write .*report\.html/);
    const result = JSON.parse(readFileSync(join(base, "result.json"), "utf8")) as RunReport;
    expect(result).toMatchObject({ passed: false, outcome: "errored" });
    expect(result.error).toMatch(/^the run's evidence could not be written whole: cannot write .*report\.html/);
    expect(readFileSync(join(base, "junit.xml"), "utf8")).toContain('name="run error"');
    expect(readdirSync(base).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  test("writes result.json, junit.xml and report.html and nothing else", () => {
    base = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    const paths = writeRunBundle(base, REPORT);
    expect(paths).toEqual({ dir: base, result: join(base, "result.json"), junit: join(base, "junit.xml"), html: join(base, "report.html") });
    expect(readdirSync(base).sort()).toEqual(["junit.xml", "report.html", "result.json"]);
  });

  test("writes a result.json that parses back equal to the report", () => {
    base = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    const paths = writeRunBundle(base, REPORT);
    expect(JSON.parse(readFileSync(paths.result, "utf8"))).toEqual(REPORT);
  });

  test("writes the junit and html renderings of the same report", () => {
    base = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    const paths = writeRunBundle(base, REPORT);
    expect(readFileSync(paths.junit, "utf8")).toBe(junitXml([REPORT]));
    expect(readFileSync(paths.html, "utf8")).toBe(reportHtml(REPORT));
  });

  test("replaces the files of an earlier write", () => {
    base = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    writeRunBundle(base, { ...REPORT, name: "First" });
    const paths = writeRunBundle(base, REPORT);
    expect(JSON.parse(readFileSync(paths.result, "utf8")).name).toBe("Checkout");
    expect(readdirSync(base)).toHaveLength(3);
  });
});
