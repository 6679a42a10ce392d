// Behaviours a new user meets on real web apps, each on a fixture page of its own, recorded then
// replayed in real Chromium (API flows against a real local HTTP server): counting a top-level
// JSON array, and the messages a failed step leaves (asserted verbatim).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { runCli } from "../support/cli.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult } from "../support/schemas.ts";
import { expectGreen } from "../support/e2e.ts";
import type { RunReport } from "../../src/report/schema.ts";

let server: TestServer;
let project: TmpProject;
let resets = 1;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject("flowproof-web-fixes-");
  server.setRoute("/api/todos", () =>
    Response.json([
      { id: 1, title: "Walk the dog" },
      { id: 2, title: "Buy milk" },
      { id: 3, title: "Call Ada" },
    ]),
  );
  server.setRoute("/api/profile", () => Response.json({ name: "Ada", todos: 3 }));
  // A page whose "Reset" button is single while recording and doubled on replay.
  server.setRoute(
    "/resets.html",
    () =>
      new Response(
        `<!doctype html><html><body><p id="out"></p>${"<button onclick=\"document.getElementById('out').textContent='Reset done'\">Reset</button>".repeat(resets)}</body></html>`,
        { headers: { "content-type": "text/html" } },
      ),
  );
});
afterAll(() => {
  server.stop();
  project.remove();
});

let flows = 0;
const apiFlow = (name: string, steps: string) => `name: ${JSON.stringify(name)}\napp: api\nsteps:\n${steps}`;

/** Records the flow on a fixture page, then replays it: every step passes both times. */
async function green(page: string, steps: readonly string[]): Promise<void> {
  await greenText(flowYaml(`Green ${flows + 1}`, `${server.url}/${page}`, steps));
}

/** Records the flow file text, then replays it: every step passes both times. */
async function greenText(text: string, env: Record<string, string> = {}): Promise<void> {
  await expectGreen(project.write(`green-${++flows}.flow.yaml`, text), { env });
}

/** Records the flow file text with a short step bound; returns the failed step's detail. */
async function redText(text: string, stepTimeoutMs = 3_000, env: Record<string, string> = {}): Promise<string> {
  const spec = project.write(`red-${++flows}.flow.yaml`, text);
  const recorded = await record({
    spec,
    author: "rules",
    recordingDetail: "off",
    env: { ...process.env, FLOWPROOF_STEP_TIMEOUT_MS: String(stepTimeoutMs), ...env },
  });
  expect(recorded.ok).toBe(false);
  const failed = recorded.step_results.find((r) => r.status !== "passed");
  expect(failed).toBeDefined();
  return failed?.detail ?? "";
}

const web = (page: string, steps: readonly string[]) => flowYaml(`Web ${flows + 1}`, `${server.url}/${page}`, steps);

describe("assert_api counts the items of a top-level JSON array", () => {
  test("count and count_at_least without body_json count the array the response is", async () => {
    await greenText(
      apiFlow(
        "Todos API",
        `  - assert_api:
      request: GET ${server.url}/api/todos
      count: 3
  - assert_api:
      request: GET ${server.url}/api/todos
      count_at_least: 1
  - assert_api:
      request: GET ${server.url}/api/todos
      body_json: 0.title
      equals: Walk the dog
`,
      ),
    );
  });

  test("a wrong count and a body that is not an array say so", async () => {
    expect(
      await redText(
        apiFlow(
          "Wrong count",
          `  - assert_api:
      request: GET ${server.url}/api/todos
      count: 5
      timeout_seconds: 0
`,
        ),
      ),
    ).toBe("assert_api: the response body has 3 elements, expected exactly 5 elements");
    expect(
      await redText(
        apiFlow(
          "Not an array",
          `  - assert_api:
      request: GET ${server.url}/api/profile
      count_at_least: 1
      timeout_seconds: 0
`,
        ),
      ),
    ).toBe("assert_api: the response body is an object, count requires an array");
  });
});

describe("the messages a failed recording leaves", () => {
  test("a failed computed assertion shows the remembered value and the result it expected", async () => {
    const detail = await redText(
      web("wallet.html", [
        "assert: page shows Balance loaded",
        'rules: Remember the "css:#balance" as balance',
        'rules: Press the "Pay 10.00" button',
        'assert: the "css:#balance" shows ${captured.balance} - 12.34 within 1s',
      ]),
    );
    expect(detail).toBe('expected the "css:#balance" to show ${captured.balance} - 12.34 (100.00 - 12.34 = 87.66) within 1000 ms; it shows "90.00"');
  });

  test("a remembered value in expected text is shown as it was remembered; a ${VAR} value stays masked", async () => {
    const detail = await redText(
      web("wallet.html", [
        "assert: page shows Balance loaded",
        'rules: Remember the "css:#balance" as balance',
        'rules: Type ${MEMO_CODE} into the "Memo" field',
        'assert: the "Memo" field contains ${captured.balance} ${MEMO_CODE} within 1s',
      ]),
      3_000,
      { MEMO_CODE: "memo-7781-secret" },
    );
    expect(detail).toBe('expected the "Memo" field to show "${captured.balance} ${MEMO_CODE}" (that is, "100.00 ${MEMO_CODE}") within 1000 ms');
  });

  test("a failed record keeps its report, frames, the page's DOM and its console in a failed-records bundle named in the message, secrets redacted", async () => {
    const own = tmpProject("flowproof-failed-record-");
    try {
      const memo = "memo-3391-secret";
      own.write(
        "pay.flow.yaml",
        web("wallet.html", [
          "assert: page shows Balance loaded",
          'rules: Type ${MEMO_CODE} into the "Memo" field',
          'rules: Press the "Pay 10.00" button',
          'assert: the "css:#balance" shows 87.66 within 1s',
          'rules: Press the "Pay 12.34" button',
        ]),
      );
      const r = await runCli(["record", "pay.flow.yaml", "--author", "rules", "--json"], { cwd: own.dir, env: { MEMO_CODE: memo } });
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout) as { trace_path: null; error: string; failed_record_dir: string };
      expect(out.trace_path).toBeNull();
      expect(out.failed_record_dir).toMatch(/^\.flowproof\/failed-records\/\d{8}T\d{6}\.\d{3}Z\/$/);
      expect(out.error).toBe(
        `step s0004 (the "css:#balance" shows 87.66 within 1s) failed: expected the "css:#balance" to show "87.66" within 1000 ms; it shows "90.00"; no trace was written; the failure's evidence (report.html, frames, debug/dom.html, debug/console.log) is in ${out.failed_record_dir}`,
      );
      const dir = join(own.dir, out.failed_record_dir);
      expect(readdirSync(join(dir, "recording")).filter((f) => f.endsWith(".png")).length).toBeGreaterThan(3);
      expect(readFileSync(join(dir, "debug", "dom.html"), "utf8")).toContain("90.00");
      // The recording as a reviewer reads a run: every step with its status and frames, the failure's detail.
      const report = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as RunReport;
      expectValidResult(join(dir, "result.json"));
      expect(report).toMatchObject({ passed: false, outcome: "failed" });
      expect(report.steps.map((s) => s.status)).toEqual(["passed", "passed", "passed", "failed", "skipped"]);
      expect(report.steps[3]!.detail).toBe('expected the "css:#balance" to show "87.66" within 1000 ms; it shows "90.00"');
      for (const f of report.recording!.frames) expect(existsSync(join(dir, f.file))).toBe(true);
      const html = readFileSync(join(dir, "report.html"), "utf8");
      expect(html).toContain("FAIL");
      expect(html).toContain("it shows &quot;90.00&quot;");
      expect(html).toContain(report.recording!.frames[0]!.file);
      expect(readFileSync(join(dir, "debug", "console.log"), "utf8")).toContain("console.log: paid 10.00 with memo ${MEMO_CODE}");
      expect(readdirSync(join(own.dir, ".flowproof", "recordings"))).toEqual([]);
      for (const file of own.files()) expect({ file, leaked: readFileSync(join(own.dir, file)).includes(memo) }).toEqual({ file, leaked: false });
      // The human form names the same directory.
      const human = await runCli(["record", "pay.flow.yaml", "--author", "rules"], { cwd: own.dir, env: { MEMO_CODE: memo } });
      expect(human.stderr).toMatch(
        /RECORD FAILED: .*; no trace was written; the failure's evidence \(report\.html, frames, debug\/dom\.html, debug\/console\.log\) is in \.flowproof\/failed-records\/\S+\/\n/,
      );
    } finally {
      own.remove();
    }
  });

  test("an ordinal past the matches and a count of nothing read as sentences", async () => {
    expect(await redText(web("wallet.html", ['rules: Press the 2nd "Pay 12.34" button']), 1_000)).toBe(
      'timed out after 1000 ms waiting for the 2nd "Pay 12.34" button to appear: text "Pay 12.34" (button) #2 matched only 1 element',
    );
    expect(await redText(web("wallet.html", ['rules: Remember how many "css:.receipt" appear as receipts']), 1_000)).toBe(
      'the "css:.receipt" never appeared within 1000 ms, and a count of zero is not remembered; to check that none appear, assert `the "css:.receipt" appears 0 times`',
    );
  });

  test("the steps not reached after a failed record are each numbered", async () => {
    project.write(
      "not-reached.flow.yaml",
      web("wallet.html", [
        "assert: page shows Balance loaded",
        'assert: the "css:#status" shows Paid within 1s',
        'rules: Press the "Pay 12.34" button',
        "assert: page shows Paid",
        'assert: the "css:#balance" shows 87.66',
      ]),
    );
    const r = await runCli(["record", "not-reached.flow.yaml", "--author", "rules"], { cwd: project.dir });
    expect(r.code).toBe(1);
    const lines = (r.stdout + r.stderr).split("\n").filter((l) => l.startsWith("[AUTHOR"));
    expect(lines).toEqual([
      "[AUTHOR rules] 1: page shows Balance loaded",
      '[AUTHOR rules] 2: the "css:#status" shows Paid within 1s — FAILED: expected the "css:#status" to show "Paid" within 1000 ms; it shows "Ready"',
      '[AUTHOR rules] 3: Press the "Pay 12.34" button (not reached)',
      "[AUTHOR rules] 4: page shows Paid (not reached)",
      '[AUTHOR rules] 5: the "css:#balance" shows 87.66 (not reached)',
    ]);
  });
});

describe('an element-level negative: the "…" does not show', () => {
  test("waits until the element no longer shows the text, where the page as a whole still does", async () => {
    await green("wallet.html", [
      'assert: the "css:#status" does not show Loading',
      'assert: the "css:#status" does not show Error',
      "assert: page shows Error reports",
      'rules: Press the "Pay 12.34" button',
      'assert: the "css:#status" shows Paid',
      'assert: the "css:#status" does not show Ready',
    ]);
  });

  test("fails when the element shows the text, saying what it shows", async () => {
    const detail = await redText(
      web("wallet.html", [
        "rules: Wait until page shows Balance loaded",
        'rules: Press the "Break the card" button',
        'assert: the "css:#status" does not show Error within 1s',
      ]),
    );
    expect(detail).toBe('expected the "css:#status" not to show "Error" within 1000 ms; it shows "Error: card declined"');
  });
});

describe("remembering a value that loads after the page", () => {
  test("waiting for a sign that loading finished before Remember reads the loaded value", async () => {
    await green("wallet.html?delay=1500", [
      "rules: Wait until page shows Balance loaded",
      'rules: Remember the "css:#balance" as balance',
      'rules: Press the "Pay 12.34" button',
      'assert: the "css:#balance" shows ${captured.balance} - 12.34',
    ]);
  });

  test("remembering at once reads the placeholder, and the computed assertion says so", async () => {
    const detail = await redText(
      web("wallet.html?delay=4000", [
        'rules: Remember the "css:#balance" as balance',
        "rules: Wait until page shows Balance loaded",
        'rules: Press the "Pay 12.34" button',
        'assert: the "css:#balance" shows ${captured.balance} - 12.34 within 3s',
      ]),
    );
    expect(detail).toBe('expected the "css:#balance" to show ${captured.balance} - 12.34 (0.00 - 12.34 = -12.34) within 3000 ms; it shows "87.66"');
  });
});

describe("what the docs say assertions read", () => {
  test("field contains on a <select> reads the selected option's text, not its value", async () => {
    await green("wallet.html", [
      'rules: Select Euro from the "Currency" dropdown',
      'assert: the "Currency" dropdown contains Euro',
      'assert: the "Currency" field contains Euro',
    ]);
    expect(await redText(web("wallet.html", ['rules: Select Euro from the "Currency" dropdown', 'assert: the "Currency" field contains 978 within 1s']))).toBe(
      'expected the "Currency" field to show "978" within 1000 ms; it shows "Euro"',
    );
  });

  test("page shows does not read the text inside an iframe; a frame target does", async () => {
    await green("frames.html", ['assert: the "css:body" in the iframe "checkout" shows Card accepted']);
    expect(await redText(web("frames.html", ["assert: page shows Card accepted within 1s"]))).toStartWith(
      'expected the page to show "Card accepted" within 1000 ms; the page shows ',
    );
  });
});

describe("web storage assertions wait for a debounced save", () => {
  test("local and session storage: the assertion waits for the save, so a reload right after keeps the data", async () => {
    await green("todos-storage.html", [
      'rules: Type Walk the dog into the "New todo" field',
      "rules: Press Enter",
      'assert: local storage "todos" contains Walk the dog',
      "rules: Reload the page",
      'assert: the "css:#list" shows Walk the dog',
      'rules: Type Buy milk into the "New todo" field',
      'assert: session storage "draft" contains Buy milk',
    ]);
  });

  test("a value the key does not hold, and a key that is not there, say what storage holds", async () => {
    expect(
      await redText(
        web("todos-storage.html", [
          'rules: Type Walk the dog into the "New todo" field',
          "rules: Press Enter",
          'assert: local storage "todos" contains Feed the cat within 2s',
        ]),
      ),
    ).toBe('expected local storage "todos" to contain "Feed the cat" within 2000 ms; it holds "[\\"Walk the dog\\"]"');
    expect(
      await redText(
        web("todos-storage.html", ['rules: Type Buy milk into the "New todo" field', 'assert: session storage "drafts" contains Buy milk within 2s']),
      ),
    ).toBe('expected session storage "drafts" to contain "Buy milk" within 2000 ms; session storage has no key "drafts" (keys: "draft")');
  });

  test("a key whose expected text is a secret reference never shows the stored value, in the message or the run's reports", async () => {
    const token = "tok-5577-secret";
    const spec = project.write(
      "storage-secret.flow.yaml",
      web("todos-storage.html", ['rules: Type ${API_TOKEN} into the "Token" field', 'assert: local storage "token" contains ${EXPECTED_TOKEN} within 3s']),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: { ...process.env, API_TOKEN: token, EXPECTED_TOKEN: token } });
    expect(recorded.ok).toBe(true);
    const replay = await run({ spec, recordingDetail: "off", env: { ...process.env, API_TOKEN: token, EXPECTED_TOKEN: "tok-other-0000" } });
    expect(replay.report.passed).toBe(false);
    expect(replay.report.steps[1]!.detail).toBe(
      'expected local storage "token" to contain "${EXPECTED_TOKEN}" within 3000 ms (captured: debug/dom.html, debug/console.log)',
    );
    const files = readdirSync(replay.run_dir, { recursive: true })
      .map(String)
      .filter((f) => statSync(join(replay.run_dir, f)).isFile());
    expect(files).toContain("report.html");
    for (const file of files) {
      const text = readFileSync(join(replay.run_dir, file), "utf8");
      expect({ file, leaked: text.includes(token) || text.includes("tok-other-0000") }).toEqual({ file, leaked: false });
    }
  });
});

describe("ambiguous plain labels", () => {
  test('an ordinal or a scope says which of two "Save" buttons; a label naming one element twice is not ambiguous', async () => {
    await green("duplicates.html", [
      'rules: Press the 2nd "Save" button',
      'assert: the "css:#out" shows Saved publish',
      'rules: Press the "Save" button in the item containing "Draft notes"',
      'assert: the "css:#out" shows Saved draft',
      'rules: Type ada@example.com into the "Email" field',
      'assert: the "css:#out" shows Email ada@example.com',
    ]);
  });

  test("recording refuses a label that names several elements, listing them with the ordinal or scope to write", async () => {
    expect(await redText(web("duplicates.html", ['rules: Press the "Save" button']))).toBe(
      'the "Save" button: 2 elements match "Save": 1st <button#save-draft> "Save", 2nd <button#save-publish> "Save"; say which one with an ordinal, e.g. `the 2nd "Save" button`, or a scope, e.g. `the "Save" button in the item containing "…"`',
    );
    expect(await redText(web("duplicates.html", ['assert: the "Save" is enabled']))).toBe(
      'the "Save": 2 elements match "Save": 1st <button#save-draft> "Save", 2nd <button#save-publish> "Save"; say which one with an ordinal, e.g. `the 2nd "Save"`, or a scope, e.g. `the "Save" in the item containing "…"`',
    );
  });

  test("replay follows the trace: a label that became ambiguous after recording is not decided again", async () => {
    resets = 1;
    const spec = project.write("resets.flow.yaml", web("resets.html", ['rules: Press the "Reset" button', 'assert: the "css:#out" shows Reset done']));
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.ok).toBe(true);
    resets = 2;
    const replay = await run({ spec, recordingDetail: "off" });
    expect(replay.report.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
  });
});
