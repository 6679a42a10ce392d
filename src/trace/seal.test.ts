import { describe, expect, test } from "bun:test";
import { TraceError } from "../diagnostics/diagnostic.ts";
import type { TraceHeader, TraceStep } from "./schema.ts";
import { checkSeal, headerLine, sealKind, sealOf, sealPolicy, sealProblem, traceKey } from "./seal.ts";

const HEADER: TraceHeader = {
  format: "flowproof-trace",
  version: 1,
  trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
  recorded_at: "2025-01-02T03:04:05.678Z",
  app: { name: "web", adapter: "web", url: "http://127.0.0.1:3000/" },
  env: { os: "linux", resolution: [1280, 800] },
  spec: { name: "Demo", path: "demo.flow.yaml" },
};
const STEP: TraceStep = {
  id: "s0001",
  intent: 'Click "Save"',
  action: { type: "click", params: {} },
  selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Save" } }],
  sync: { pre: [], post: [] },
  artifacts: {},
};
const KEY = "0123456789abcdef0123456789abcdef";
const sealed = (h: TraceHeader, key?: string): TraceHeader => ({ ...h, integrity: sealOf(h, [STEP], key) });

function traceError(run: () => unknown): TraceError {
  try {
    run();
  } catch (error) {
    if (error instanceof TraceError) return error;
    throw error;
  }
  throw new Error("expected a TraceError");
}

describe("sealProblem", () => {
  test("a sealed trace matches its seal, in any key order; an edit of any header field or step does not", () => {
    const h = sealed(HEADER);
    expect(sealProblem(h, [STEP])).toBeUndefined();
    expect(sealProblem(Object.fromEntries(Object.entries(h).reverse()) as TraceHeader, [STEP])).toBeUndefined();
    for (const edited of [
      { ...h, expect: { fail: "whatever", step: "s0001" } },
      { ...h, mock: [{ url_contains: "/", status: 200, body: "ok" }] },
      { ...h, app: { ...h.app, url: "http://elsewhere/" } },
    ])
      expect(sealProblem(edited, [STEP])).toContain("its header or steps were edited");
    expect(sealProblem(h, [{ ...STEP, intent: 'Click "Store"' }])).toContain("its header or steps were edited");
  });

  test("the seal leaves itself out: re-sealing a sealed header gives the same seal", () => {
    expect(sealOf(sealed(HEADER), [STEP])).toEqual(sealOf(HEADER, [STEP]));
  });
});

describe("checkSeal", () => {
  const strict = { allowUnsealed: false };
  test("refuses an unsealed trace and an older steps-only seal unless allowed, naming the opt-in", () => {
    const none = traceError(() => checkSeal(HEADER, [STEP], strict, "a.trace.jsonl", "a.flow.yaml"));
    expect(none.code).toBe("unsealed-trace");
    expect(none.message).toContain("a.trace.jsonl is not sealed");
    expect(none.diagnostics[0]!.hint).toContain("--allow-unsealed (or FLOWPROOF_ALLOW_UNSEALED=1)");
    expect(none.diagnostics[0]!.hint).toContain("flowproof trace <flow.yaml> --reseal");
    const older = { ...HEADER, integrity: { steps: 1, sha256: "0".repeat(64) } };
    expect(sealKind(older)).toBe("steps");
    expect(traceError(() => checkSeal(older, [STEP], strict, "a.trace.jsonl")).message).toContain("its seal covers the steps only");
    expect(checkSeal(HEADER, [STEP], { allowUnsealed: true }, "a.trace.jsonl")).toEqual([]);
    expect(checkSeal(sealed(HEADER), [STEP], strict, "a.trace.jsonl")).toEqual([]);
  });

  test("with the key: a trace signed with it replays; an unsigned one, or one signed otherwise, is refused; the key is never in a message", () => {
    expect(checkSeal(sealed(HEADER, KEY), [STEP], { allowUnsealed: false, key: KEY }, "a.trace.jsonl")).toEqual([]);
    const unsigned = traceError(() => checkSeal(sealed(HEADER), [STEP], { allowUnsealed: true, key: KEY }, "a.trace.jsonl"));
    expect(unsigned.code).toBe("trace-signature");
    expect(unsigned.message).toBe("a.trace.jsonl is not signed, but FLOWPROOF_TRACE_KEY is set: only a trace recorded (or resealed) with the key replays");
    const other = traceError(() => checkSeal(sealed(HEADER, "another key, long enough"), [STEP], { allowUnsealed: false, key: KEY }, "a.trace.jsonl"));
    expect(other.message).toContain("signature (integrity.hmac) does not match FLOWPROOF_TRACE_KEY");
    // Edited and sealed again without the key: the old signature no longer matches.
    const resealed = { ...sealed(HEADER, KEY), app: { ...HEADER.app, url: "http://elsewhere/" } };
    const forged = { ...resealed, integrity: { ...sealOf(resealed, [STEP]), hmac: sealed(HEADER, KEY).integrity!.hmac! } };
    expect(sealProblem(forged, [STEP])).toBeUndefined();
    expect(traceError(() => checkSeal(forged, [STEP], { allowUnsealed: false, key: KEY }, "a.trace.jsonl")).code).toBe("trace-signature");
    for (const e of [unsigned, other]) expect(JSON.stringify(e.diagnostics)).not.toContain(KEY);
  });

  test("a signed trace replayed without the key replays with a warning that it was not verified", () => {
    expect(checkSeal(sealed(HEADER, KEY), [STEP], strict, "a.trace.jsonl")).toEqual([
      "a.trace.jsonl is signed, but FLOWPROOF_TRACE_KEY is not set, so its signature was not verified (set FLOWPROOF_TRACE_KEY to verify it)",
    ]);
  });
});

describe("sealPolicy and traceKey", () => {
  test("read FLOWPROOF_ALLOW_UNSEALED and FLOWPROOF_TRACE_KEY; a short or empty key is refused without echoing it", () => {
    expect(sealPolicy({})).toEqual({ allowUnsealed: false });
    expect(sealPolicy({ FLOWPROOF_ALLOW_UNSEALED: "1" })).toEqual({ allowUnsealed: true });
    expect(sealPolicy({}, true)).toEqual({ allowUnsealed: true });
    expect(sealPolicy({ FLOWPROOF_TRACE_KEY: KEY })).toEqual({ allowUnsealed: false, key: KEY });
    const short = traceError(() => traceKey({ FLOWPROOF_TRACE_KEY: "hunter2" }));
    expect(short.code).toBe("trace-signature");
    expect(short.message).toBe("FLOWPROOF_TRACE_KEY is set but shorter than 16 characters: it cannot sign or verify a trace");
    expect(JSON.stringify(short.diagnostics)).not.toContain("hunter2");
    expect(traceError(() => traceKey({ FLOWPROOF_TRACE_KEY: "" })).message).toContain("is set but empty");
  });
});

describe("headerLine", () => {
  test("adapter blocks sit where older traces carried them (the web's session, mock, browser before control), any other after the format's fields", () => {
    const header = {
      ...HEADER,
      terminal: { rows: 24 },
      effects: "strict" as const,
      browser: { viewport: { width: 1, height: 1 } },
      mock: [],
      session: {},
      expect: { fail: "x", step: "s0001" },
      redaction: [],
    };
    expect(Object.keys(JSON.parse(headerLine(header)))).toEqual([
      "format",
      "version",
      "trace_id",
      "recorded_at",
      "app",
      "env",
      "spec",
      "redaction",
      "session",
      "mock",
      "browser",
      "expect",
      "effects",
      "terminal",
    ]);
  });
});
