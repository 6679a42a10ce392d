// Patterns real web apps ship, each on a fixture page of its own, recorded then replayed in real
// Chromium: slotted text in web components (visibility and the hit test follow the composed tree,
// real overlays are still refused), ARIA comboboxes and listboxes driven by Select, native drag
// and drop into an iframe canvas, and downloads that start in a new tab or a popup.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { runCli } from "../support/cli.ts";
import { expectGreen } from "../support/e2e.ts";
import { record } from "../../src/commands/record.ts";

let server: TestServer;
let project: TmpProject;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
  const csv = (name: string, body: string) => () =>
    new Response(body, { headers: { "content-type": "text/csv", "content-disposition": `attachment; filename="${name}"` } });
  server.setRoute("/files/figures.csv", csv("figures.csv", "quarter,total\nQ1,42\n"));
  server.setRoute("/files/ledger.csv", csv("ledger.csv", "account,balance\ncash,7\n"));
});
afterAll(() => {
  server.stop();
  project.remove();
});

let flows = 0;
/** Records the flow, then replays it: every step passes both times. */
async function green(page: string, steps: readonly string[]): Promise<void> {
  await expectGreen(project.write(`green-${++flows}.flow.yaml`, flowYaml(`Green ${flows}`, `${server.url}/${page}`, steps)));
}

/** Records the flow with a short step bound; returns the failed step's detail and how long recording took. */
async function red(page: string, steps: readonly string[], stepTimeoutMs = 3_000): Promise<{ detail: string; ms: number }> {
  const spec = project.write(`red-${++flows}.flow.yaml`, flowYaml(`Red ${flows}`, `${server.url}/${page}`, steps));
  const started = performance.now();
  const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: { ...process.env, FLOWPROOF_STEP_TIMEOUT_MS: String(stepTimeoutMs) } });
  const ms = performance.now() - started;
  expect(recorded.ok).toBe(false);
  const failed = recorded.step_results.find((r) => r.status !== "passed");
  expect(failed).toBeDefined();
  return { detail: failed?.detail ?? "", ms };
}

describe("slotted text in web components", () => {
  test("a button whose text is slotted light DOM is pressed, and a slot's fallback label is visible and clicked", async () => {
    await green("slotted.html", [
      'rules: Press the "Create account" button',
      'assert: the "css:#out" shows Pressed Create account',
      'rules: Press the "Invite a friend" button',
      'assert: the "css:#out" shows Pressed Invite a friend',
      'assert: the "Beta programme" is visible',
      'rules: Click "Beta programme"',
      'assert: the "css:#out" shows Chip opened',
    ]);
  });

  test("a component button under a real overlay of the page is refused, naming what is on top", async () => {
    const { detail } = await red("slotted.html", ['rules: Press the "Delete account" button']);
    expect(detail).toContain("would not receive the click");
    expect(detail).toContain("<div#veil>");
  });
});

describe("custom dropdowns: ARIA comboboxes and listboxes", () => {
  test("Select opens a combobox with trusted clicks and chooses the option by its label, in light DOM and shadow DOM; a native <select> still works", async () => {
    await green("combobox.html", [
      'rules: Select Yearly from the "Billing" dropdown',
      'rules: Select Pro from the "Plan" dropdown',
      'rules: Select Asia Pacific from the "Region" dropdown',
      'rules: Select Large from the "Size" dropdown',
      'assert: the "css:#out" shows billing=Yearly plan=Pro region=Asia Pacific size=Large',
      'assert: the "Plan" dropdown contains Pro',
      'assert: the "Size" dropdown contains Large',
      "rules: Go to /form.html",
      'rules: Select Admin from the "Role" dropdown',
      'assert: the "Role" dropdown contains Admin',
    ]);
  });

  test("a control that is not a dropdown fails at once, saying what it is and what to write", async () => {
    const { detail, ms } = await red("combobox.html", ['rules: Select Pro from the "Help" dropdown'], 20_000);
    expect(detail).toContain('<button#help> "Help" is a button, not a dropdown');
    expect(detail).toContain('write `Click "Help"` and then `Click "<option>"`');
    expect(ms).toBeLessThan(15_000);
  });

  test("an option the combobox does not have is named with the options it has", async () => {
    const { detail } = await red("combobox.html", ['rules: Select Enterprise from the "Plan" dropdown']);
    expect(detail).toContain('has no option "Enterprise" (options: "Free", "Pro", "Team")');
  });
});

describe("downloads that start in a new tab or a popup", () => {
  test("an attachment opened in a new tab and one fetched by a window.open popup are both captured", async () => {
    await green("attachments.html", [
      'rules: Click "Open figures.csv"',
      "rules: Wait until the download completes as figures within 10s",
      'rules: Click "Download ledger"',
      "rules: Wait until the download completes as ledger within 10s",
      "rules: Go to /greeter.html",
      'rules: Type ${captured.figures} ${captured.ledger} into the "Your name" field',
      'assert: the "Your name" field contains figures.csv',
      'assert: the "Your name" field contains ledger.csv',
    ]);
  });

  test("a new tab that shows a page instead of downloading fails the wait, saying no download completed", async () => {
    const { detail } = await red("attachments.html", ['rules: Click "Open preview"', "rules: Wait until the download completes as preview within 2s"]);
    expect(detail).toBe("no download completed within 2000 ms (none started)");
  });
});

describe("native drag and drop into an iframe canvas", () => {
  test("a palette tile is dragged by its label into the iframe canvas, at a drop point inside it", async () => {
    await green("page-builder.html", [
      'rules: Drag "Heading block" onto the "css:#canvas"',
      'assert: the "css:#out" shows Dropped Heading into the left column',
      'rules: Drag "Image block" onto the "css:#canvas" at 75%,40%',
      'assert: the "css:#out" shows Dropped Image into the right column',
    ]);
  });

  test("a drop point outside the drop target's box is refused before anything runs, with where and what to write", async () => {
    project.write(
      "bad-drop.flow.yaml",
      flowYaml("Bad drop", `${server.url}/page-builder.html`, ['rules: Drag "Image block" onto the "css:#canvas" at 130%,40%', "assert: page shows Dropped"]),
    );
    const r = await runCli(["validate", "bad-drop.flow.yaml"], { cwd: project.dir });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain("bad-drop.flow.yaml:5:");
    expect(r.stderr + r.stdout).toContain("A drop point must lie between 0% and 100% of the drop target's box");
    expect(r.stderr + r.stdout).toContain('Drag "Card" onto "Board" at 30%,40%');
  });

  test("a drop the canvas does not take fails on the assertion that follows, with what the page shows", async () => {
    const { detail } = await red("page-builder.html", [
      'rules: Drag "Heading block" onto the "css:#out"',
      'assert: the "css:#out" shows Dropped Heading within 1s',
    ]);
    expect(detail).toContain("nothing dropped");
  });
});
