// Drag (mouse sortable and native HTML5), verified Hover, Upload, downloads, multi-select and
// native dialog suffixes: recorded then replayed in real Chromium against fixture pages, with the
// red paths (hover that never lands, missing upload file, dialogs declared but not opened or not
// declared) and the F-key refusal through `flowproof validate`.
// Recording detail is off: frames are the recording tests' business, and each frame costs CPU.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { runCli } from "../support/cli.ts";
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
  const csv = (name: string, body: string) => () =>
    new Response(body, { headers: { "content-type": "text/csv", "content-disposition": `attachment; filename="${name}"` } });
  server.setRoute("/files/report.csv", csv("report.csv", "id,total\n1,42\n"));
  server.setRoute("/files/a.csv", csv("a.csv", "a\n"));
  server.setRoute("/files/b.csv", csv("b.csv", "b\n"));
  writeFileSync(join(project.dir, "logo.png"), "PNG!!");
  project.write("data/notes.txt", "hello notes\n");
});
afterAll(() => {
  server.stop();
  project.remove();
});

interface Case {
  readonly name: string;
  readonly page: string;
  readonly steps: readonly string[];
  readonly env?: Record<string, string>;
  /** Run with this working directory (relative upload paths resolve from it). */
  readonly inProject?: boolean;
}

const CASES: readonly Case[] = [
  {
    name: "drags in a mouse-event sortable list and across a native draggable pair",
    page: "drag.html",
    steps: [
      'rules: Drag "Alpha" onto "Gamma"',
      'assert: the "id:order" shows order = Beta, Gamma, Alpha',
      'rules: Drag "Card" onto "Bin"',
      'assert: the "id:dropped" shows dropped card-1',
    ],
  },
  {
    name: "hovers a menu open and clicks the revealed item",
    page: "hover-moves.html",
    steps: ['rules: Hover over "Settings"', 'rules: Click "Profile"', 'assert: the "id:log" shows opened Profile'],
  },
  {
    name: "uploads into a hidden file input by its label, from an absolute and a quoted relative path",
    page: "upload.html",
    inProject: true,
    steps: [
      'rules: Upload logo.png into the "Avatar" field',
      'assert: the "id:chosen" shows avatar = logo.png (5 bytes)',
      'rules: Upload "data/notes.txt" into the "Attachment" field',
      'assert: the "id:chosen" shows attachment = notes.txt (12 bytes)',
    ],
  },
  {
    name: "waits for a download and remembers its file path",
    page: "download.html",
    steps: [
      'rules: Click "Export CSV"',
      "rules: Wait until the download completes as report within 10s",
      "rules: Go to /greeter.html",
      'rules: Type ${captured.report} into the "Your name" field',
      'assert: the "Your name" field contains report.csv',
    ],
  },
  {
    name: "selects exactly a set of options in a multiple select",
    page: "multi-select.html",
    steps: [
      'rules: Select "Olives", "Peppers" and "Onions" from the "Toppings" field',
      'assert: the "id:picked" shows picked = Olives, Peppers, Onions',
      'assert: the "Toppings" field contains Olives, Peppers, Onions',
    ],
  },
  {
    name: "answers alert, confirm, prompt, a late alert, right-click, double-click and hover dialogs and beforeunload as declared",
    page: "dialogs.html",
    env: { NEW_NAME: "Quarterly" },
    steps: [
      'rules: Click "Notify", accepting the "Saved successfully" dialog',
      'assert: the "id:log" shows alerted',
      'rules: Click "Delete", accepting the "Are you sure" dialog',
      'assert: the "id:log" shows deleted',
      'rules: Press the "Delete" button, dismissing the dialog',
      'assert: the "id:log" shows kept',
      'rules: Press the "Rename" button, answering the prompt with "${NEW_NAME}"',
      'assert: the "id:log" shows renamed to Quarterly',
      'rules: Press the "Rename" button, dismissing the dialog',
      'assert: the "id:log" shows rename cancelled',
      'rules: Click "Later", accepting the "Done later" dialog',
      'assert: the "id:log" shows late alert answered',
      'rules: Right-click "Row menu", accepting the "Archive row" dialog',
      'assert: the "id:log" shows archived',
      'rules: Double-click "Twice alert", accepting the "Double clicked" dialog',
      'assert: the "id:log" shows double alert answered',
      'rules: Hover over "Hover alert", accepting the "Hovered" dialog',
      'assert: the "id:log" shows hover alert answered',
      'rules: Check the "Unsaved changes" checkbox',
      'rules: Click "Leave", dismissing the dialog',
      'assert: the "id:log" shows hover alert answered',
      'rules: Click "Leave", accepting the dialog',
      "assert: page shows Second page",
    ],
  },
];

describe("actions in real Chromium", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const file = `${c.page.replace(".html", "")}-${CASES.indexOf(c)}.flow.yaml`;
    const spec = project.write(file, flowYaml(c.name, `${server.url}/${c.page}`, c.steps));
    const env = c.env ? { env: { ...process.env, ...c.env } } : {};
    const cwd = process.cwd();
    if (c.inProject) process.chdir(project.dir);
    try {
      const recorded = await record({ spec, author: "rules", recordingDetail: "off", ...env });
      const failure = recorded.step_results.find((r) => r.status !== "passed");
      expect(failure?.detail ?? recorded.error).toBeUndefined();
      expect(recorded.ok).toBe(true);
      expectValidTrace(recorded.trace_path!);

      const replay = await run({ spec, recordingDetail: "off", ...env });
      expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
      expect(replay.report.steps.length).toBe(c.steps.length);
      expectValidResult(replay.report_path);
    } finally {
      process.chdir(cwd);
    }
  });

  test("writes drag {onto: <the drop target's full ladder>} into the trace", async () => {
    const spec = project.write(
      "trace-shapes.flow.yaml",
      flowYaml("trace shapes", `${server.url}/drag.html`, ['rules: Drag "Card" onto "Bin"', 'assert: the "id:dropped" shows dropped card-1']),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.ok).toBe(true);
    const steps = readTrace<unknown, { action: { type: string; params: Record<string, unknown> } }>(recorded.trace_path!).steps;
    expect(steps[0]!.action).toEqual({ type: "drag", params: { onto: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Bin" } }] } });
  });
});

/** Records `steps` on `page` and returns the first step that did not pass. */
async function firstFailure(page: string, steps: readonly string[], name: string) {
  const spec = project.write(`${name}.flow.yaml`, flowYaml(name, `${server.url}/${page}`, steps));
  const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
  expect(recorded.ok).toBe(false);
  return recorded.step_results.find((r) => r.status !== "passed");
}

describe("action red paths", () => {
  test("fails a Hover whose target moves away from the pointer", async () => {
    const f = await firstFailure("hover-moves.html", ['rules: Hover over "Shy button"'], "hover-away");
    expect(f?.status).toBe("failed");
    expect(f?.detail).toContain("not hovered");
  });

  test("fails an Upload of a missing file, naming the path", async () => {
    const f = await firstFailure("upload.html", ['rules: Upload "no/such-file.png" into the "Avatar" field'], "upload-missing");
    expect(f?.detail).toContain(join(process.cwd(), "no/such-file.png"));
    expect(f?.detail).toContain("does not exist");
  });

  test("fails a Select naming an option the list does not have", async () => {
    const spec = project.write(
      "multi-missing.flow.yaml",
      flowYaml("multi missing", `${server.url}/multi-select.html`, ['rules: Select "Olives" and "Anchovies" from the "Toppings" field']),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.step_results[0]?.status).toBe("failed");
    expect(recorded.step_results[0]?.detail).toContain('has no option "Anchovies"');
  });

  test("fails a declared dialog that never opens, without hanging", async () => {
    const f = await firstFailure("dialogs.html", ['rules: Click "Nothing", accepting the dialog'], "dialog-not-opened");
    expect(f?.status).toBe("failed");
    expect(f?.detail).toContain("no dialog opened");
  });

  test("fails a dialog whose message does not contain the declared text", async () => {
    const f = await firstFailure("dialogs.html", ['rules: Click "Delete", accepting the "Remove forever" dialog'], "dialog-wrong-message");
    expect(f?.detail).toContain('said "Are you sure you want to delete?"');
  });

  test("dismisses and fails an undeclared beforeunload, staying on the page", async () => {
    const f = await firstFailure(
      "dialogs.html",
      ['rules: Check the "Unsaved changes" checkbox', 'rules: Click "Leave"', "assert: page shows Second page within 1s"],
      "beforeunload-undeclared",
    );
    expect(f?.id).toBe("s0002");
    expect(f?.detail).toContain("unexpected dialog opened: beforeunload");
  });

  test("dismisses and fails an undeclared dialog", async () => {
    const f = await firstFailure("dialogs.html", ['rules: Click "Notify"', 'assert: the "id:log" shows alerted'], "dialog-undeclared");
    expect(f?.detail).toContain("unexpected dialog opened: alert: Saved successfully");
  });
});

describe("F-keys on web", () => {
  test("flowproof validate refuses Press F5 with the hint", async () => {
    const spec = project.write("fkey.flow.yaml", flowYaml("fkey", `${server.url}/keys.html`, ["rules: Press F5"]));
    const r = await runCli(["validate", spec], { cwd: project.dir });
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain("unsupported-step");
    expect(`${r.stdout}${r.stderr}`).toContain('Press the "Refresh" button');
  });
});
