import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TraceHeader, TraceStep } from "./schema.ts";
import { serializeTrace, writeTraceFile } from "./write.ts";
import { sealOf } from "./seal.ts";
import { createHash, createHmac } from "node:crypto";

const HEADER: TraceHeader = {
  format: "flowproof-trace",
  version: 1,
  trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
  recorded_at: "2025-01-02T03:04:05.678Z",
  app: { name: "Demo", adapter: "web", url: "http://127.0.0.1:3000/" },
  env: { os: "linux", resolution: [1280, 800] },
  flowproof_version: "0.1.0",
  spec: { name: "Demo", path: "demo.flow.yaml", hash: `sha256:${"a".repeat(64)}` },
};

const STEP: TraceStep = {
  id: "s0001",
  intent: 'Click "Save"',
  action: { type: "click", params: {} },
  selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Save" } }],
  sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: 5000 }], post: [] },
  artifacts: {},
};

/** The same object with its keys in reverse order, recursively (arrays keep their order). */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

const keysOf = (line: string): string[] => Object.keys(JSON.parse(line) as object);

describe("serializeTrace", () => {
  test("writes one JSON line per record and ends with a newline", () => {
    const text = serializeTrace(HEADER, [STEP, { ...STEP, id: "s0002" }]);
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toEqual({ ...HEADER, integrity: sealOf(HEADER, [STEP, { ...STEP, id: "s0002" }]) });
    expect(JSON.parse(lines[2]!)).toEqual({ ...STEP, id: "s0002" });
  });

  test("seals the whole trace: the SHA-256 of its header line (without the seal) and its step lines", () => {
    const text = serializeTrace(HEADER, [STEP]);
    const [header, line] = text.trimEnd().split("\n");
    const { integrity, ...rest } = JSON.parse(header!) as TraceHeader;
    const covered = `${JSON.stringify(rest)}\n${line}`;
    expect(integrity).toEqual({ scope: "trace", steps: 1, sha256: createHash("sha256").update(covered).digest("hex") });
    expect(sealOf(HEADER, [STEP])).not.toEqual(sealOf(HEADER, [{ ...STEP, intent: 'Click "Saved"' }]));
    expect(sealOf(HEADER, [STEP])).not.toEqual(sealOf({ ...HEADER, expect: { fail: "BUG-1", step: "s0001" } }, [STEP]));
  });

  test("signs the same text with HMAC-SHA256 when given a key, and never writes the key", () => {
    const key = "k".repeat(32);
    const text = serializeTrace(HEADER, [STEP], key);
    const [header, line] = text.trimEnd().split("\n");
    const { integrity, ...rest } = JSON.parse(header!) as TraceHeader;
    expect(integrity?.hmac).toBe(
      createHmac("sha256", key)
        .update(`${JSON.stringify(rest)}\n${line}`)
        .digest("hex"),
    );
    expect(text).not.toContain(key);
  });

  test("orders header keys as the schema declares them, whatever the input order", () => {
    const [line] = serializeTrace(reversed(HEADER) as TraceHeader, []).split("\n");
    expect(keysOf(line!)).toEqual(["format", "version", "trace_id", "recorded_at", "app", "env", "flowproof_version", "spec", "integrity"]);
  });

  test("orders step keys id, intent, action, selectors, sync, artifacts", () => {
    const line = serializeTrace(HEADER, [reversed(STEP) as TraceStep]).split("\n")[1]!;
    expect(keysOf(line)).toEqual(["id", "intent", "action", "selectors", "sync", "artifacts"]);
  });

  test("puts a step's surface between intent and action", () => {
    const line = serializeTrace(HEADER, [reversed({ ...STEP, surface: "main" }) as TraceStep]).split("\n")[1]!;
    expect(keysOf(line)).toEqual(["id", "intent", "surface", "action", "selectors", "sync", "artifacts"]);
  });

  test("puts nested type before params and tier, provenance, confidence before payload", () => {
    const step = reversed({ ...STEP, selectors: [{ tier: "native_id", provenance: "rules", confidence: 1, payload: { css: "#a" } }] }) as TraceStep;
    const parsed = JSON.parse(serializeTrace(HEADER, [step]).split("\n")[1]!) as { action: object; selectors: object[]; sync: object };
    expect(Object.keys(parsed.action)).toEqual(["type", "params"]);
    expect(Object.keys(parsed.selectors[0]!)).toEqual(["tier", "provenance", "confidence", "payload"]);
    expect(Object.keys(parsed.sync)).toEqual(["pre", "post"]);
    expect(Object.keys(JSON.parse(serializeTrace(reversed(HEADER) as TraceHeader, []).split("\n")[0]!).app)).toEqual(["name", "adapter", "url"]);
  });

  test("drops undefined values at every depth", () => {
    const step = { ...STEP, surface: undefined, action: { type: "click", params: { x_pct: undefined, y_pct: 5 } } } as unknown as TraceStep;
    const line = serializeTrace(HEADER, [step]).split("\n")[1]!;
    expect(line).not.toContain("surface");
    expect(line).not.toContain("x_pct");
    expect(JSON.parse(line).action).toEqual({ type: "click", params: { y_pct: 5 } });
  });

  test("gives byte-identical output for equal traces built in different key orders", () => {
    expect(serializeTrace(reversed(HEADER) as TraceHeader, [reversed(STEP) as TraceStep])).toBe(serializeTrace(HEADER, [STEP]));
  });
});

describe("writeTraceFile", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const fresh = () => (dir = mkdtempSync(join(tmpdir(), "flowproof-write-")));

  test("writes the serialized trace, creating parent directories, and leaves no temp file", () => {
    const path = join(fresh(), "nested", "deeper", "a.trace.jsonl");
    writeTraceFile(path, HEADER, [STEP]);
    expect(readFileSync(path, "utf8")).toBe(serializeTrace(HEADER, [STEP]));
    expect(readdirSync(join(dir, "nested", "deeper"))).toEqual(["a.trace.jsonl"]);
  });

  test("replaces an existing trace whole", () => {
    const path = join(fresh(), "a.trace.jsonl");
    writeFileSync(path, "old content that is much longer than the new trace ".repeat(100));
    writeTraceFile(path, HEADER, []);
    expect(readFileSync(path, "utf8")).toBe(serializeTrace(HEADER, []));
    expect(readdirSync(dir)).toEqual(["a.trace.jsonl"]);
  });

  test("throws and removes its temp file when the target cannot be replaced", () => {
    const path = join(fresh(), "taken");
    mkdirSync(join(path, "child"), { recursive: true });
    expect(() => writeTraceFile(path, HEADER, [STEP])).toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});
