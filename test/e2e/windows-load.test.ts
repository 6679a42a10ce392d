// Windows apps on another OS: the real CLI refuses them when the flow loads (exit 2), naming the
// file, line and column, what is wrong and what to do, together with the flow's other problems.
import { afterEach, expect, test } from "bun:test";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

let project: TmpProject | undefined;
afterEach(() => project?.remove());

test.skipIf(process.platform === "win32")(
  "validate and record refuse a Windows app on Linux: requires Windows, exit 2, with every other problem of the file",
  async () => {
    project = tmpProject();
    project.write(
      "notes.flow.yaml",
      `name: notes
app: notepad
window: {width: 640, height: 480, x: 10}
steps:
  - rules: Type hello
  - rules: Click "css:#save"
  - rules: Hover over "File"
  - assert: document contains hello
`,
    );
    for (const command of ["validate", "record"]) {
      const r = await runCli([command, "notes.flow.yaml"], { cwd: project.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`notes.flow.yaml:2:6: error[unsupported-platform] \`app: notepad\` requires Windows; this machine runs ${process.platform}`);
      expect(r.stderr).toContain("notes.flow.yaml:3:9: error[bad-value] `window` gives `x` without `y`; a position needs both");
      expect(r.stderr).toContain(
        "notes.flow.yaml:6:18: error[unsupported-step] A `css:` selector cannot be used on Notepad: it has no CSS selectors (grammar form `css`).",
      );
      expect(r.stderr).toContain("id:<AutomationId>");
      expect(r.stderr).toContain(
        "notes.flow.yaml:7:12: error[unsupported-step] `Hover over` cannot be done on Notepad: a desktop window has no page to go to, reload or resize, no hover and no file input.",
      );
    }
  },
  60_000,
);

test.skipIf(process.platform === "win32")(
  "a program of any path and a calculator flow are refused the same way",
  async () => {
    project = tmpProject();
    project.write(
      "app.flow.yaml",
      `name: app
app: {command: '"C:\\\\Program Files\\\\Acme\\\\acme.exe" --x', window_title: Acme}
steps:
  - rules: Press Alt+F4
`,
    );
    project.write("calc.flow.yaml", "name: calc\napp: calc\nsteps:\n  - rules: Press bogus\n");
    const app = await runCli(["validate", "app.flow.yaml"], { cwd: project.dir });
    expect(app.code).toBe(2);
    expect(app.stderr).toContain("app.flow.yaml:2:6: error[unsupported-platform] `app: {command, window_title}` requires Windows");
    const calc = await runCli(["validate", "calc.flow.yaml"], { cwd: project.dir });
    expect(calc.code).toBe(2);
    expect(calc.stderr).toContain("calc.flow.yaml:4:18: error[unknown-step] `bogus` is not a calculator key.");
  },
  60_000,
);

test.skipIf(process.platform === "win32")(
  "Windows app surfaces of apps: are refused the same way, each at its app",
  async () => {
    project = tmpProject();
    project.write(
      "multi.flow.yaml",
      `name: multi
apps:
  gui: { app: {command: app.exe, window_title: App} }
  notes: { app: notepad }
  backend: { app: api }
steps:
  - in: gui
    steps:
      - rules: Double-click "report.txt"
`,
    );
    const r = await runCli(["validate", "multi.flow.yaml"], { cwd: project.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `multi.flow.yaml:3:15: error[unsupported-platform] \`apps.gui.app: {command, window_title}\` requires Windows; this machine runs ${process.platform}`,
    );
    expect(r.stderr).toContain(`multi.flow.yaml:4:17: error[unsupported-platform] \`apps.notes.app: notepad\` requires Windows`);
  },
  60_000,
);
