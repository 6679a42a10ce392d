import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { TRACE_FORMAT, TRACE_VERSION, TraceHeader, TraceStep, traceSchemaDocument } from "./schema.ts";
import { serializeTrace } from "./write.ts";
import { parseTrace } from "./read.ts";

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

const STEP = {
  id: "s0001",
  intent: 'Click "Save"',
  action: { type: "click", params: {} },
  selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Save" } }],
  sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: 5000 }], post: [] },
  artifacts: {},
};

const HEADER = {
  format: TRACE_FORMAT,
  version: TRACE_VERSION,
  trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
  recorded_at: "2025-01-02T03:04:05.678Z",
  app: { name: "Demo", adapter: "web" },
  env: { os: "linux", resolution: [1280, 800] },
};

describe("traceSchemaDocument", () => {
  const doc = traceSchemaDocument();

  test("declares draft-07 with header and step definitions", () => {
    expect(doc["$schema"]).toBe("http://json-schema.org/draft-07/schema#");
    expect(Object.keys(doc["definitions"] as object)).toEqual(["header", "step"]);
    expect(doc["anyOf"]).toEqual([{ $ref: "#/definitions/header" }, { $ref: "#/definitions/step" }]);
  });

  test("accepts a header line and a step line and refuses anything else", () => {
    const validate = ajv.compile(doc);
    expect(validate(HEADER)).toBe(true);
    expect(validate(STEP)).toBe(true);
    expect(validate({ hello: "world" })).toBe(false);
  });

  test("survives a JSON round trip as a plain schema", () => {
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(JSON.parse(JSON.stringify(doc)));
    expect(validate(STEP)).toBe(true);
  });
});

describe("TraceStep", () => {
  const validate = ajv.compile(TraceStep);

  test.each(["s0001", "s0042", "s12345"])("accepts the id %s", (id) => {
    expect(validate({ ...STEP, id })).toBe(true);
  });

  test.each(["step1", "s1", "s001", "S0001", "s0001a", ""])("rejects the id %p", (id) => {
    expect(validate({ ...STEP, id })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe("/id");
  });

  test.each([
    ["an unknown action type", { ...STEP, action: { type: "teleport", params: {} } }],
    ["an unknown selector tier", { ...STEP, selectors: [{ tier: "xpath", provenance: "rules", payload: {} }] }],
    ["a confidence above 1", { ...STEP, selectors: [{ tier: "text_anchor", provenance: "rules", confidence: 1.5, payload: {} }] }],
    ["an extra top-level key", { ...STEP, extra: true }],
    ["a screenshot that is not a sha256", { ...STEP, artifacts: { pre_screenshot: "abc" } }],
  ])("rejects %s", (_what, step) => {
    expect(validate(step)).toBe(false);
  });

  test.each([
    ["a scroll to the middle", { type: "scroll", params: { to: "middle" } }],
    ["a negative scroll offset", { type: "scroll", params: { to_px: -3 } }],
    ["an expectation with no known key", { type: "assert", params: { kind: "element_state", expect: { glows: true, timeout_ms: 10 }, selector_ref: 0 } }],
    ["a press_key without a key", { type: "press_key", params: { modifiers: [] } }],
    ["a drag without a drop ladder", { type: "drag", params: {} }],
    ["an unknown assert kind", { type: "assert", params: { kind: "vibes" } }],
  ])("rejects params that do not fit their action type: %s", (_what, action) => {
    expect(validate({ ...STEP, action })).toBe(false);
  });

  test.each([
    ["a click with an extra key (additive within v1)", { type: "click", params: { x_pct: 10, y_pct: 20, pressure: 0.5 } }],
    [
      "a page assertion",
      { type: "assert", params: { kind: "element_state", expect: { scope: "surface", url_contains: "/x", timeout_ms: 10 }, selector_ref: null } },
    ],
    ["a structured assertion", { type: "assert", params: { kind: "structured", key: "assert_sql", args: { query: "select 1" }, timeout_ms: 0 } }],
  ])("accepts %s", (_what, action) => {
    expect(validate({ ...STEP, action })).toBe(true);
  });

  test("rejects a step without selectors", () => {
    const { selectors: _drop, ...rest } = STEP;
    expect(validate(rest)).toBe(false);
  });
});

describe("TraceHeader", () => {
  const validate = ajv.compile(TraceHeader);

  test("accepts a minimal header", () => {
    expect(validate(HEADER)).toBe(true);
  });

  test.each([
    ["version 2", { ...HEADER, version: 2 }],
    ["another format", { ...HEADER, format: "other" }],
    ["a resolution with one number", { ...HEADER, env: { os: "linux", resolution: [1280] } }],
    ["a key that is no block name", { ...HEADER, "Colour!": "blue" }],
  ])("rejects %s", (_what, header) => {
    expect(validate(header)).toBe(false);
  });
});

describe("recording and redaction blocks", () => {
  const header = {
    ...HEADER,
    spec: { name: "Demo", path: "demo.flow.yaml", hash: `sha256:${"0".repeat(64)}` },
    recording: { format: "filmstrip/1", dir: ".flowproof/recordings/0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10", started_at: "2025-01-02T03:04:00.000Z" },
    redaction: [
      { target: { css: "#ssn" }, mode: "mask" },
      { target: { rect: [0, 0, 1280, 64] }, mode: "mask" },
    ],
  };
  const steps = [
    { ...STEP, artifacts: { recording: { start_ms: 0, end_ms: 530 } } },
    { ...STEP, id: "s0002", artifacts: { recording: { start_ms: 531, end_ms: 900, frames_dropped: "redaction" } } },
  ];

  test("an extended trace validates against the schema", () => {
    expect(ajv.validate(TraceHeader, header)).toBe(true);
    for (const s of steps) expect(ajv.validate(TraceStep, s)).toBe(true);
  });

  test("refuses a range with unknown keys or another drop reason", () => {
    expect(ajv.validate(TraceStep, { ...STEP, artifacts: { recording: { start_ms: 0, end_ms: 1, frames: [] } } })).toBe(false);
    expect(ajv.validate(TraceStep, { ...STEP, artifacts: { recording: { start_ms: 0, end_ms: 1, frames_dropped: "error" } } })).toBe(false);
    expect(ajv.validate(TraceHeader, { ...header, recording: { format: "webm/1", dir: "x" } })).toBe(false);
  });

  test("round-trips through write and read unchanged", () => {
    const text = serializeTrace(header as never, steps as never);
    const back = parseTrace(text, "t.trace.jsonl");
    expect(serializeTrace(back.header, back.steps)).toBe(text);
    expect(back.header.redaction).toEqual(header.redaction);
  });
});

describe("TraceHeader adapter blocks", () => {
  const validate = ajv.compile(TraceHeader);
  const shaped = {
    ...HEADER,
    mock: [{ url_contains: "/api/rates", method: "GET", body: { rate: 1.23 } }],
    session: { cookies: [{ name: "sid", value: "${SID}" }], local_storage: { cart: "x" } },
    terminal: { rows: 24 },
    app: { ...HEADER.app, backend: "uia", build: "7.2" },
  };

  test("accepts an adapter's own blocks beside `app` and its own fields in the app entry (their adapters' schemas check them)", () => {
    expect(validate(shaped)).toBe(true);
  });

  test("refuses a block whose name is no lowercase name", () => {
    expect(validate({ ...shaped, Terminal: {} })).toBe(false);
  });
});
