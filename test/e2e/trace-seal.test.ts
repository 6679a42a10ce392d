// A trace's seal covers it whole, through the real CLI and real Chromium: every hand edit of a
// recorded trace's header or steps is refused (exit 2), also when the editor recomputes the seal,
// since what decides a verdict comes from the flow; an unsealed trace replays only with the
// opt-in (or once `trace --reseal` sealed it); FLOWPROOF_TRACE_KEY signs at record and verifies at
// replay, so an edited trace sealed again without the key is refused; the key is never printed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli, type CliResult } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { resealed } from "../support/trace.ts";

const KEY = "team-trace-key-9f8e7d6c5b4a3210";
const GREET = ['rules: Type Ada into the "Your name" field', 'rules: Press the "Greet" button', "assert: page shows Hello, Ada!"];

let server: TestServer;
let project: TmpProject;
let spec: string;
let trace: string;
let recorded: string;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  // A broken app: greets nobody. Only a mock (or another app) could make the flow pass.
  server.setRoute(
    "/broken.html",
    () =>
      new Response('<!doctype html><title>Broken</title><input placeholder="Your name"><button>Greet</button><p id="out"></p>', {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  project = tmpProject("flowproof-seal-");
  spec = project.write("greet.flow.yaml", flowYaml("Greet", `${server.url}/greeter.html`, GREET));
  trace = join(project.dir, "greet.trace.jsonl");
  const rec = await runCli(["record", spec, "--recording-detail", "off"], { cwd: project.dir });
  expect(rec.code).toBe(0);
  recorded = readFileSync(trace, "utf8");
});
afterAll(() => {
  server.stop();
  project.remove();
});

const lines = () => recorded.trimEnd().split("\n");
const header = () => JSON.parse(lines()[0]!) as Record<string, unknown>;
const withHeader = (h: Record<string, unknown>) => `${[JSON.stringify(h), ...lines().slice(1)].join("\n")}\n`;
const run = (flags: string[] = [], env: Record<string, string | undefined> = {}) =>
  runCli(["run", spec, "--recording-detail", "off", ...flags], { cwd: project.dir, env });

/** The recorded trace with `text` in its place while `body` runs. */
async function withTrace<T>(text: string, body: () => Promise<T>): Promise<T> {
  writeFileSync(trace, text);
  try {
    return await body();
  } finally {
    writeFileSync(trace, recorded);
  }
}

function refused(r: CliResult, code: string, message: string): void {
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`[${code}]`);
  expect(r.stderr).toContain(message);
  expect(r.stdout).not.toContain("PASS");
  expect(r.stdout).not.toContain("XFAIL");
}

describe("every hand edit of a trace is refused", () => {
  test("the record seals the whole trace", () => {
    expect(header()["integrity"]).toMatchObject({ scope: "trace", steps: 3 });
  });

  const edits: [string, () => Record<string, unknown>][] = [
    ["an expect added", () => ({ ...header(), expect: { fail: "whatever", step: "s0003" } })],
    [
      "a mock added for the app's URL",
      () => ({
        ...header(),
        app: { ...(header()["app"] as object), url: `${server.url}/broken.html` },
        mock: [{ url_contains: "/greeter", status: 200, content_type: "text/html", body: "<p>Hello, Ada!</p>" }],
      }),
    ],
    ["app.url edited", () => ({ ...header(), app: { ...(header()["app"] as object), url: `${server.url}/broken.html` } })],
  ];

  test.each(edits)("%s: the seal no longer matches", async (_what, edit) => {
    refused(await withTrace(withHeader(edit()), () => run()), "bad-trace", "its header or steps were edited");
  });

  test.each(edits)("%s, with the seal recomputed: the header disagrees with the flow", async (_what, edit) => {
    const r = await withTrace(resealed(withHeader(edit())), () => run());
    refused(r, "bad-trace", "greet.trace.jsonl disagrees with greet.flow.yaml: the trace's");
    expect(r.stderr).toContain("record it again (flowproof record greet.flow.yaml)");
  });

  test("expect added, sealed again: the message names both values", async () => {
    const r = await withTrace(resealed(withHeader(edits[0]![1]())), () => run());
    expect(r.stderr).toContain("the trace's `expect.fail` is \"whatever\", but the flow's `expect: fail:` is none");
  });

  test("a step edited and the steps' SHA-256 recomputed as older seals had it", async () => {
    const steps = lines()
      .slice(1)
      .map((l) => l.replace("Hello, Ada!", "Hello"));
    const integrity = { ...(header()["integrity"] as object), sha256: createHash("sha256").update(steps.join("\n")).digest("hex") };
    refused(
      await withTrace(`${[JSON.stringify({ ...header(), integrity }), ...steps].join("\n")}\n`, () => run()),
      "bad-trace",
      "its header or steps were edited",
    );
  });

  test("integrity deleted: an unsealed trace, refused unless the user opts in", async () => {
    const { integrity: _seal, ...unsealed } = header();
    await withTrace(withHeader(unsealed), async () => {
      const r = await run();
      refused(r, "unsealed-trace", "greet.trace.jsonl is not sealed");
      expect(r.stderr).toContain("--allow-unsealed (or FLOWPROOF_ALLOW_UNSEALED=1)");
      expect((await run(["--allow-unsealed"])).code).toBe(0);
      expect((await run([], { FLOWPROOF_ALLOW_UNSEALED: "1" })).code).toBe(0);
      // heal reads the old trace under the same rule.
      const heal = await runCli(["heal", spec], { cwd: project.dir });
      refused(heal, "unsealed-trace", "greet.trace.jsonl is not sealed");
      expect((await runCli(["heal", spec, "--allow-unsealed"], { cwd: project.dir })).code).toBe(0);
      // A suite run takes the opt-in too.
      expect((await runCli(["run", project.dir, "--recording-detail", "off"], { cwd: project.dir })).code).toBe(2);
      expect((await runCli(["run", project.dir, "--recording-detail", "off", "--allow-unsealed"], { cwd: project.dir })).code).toBe(0);
    });
  }, 120_000);

  test("an older trace sealed over its steps only is refused the same way; `trace --reseal` seals it whole", async () => {
    const steps = lines().slice(1);
    const older = { ...header(), integrity: { steps: steps.length, sha256: createHash("sha256").update(steps.join("\n")).digest("hex") } };
    await withTrace(withHeader(older), async () => {
      refused(await run(), "unsealed-trace", "is sealed by an older flowproof: its seal covers the steps only");
      const sealed = await runCli(["trace", spec, "--reseal"], { cwd: project.dir });
      expect(sealed.code).toBe(0);
      expect(sealed.stdout).toContain("greet.trace.jsonl: was sealed over its steps only, now sealed");
      expect(JSON.parse(readFileSync(trace, "utf8").split("\n")[0]!).integrity).toMatchObject({ scope: "trace", steps: 3 });
      expect((await run()).code).toBe(0);
    });
  }, 60_000);

  test("`trace --reseal` refuses a header that disagrees with the flow, and leaves it as it is", async () => {
    const { integrity: _seal, ...unsealed }: Record<string, unknown> = { ...header(), expect: { fail: "whatever", step: "s0003" } };
    await withTrace(withHeader(unsealed), async () => {
      const r = await runCli(["trace", spec, "--reseal"], { cwd: project.dir });
      refused(r, "bad-trace", 'the trace\'s `expect.fail` is "whatever"');
      expect(JSON.parse(readFileSync(trace, "utf8").split("\n")[0]!).integrity).toBeUndefined();
    });
  });
});

describe("FLOWPROOF_TRACE_KEY signs at record and verifies at replay", () => {
  let signed = "";
  beforeAll(async () => {
    const rec = await runCli(["record", spec, "--recording-detail", "off"], { cwd: project.dir, env: { FLOWPROOF_TRACE_KEY: KEY } });
    expect(rec.code).toBe(0);
    expect(`${rec.stdout}${rec.stderr}`).not.toContain(KEY);
    signed = readFileSync(trace, "utf8");
    writeFileSync(trace, recorded);
  });

  test("a signed trace replays with the key; without it, with a warning that it was not verified", async () => {
    expect(JSON.parse(signed.split("\n")[0]!).integrity.hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(signed).not.toContain(KEY);
    await withTrace(signed, async () => {
      const verified = await run([], { FLOWPROOF_TRACE_KEY: KEY });
      expect(verified.code).toBe(0);
      expect(`${verified.stdout}${verified.stderr}`).not.toContain(KEY);
      const unverified = await run();
      expect(unverified.code).toBe(0);
      expect(unverified.stderr).toContain("WARNING: greet.trace.jsonl is signed, but FLOWPROOF_TRACE_KEY is not set, so its signature was not verified");
    });
  }, 60_000);

  test("a signed trace edited and sealed again without the key is refused with the key set", async () => {
    const edited = signed.replace("Hello, Ada!", "Hello");
    // Sealed again by hand, keeping the old signature.
    const kept = (() => {
      const [h, ...rest] = resealed(edited).trimEnd().split("\n");
      return `${[JSON.stringify({ ...JSON.parse(h!), integrity: { ...JSON.parse(h!).integrity, hmac: JSON.parse(signed.split("\n")[0]!).integrity.hmac } }), ...rest].join("\n")}\n`;
    })();
    const r1 = await withTrace(kept, () => run([], { FLOWPROOF_TRACE_KEY: KEY }));
    refused(r1, "trace-signature", "greet.trace.jsonl's signature (integrity.hmac) does not match FLOWPROOF_TRACE_KEY");
    // Sealed again with flowproof's own tool, without the key: the signature is dropped, so it is unsigned.
    const r2 = await withTrace(resealed(edited), () => run([], { FLOWPROOF_TRACE_KEY: KEY }));
    refused(r2, "trace-signature", "greet.trace.jsonl is not signed, but FLOWPROOF_TRACE_KEY is set");
    for (const r of [r1, r2]) expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
  }, 60_000);

  test("an unsigned trace replayed with the key set is refused, even with --allow-unsealed", async () => {
    refused(await run([], { FLOWPROOF_TRACE_KEY: KEY }), "trace-signature", "is not signed, but FLOWPROOF_TRACE_KEY is set");
    refused(await run(["--allow-unsealed"], { FLOWPROOF_TRACE_KEY: KEY }), "trace-signature", "is not signed");
  });

  test("a key too short to sign is refused at record, without echoing it", async () => {
    const r = await runCli(["record", spec, "--recording-detail", "off"], { cwd: project.dir, env: { FLOWPROOF_TRACE_KEY: "hunter2" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("FLOWPROOF_TRACE_KEY is set but shorter than 16 characters");
    expect(`${r.stdout}${r.stderr}`).not.toContain("hunter2");
    expect(readFileSync(trace, "utf8")).toBe(recorded);
  });
});
