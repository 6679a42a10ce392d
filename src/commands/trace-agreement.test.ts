import { afterAll, describe, expect, test } from "bun:test";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { TraceError } from "../diagnostics/diagnostic.ts";
import type { TraceHeader } from "../trace/schema.ts";
import type { Flow } from "../spec/flow.ts";
import { builtinCatalog, loadFlowText } from "../../test/support/surfaces.ts";
import { targetOfFlow } from "./execution.ts";
import { checkTraceAgreement, traceDisagreements } from "./trace-agreement.ts";

const catalog = builtinCatalog();
const project = tmpProject("flowproof-agreement-");
afterAll(() => project.remove());
let n = 0;

/** The flow file written to disk and loaded (with `suite` defaults, when given). */
function flow(text: string, suite?: Parameters<typeof loadFlowText>[2]): Flow {
  const file = project.write(`f${++n}.flow.yaml`, text);
  const r = loadFlowText(file, text, suite ?? {});
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
  return { ...r.flow, file };
}

const FLOW = `name: Checkout
app: web
url: \${SHOP}/checkout
mock:
  - { url_contains: /api/price, body: { total: 90 } }
session:
  cookies:
    - { name: sid, value: "\${SID}" }
redact:
  - target: { css: "#ssn" }
effects: strict
expect:
  fail: "BUG-2: total wrong"
steps:
  - assert: page shows Total 90.00
`;

/** The header record writes for `f` (the parts a flow decides). */
function headerOf(f: Flow): TraceHeader {
  const target = targetOfFlow(f, catalog);
  return {
    format: "flowproof-trace",
    version: 1,
    trace_id: "0b7f3c52-5f0e-4c1e-9a55-7d4b1c2e9f10",
    recorded_at: "2025-01-02T03:04:05.678Z",
    app: target.app,
    env: { os: "linux", resolution: [1280, 800] },
    spec: { name: f.name },
    ...(f.redact ? { redaction: [...f.redact] } : {}),
    ...target.top,
    ...(f.effects ? { effects: f.effects } : {}),
    ...(f.expect ? { expect: { fail: f.expect.fail, step: "s0001" } } : {}),
  };
}

describe("traceDisagreements", () => {
  const f = flow(FLOW);
  const header = headerOf(f);

  test("a header as record writes it agrees with its flow", () => {
    expect(traceDisagreements(header, f, catalog)).toEqual([]);
    // The adapter's own facts (a backend) are the recording's, not the flow's.
    expect(traceDisagreements({ ...header, app: { ...header.app, backend: "uia" } }, f, catalog)).toEqual([]);
  });

  test("a Windows app's recorded keys may be refined by what the surface reported (geometry as applied), never changed", () => {
    const text = 'name: W\napp: {command: "app.exe", window_title: "App"}\nwindow: {width: 640, height: 480}\nsteps:\n  - rules: Type x\n';
    const file = project.write("w.flow.yaml", text);
    const r = loadFlowText(file, text, { platform: "win32" });
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    const w = { ...r.flow, file };
    const recorded = headerOf(w);
    const applied = { ...recorded, app: { ...recorded.app, backend: "uia", geometry: { x: 10, y: 20, width: 640, height: 480 } } };
    expect(traceDisagreements(applied, w, catalog)).toEqual([]);
    expect(traceDisagreements({ ...applied, app: { ...applied.app, command: "evil.exe" } }, w, catalog).map((d) => d.trace)).toEqual(["app.command"]);
    expect(
      traceDisagreements({ ...applied, app: { ...applied.app, geometry: { x: 10, y: 20, width: 800, height: 480 } } }, w, catalog).map((d) => d.trace),
    ).toEqual(["app.geometry"]);
  });

  test.each([
    [
      "an expect added to a flow without one",
      flow(FLOW.replace(/expect:\n {2}fail: .*\n/, "")),
      header,
      "the trace's `expect.fail` is \"BUG-2: total wrong\", but the flow's `expect: fail:` is none",
    ],
    [
      "another known failure",
      f,
      { ...header, expect: { fail: "whatever", step: "s0001" } },
      'the trace\'s `expect.fail` is "whatever", but the flow\'s `expect: fail:` is "BUG-2: total wrong"',
    ],
    [
      "the app's URL edited",
      f,
      { ...header, app: { ...header.app, url: "http://evil.example/" } },
      'the trace\'s `app.url` is "http://evil.example/", but the flow\'s `url:` is "${SHOP}/checkout"',
    ],
    [
      "a mock added",
      f,
      { ...header, mock: [...(header.mock as unknown[]), { url_contains: "/", status: 200, body: "ok" }] },
      'the trace\'s `mock` is [{"body":{"total":90},"url_contains":"/api/price"},{"body":"ok","status":200,"url_contains":"/"}], but the flow\'s `mock:` is [{"body":{"total":90},"url_contains":"/api/price"}]',
    ],
    [
      "the redaction dropped",
      f,
      { ...header, redaction: undefined },
      'the trace\'s `redaction` is none, but the flow\'s `redact:` is [{"mode":"mask","target":{"css":"#ssn"}}]',
    ],
    ["effects turned off", f, { ...header, effects: "off" as const }, 'the trace\'s `effects` is "off", but the flow\'s `effects:` is "strict"'],
  ])("%s is named with both values", (_what, f2, h, message) => {
    const e = (() => {
      try {
        checkTraceAgreement(h as TraceHeader, `${project.dir}/a.trace.jsonl`, f2, catalog);
      } catch (error) {
        return error as TraceError;
      }
      throw new Error("expected a TraceError");
    })();
    expect(e).toBeInstanceOf(TraceError);
    expect(e.code).toBe("bad-trace");
    expect(e.diagnostics.map((d) => d.message.replace(/^.* disagrees with [^:]*: /, ""))).toEqual([message]);
    expect(e.diagnostics[0]!.hint).toContain("record it again (flowproof record");
  });

  test("a session that differs is named without its values", () => {
    const edited = { ...header, session: { cookies: [{ name: "sid", value: "stolen-value" }] } };
    const [d] = traceDisagreements(edited, f, catalog);
    expect(d).toMatchObject({ trace: "session", hidden: true });
    try {
      checkTraceAgreement(edited, `${project.dir}/a.trace.jsonl`, f, catalog);
    } catch (error) {
      expect((error as TraceError).message).toContain("the trace's `session` is not the flow's `session:` (values not shown)");
      expect(JSON.stringify((error as TraceError).diagnostics)).not.toContain("stolen-value");
    }
  });

  test("what the flow takes from its suite.yaml is the recording's: an edited suite.yaml does not change a recorded flow", () => {
    const text = "name: Suited\napp: web\nurl: http://127.0.0.1:3000/\nsession: admin\nsteps:\n  - assert: page shows x\n";
    const suite = {
      suite: {
        file: "suite.yaml",
        values: { browser: { viewport: { width: 390, height: 700 } } },
        maps: { identities: { admin: { cookies: [{ name: "sid", value: "${SID}" }] } } },
      },
    };
    const suited = flow(text, suite);
    const recorded = headerOf(suited);
    expect(recorded.browser).toEqual({ viewport: { width: 390, height: 700 } });
    const edited = flow(text, {
      suite: {
        file: "suite.yaml",
        values: { browser: { viewport: { width: 500, height: 700 } } },
        maps: { identities: { admin: { cookies: [{ name: "sid", value: "${OTHER}" }] } } },
      },
    });
    // Written in the flow itself, they are the flow's, and compared.
    expect(
      traceDisagreements(recorded, edited, catalog, { session: { cookies: [] }, browser: { viewport: {} } })
        .map((d) => d.trace)
        .sort(),
    ).toEqual(["browser", "session"]);
    expect(traceDisagreements(recorded, edited, catalog)).toEqual([]);
    // A mock the flow does not write is never the suite's.
    expect(traceDisagreements({ ...recorded, mock: [{ url_contains: "/" }] }, edited, catalog).map((d) => d.trace)).toEqual(["mock"]);
  });
});
