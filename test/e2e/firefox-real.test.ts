// The real-browser e2e flows on Firefox: a representative flow from each file of them (scrolling
// boxes and a TodoMVC-like app's focus, exact text, storage, history and viewport; open shadow
// roots; custom dropdowns in light and shadow DOM; table cells by column and row; slotted
// component text), recorded once in Chromium and replayed in Firefox through the real CLI with
// `--repeat-each 2`: every step passes every time. Then each page is served as a mutant and the
// same traces replay in both engines: each flow fails at the same step with the same words in
// Firefox as in Chromium. A native HTML5 drag, which Firefox cannot drop under WebDriver BiDi,
// fails at its step naming Firefox (docs/browsers.md). One server, one Chromium for the recordings, one CLI run per engine
// and page state; recording detail off (frames are the recording tests' business), and the
// assertions a mutant breaks bounded short.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { record } from "../../src/commands/record.ts";
import { SessionPool } from "../../src/commands/session-pool.ts";
import type { RunReport } from "../../src/report/schema.ts";
import { runCli } from "../support/cli.ts";
import { webE2e } from "../support/e2e.ts";
import { requireFirefox } from "../support/firefox.ts";
import { DEFAULT_PAGES_ROOT } from "../support/server.ts";
import { flowYaml } from "../support/tmp-project.ts";

interface Flow {
  readonly name: string;
  readonly page: string;
  readonly steps: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** The page's text the mutant replaces (every occurrence), and with what. */
  readonly mutant: readonly [string, string];
  /** The 1-based step the mutant fails at. */
  readonly failsAt: number;
}

const FLOWS: readonly Flow[] = [
  {
    name: "Scrolling boxes",
    page: "scroll-boxes.html",
    steps: [
      'assert: the "I\'m Here" is not visible',
      'assert: the "css:.box button" appears 0 times',
      'rules: Click "I\'m Here"',
      'assert: the "css:#out" shows Clicked I\'m Here',
      'assert: the "I\'m Here" is visible',
      'rules: Click "Over Here"',
      'assert: the "css:#out" shows Clicked Over Here',
      'rules: Click "Deep inside"',
      'assert: the "css:#out" shows Clicked Deep inside',
      'assert: the "Tucked away" is not visible',
    ],
    mutant: ["Deep inside", "Far inside"],
    failsAt: 8,
  },
  {
    name: "Todo app",
    page: "todo-app.html",
    steps: [
      'assert: the "What needs to be done?" field is focused',
      "rules: Type Walk the dog",
      "rules: Press Enter",
      'assert: the "css:.todo-count" shows exactly 1 item left',
      'assert: local storage "todos-${FW}" contains Walk the dog',
      'rules: Click "todos"',
      'assert: the "What needs to be done?" field is not focused',
      'rules: Click "Active"',
      "assert: page shows Showing active within 2s",
      "rules: Go back",
      "assert: page shows Showing all",
      "rules: Go forward",
      'rules: Click "About"',
      "assert: page shows About todos",
      "rules: Go back",
      "assert: page url is /todo-app.html",
      "rules: Resize the viewport to 320x480",
      "assert: page shows Narrow layout",
      'assert: the "Wide layout" is not visible',
    ],
    env: { FW: "vanillajs" },
    mutant: ["Showing active", "Showing open"],
    failsAt: 9,
  },
  {
    name: "Web components",
    page: "web-components.html",
    steps: [
      "assert: page shows Join the list",
      'rules: Type ada@example.com into the "Email address" field',
      'rules: Check the "Weekly digest" checkbox',
      'rules: Click "Subscribe"',
      "assert: page shows Subscribed ada@example.com (weekly)",
      'assert: the "Email address" field shows ada@example.com',
      'rules: Click "Add one"',
      'rules: Click "Add one"',
      "assert: page shows Clicks 2",
      "assert: page does not show Closed root text",
    ],
    mutant: ["Subscribe</button>", "Sign up</button>"],
    failsAt: 4,
  },
  {
    name: "Dropdowns",
    page: "combobox.html",
    steps: [
      'rules: Select Yearly from the "Billing" dropdown',
      'rules: Select Pro from the "Plan" dropdown',
      'rules: Select Asia Pacific from the "Region" dropdown',
      'rules: Select Large from the "Size" dropdown',
      'assert: the "css:#out" shows billing=Yearly plan=Pro region=Asia Pacific size=Large',
      'assert: the "Plan" dropdown contains Pro',
    ],
    mutant: ["Asia Pacific", "Oceania"],
    failsAt: 3,
  },
  {
    name: "Grid cells",
    page: "grid.html",
    steps: [
      'assert: the "Status" column of the row containing "Ada Lovelace" shows Active',
      'assert: the "Email" column of the row containing "John" and "Smith" shows john.smith@example.com',
      'assert: the "Select" column of the row containing "Ada Lovelace" checkbox is not checked',
      'rules: Check the "Select" column of the row containing "Ada Lovelace"',
      'assert: the "Select" column of the row containing "Ada Lovelace" checkbox is checked',
      'assert: the "Status" column of the row containing "Grace Hopper" shows Suspended within 2s',
      'assert: the "Note" column of the row containing "Grace Hopper" is disabled',
    ],
    mutant: [">Suspended<", ">Retired<"],
    failsAt: 6,
  },
  {
    name: "Slotted",
    page: "slotted.html",
    steps: [
      'rules: Press the "Create account" button',
      'assert: the "css:#out" shows Pressed Create account',
      'rules: Press the "Invite a friend" button',
      'assert: the "css:#out" shows Pressed Invite a friend',
      'assert: the "Beta programme" is visible',
      'rules: Click "Beta programme"',
      'assert: the "css:#out" shows Chip opened within 2s',
    ],
    mutant: ["Chip opened", "Chip shown"],
    failsAt: 7,
  },
];

const { server, project } = await webE2e();
let mutated = false;
const env = Object.assign({}, ...FLOWS.map((f) => f.env ?? {})) as Record<string, string>;
const specOf = (f: Flow) => join(project.dir, "flows", `${f.page.replace(".html", "")}.flow.yaml`);

beforeAll(async () => {
  requireFirefox();
  for (const f of FLOWS) {
    const html = readFileSync(join(DEFAULT_PAGES_ROOT, f.page), "utf8");
    expect(html).toContain(f.mutant[0]);
    server.setRoute(
      `/${f.page}`,
      () => new Response(mutated ? html.replaceAll(f.mutant[0], f.mutant[1]) : html, { headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    project.write(`flows/${f.page.replace(".html", "")}.flow.yaml`, flowYaml(f.name, `${server.url}/${f.page}`, f.steps));
  }
  // Recorded once in Chromium (one browser for them all), as the original files record them.
  const pool = new SessionPool();
  try {
    for (const f of FLOWS) {
      const recorded = await record({
        spec: specOf(f),
        author: "rules",
        recordingDetail: "off",
        env: { ...process.env, ...env, FLOWPROOF_BROWSER: "chromium" },
        pool,
      });
      expect({ flow: f.name, failed: recorded.step_results.find((r) => r.status !== "passed")?.detail }).toEqual({ flow: f.name, failed: undefined });
    }
  } finally {
    await pool.close();
  }
}, 180_000);
afterAll(() => {
  mutated = false;
});

interface RunOut {
  flows: { spec: string; outcome: string; report: RunReport & { repeat?: { outcomes: string[] } } }[];
  flaky: number;
}
const runAll = async (browser: string, extra: readonly string[], stepMs?: number): Promise<{ code: number; out: RunOut; stderr: string }> => {
  const r = await runCli(["run", join(project.dir, "flows"), "--browser", browser, "--recording-detail", "off", "--json", ...extra], {
    cwd: project.dir,
    env: { ...env, ...(stepMs ? { FLOWPROOF_STEP_TIMEOUT_MS: String(stepMs) } : {}) },
  });
  return { code: r.code, out: JSON.parse(r.stdout) as RunOut, stderr: r.stderr };
};
const byFlow = (out: RunOut) => new Map(out.flows.map((f) => [f.report.name, f]));

describe("the real-browser flows on Firefox", () => {
  test("recorded in Chromium, each replays in Firefox to a pass twice over (--repeat-each 2)", async () => {
    const { code, out, stderr } = await runAll("firefox", ["--repeat-each", "2"]);
    const seen = byFlow(out);
    expect(
      FLOWS.map((f) => {
        const r = seen.get(f.name);
        return [f.name, r?.outcome, r?.report.repeat?.outcomes, r?.report.steps.find((s) => s.status !== "passed")?.detail];
      }),
    ).toEqual(FLOWS.map((f) => [f.name, "passed", ["passed", "passed"], undefined]));
    expect(out.flaky).toBe(0);
    expect({ code, stderr: code === 0 ? "" : stderr.slice(-2000) }).toEqual({ code: 0, stderr: "" });
  }, 150_000);

  test("against mutant pages the same traces fail at the same step with the same words in Firefox as in Chromium", async () => {
    mutated = true;
    try {
      const verdicts = async (browser: string) => {
        const { code, out } = await runAll(browser, [], 3_000);
        expect(code).toBe(1);
        const seen = byFlow(out);
        return FLOWS.map((f) => {
          const steps = seen.get(f.name)?.report.steps ?? [];
          const failed = steps.findIndex((s) => s.status === "failed");
          return { flow: f.name, failsAt: failed + 1, detail: steps[failed]?.detail };
        });
      };
      const chromium = await verdicts("chromium");
      expect(chromium.map((v) => [v.flow, v.failsAt])).toEqual(FLOWS.map((f) => [f.name, f.failsAt]));
      expect(await verdicts("firefox")).toEqual(chromium);
    } finally {
      mutated = false;
    }
  }, 150_000);

  test("a native HTML5 drag recorded in Chromium fails at its step in Firefox, naming Firefox, never a silent no-drop", async () => {
    const spec = project.write(
      "drag/page-builder.flow.yaml",
      flowYaml("Drag", `${server.url}/page-builder.html`, [
        'rules: Drag "Heading block" onto the "css:#canvas"',
        'assert: the "css:#out" shows Dropped Heading into the left column',
      ]),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: { ...process.env, FLOWPROOF_BROWSER: "chromium" } });
    expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
    const r = await runCli(["run", spec, "--browser", "firefox", "--recording-detail", "off", "--json"], { cwd: project.dir });
    const out = JSON.parse(r.stdout) as { run_dir: string };
    const report = JSON.parse(
      readFileSync(join(out.run_dir.startsWith("/") ? out.run_dir : join(project.dir, out.run_dir), "result.json"), "utf8"),
    ) as RunReport;
    expect([r.code, report.outcome, report.steps.map((s) => s.status)]).toEqual([1, "failed", ["failed", "skipped"]]);
    expect(report.steps[0]!.detail).toContain("Firefox cannot drop under WebDriver BiDi");
    expect(report.steps[0]!.detail).toContain("--browser chromium");
  }, 60_000);
});
