// Attribute, style and cookie assertions recorded then replayed in real Chromium against fixture
// pages (cookies set by the test server with Set-Cookie), plus a red path for every form.
// Recording detail is off: frames are the recording tests' business, and each frame costs CPU.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PAGES_ROOT, startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";

let server: TestServer;
let project: TmpProject;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
  const page = readFileSync(join(DEFAULT_PAGES_ROOT, "cookies.html"), "utf8");
  server.setRoute("/cookies.html", () => {
    const headers = new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    headers.append("set-cookie", "session_token=s3cr3t-session-value; Path=/; HttpOnly");
    headers.append("set-cookie", "remember_me=1; Path=/; Max-Age=3600");
    headers.append("set-cookie", "secure_pref=dark; Path=/; Secure");
    return new Response(page, { headers });
  });
});
afterAll(() => {
  server.stop();
  project.remove();
});

interface Case {
  readonly name: string;
  readonly page: string;
  readonly steps: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: "checks attribute values exactly, names case-insensitively, and presence",
    page: "styled.html",
    steps: [
      'assert: the "Save" attribute aria-pressed is false',
      'assert: the "Save" attribute data-state is Ready',
      'assert: the "Save" attribute DATA-STATE is Ready',
      'assert: the "Save" attribute data-state is not ready',
      'assert: the "Save" attribute data-missing is not anything',
      'assert: the "Save" has attribute title',
      'assert: the "Save" does not have attribute data-missing',
      'assert: the "Send" has attribute disabled',
      'assert: the "Help" attribute target is _blank',
      'rules: Click "Toggle"',
      'assert: the "Save" attribute aria-pressed is true',
      'assert: the "Save" attribute data-state is Busy',
    ],
  },
  {
    name: "compares colours canonically and text-transform",
    page: "styled.html",
    steps: [
      'assert: the "Danger zone" style color is red',
      `assert: 'the "Danger zone" style color is #f00'`,
      `assert: 'the "Danger zone" style color is #ff0000'`,
      'assert: the "Danger zone" style color is rgb(255, 0, 0)',
      'assert: the "Danger zone" style color is rgba(255, 0, 0, 1)',
      'assert: the "Danger zone" style color is not blue',
      'assert: the "Danger zone" style background-color is lightyellow',
      'assert: the "css:#shout" style text-transform is uppercase',
      'assert: the "css:#shout" style color is rgba(0, 128, 0, 0.5)',
      'assert: the "css:#shout" style color is not green',
      'rules: Click "Toggle"',
      'assert: the "Danger zone" style color is navy',
      `assert: 'the "Danger zone" style color is #000080'`,
    ],
  },
  {
    name: "checks cookie existence, httpOnly, persistence and secure",
    page: "cookies.html",
    steps: [
      'assert: cookie "session_token" exists',
      'assert: cookie "session_token" is httpOnly',
      'assert: cookie "remember_me" is persistent',
      'assert: cookie "secure_pref" is secure',
    ],
  },
];

describe("attribute, style and cookie assertions in real Chromium", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const spec = project.write(`${c.page.replace(".html", "")}-${CASES.indexOf(c)}.flow.yaml`, flowYaml(c.name, `${server.url}/${c.page}`, c.steps));
    const lines: string[] = [];
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", log: (l) => lines.push(l) });
    const failure = recorded.step_results.find((r) => r.status !== "passed");
    expect(failure?.detail ?? recorded.error).toBeUndefined();
    expect(recorded.ok).toBe(true);
    expectValidTrace(recorded.trace_path!);

    const replayLines: string[] = [];
    const replay = await run({ spec, recordingDetail: "off", log: (l) => replayLines.push(l) });
    expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(replay.report.steps.length).toBe(c.steps.length);
    expectValidResult(replay.report_path);
    // No cookie value reaches the trace, the log or the result.
    for (const text of [readFileSync(recorded.trace_path!, "utf8"), readFileSync(replay.report_path, "utf8"), ...lines, ...replayLines])
      expect(text).not.toContain("s3cr3t-session-value");
    if (c.page === "cookies.html") {
      expect([...lines, ...replayLines].filter((l) => l.includes("certifies nothing about production")).length).toBe(2);
    }
  });

  test("writes attribute, style and cookie expectations with the spec's keys", async () => {
    const spec = project.write(
      "keys.flow.yaml",
      flowYaml("keys", `${server.url}/cookies.html`, [
        'assert: cookie "remember_me" is persistent',
        "rules: Go to /styled.html",
        'assert: the "Save" attribute data-state is not Busy',
        'assert: the "Save" has attribute title',
        'assert: the "Danger zone" style color is red',
      ]),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.ok).toBe(true);
    const steps = readTrace<unknown, { action: { params: { expect?: unknown } } }>(recorded.trace_path!).steps.map((l) => l.action.params.expect);
    expect(steps[0]).toEqual({ scope: "surface", cookie: "remember_me", cookie_fact: "persistent", timeout_ms: 10_000 });
    expect(steps[2]).toEqual({ attribute: "data-state", value_equals: "Busy", negate: true, timeout_ms: 10_000 });
    expect(steps[3]).toEqual({ attribute: "title", present: true, timeout_ms: 10_000 });
    expect(steps[4]).toEqual({ style: "color", value_equals: "red", timeout_ms: 10_000 });
  });
});

describe("assertion red paths", () => {
  test.each([
    ["an attribute value that differs", "styled.html", 'assert: the "Save" attribute data-state is ready within 1s', 'data-state is "Ready"'],
    ["an attribute that is absent", "styled.html", 'assert: the "Save" attribute data-missing is x within 1s', "it has no attribute data-missing"],
    ["a negated attribute that matches", "styled.html", 'assert: the "Save" attribute data-state is not Ready within 1s', 'data-state is "Ready"'],
    ["a missing attribute", "styled.html", 'assert: the "Save" has attribute data-missing within 1s', "it has no attribute data-missing"],
    ["a present attribute declared absent", "styled.html", 'assert: the "Send" does not have attribute disabled within 1s', "it has disabled="],
    ["a colour that differs", "styled.html", 'assert: the "Danger zone" style color is blue within 1s', "color is rgb(255, 0, 0)"],
    ["a negated colour that matches", "styled.html", `assert: 'the "Danger zone" style color is not #f00 within 1s'`, "color is rgb(255, 0, 0)"],
    ["a text-transform that differs", "styled.html", 'assert: the "css:#shout" style text-transform is lowercase within 1s', "text-transform is uppercase"],
    ["a missing cookie, naming the cookies set", "cookies.html", 'assert: cookie "sesion_token" exists within 1s', 'no cookie "sesion_token" is set for'],
    ["a cookie readable by page scripts", "cookies.html", 'assert: cookie "remember_me" is httpOnly within 1s', "readable by page scripts"],
    ["a session cookie declared persistent", "cookies.html", 'assert: cookie "session_token" is persistent within 1s', "a session cookie"],
    ["a cookie that is not secure", "cookies.html", 'assert: cookie "remember_me" is secure within 1s', "not secure"],
  ] as const)("fails %s", async (name, page, step, seen) => {
    const spec = project.write(`red-${name.replace(/\W+/g, "-")}.flow.yaml`, flowYaml(name, `${server.url}/${page}`, [step]));
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.ok).toBe(false);
    const detail = recorded.step_results[0]?.detail ?? "";
    expect(recorded.step_results[0]?.status, recorded.error).toBe("failed");
    expect(detail).toContain(seen);
    expect(detail).not.toContain("s3cr3t-session-value");
    if (name.startsWith("a missing cookie")) expect(detail).toContain("cookies set: remember_me, secure_pref, session_token");
  });
});
