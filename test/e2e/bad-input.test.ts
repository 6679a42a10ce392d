// Bad input through the real CLI: every problem of a file reported together with file:line:col,
// what is wrong and a hint, exit code 2 — and no browser is started for any of it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

let project: TmpProject;
beforeAll(() => {
  project = tmpProject();
});
afterAll(() => project.remove());

// A browser path that cannot start: if any of these commands tried to launch, it would say so.
const NO_BROWSER = { FLOWPROOF_CHROME: "/nonexistent/chromium" };

describe("bad input (CLI)", () => {
  test("reports every problem of a flow file together, each with file:line:col and a hint", async () => {
    project.write(
      "many.flow.yaml",
      [
        "name: Many problems",
        "app: web",
        "url: http://127.0.0.1:9/",
        "stpes: []",
        "steps:",
        '  - rules: Blur the "Email" field',
        "  - rules: Frobnicate the widget",
        '  - rules: Click "Next" until the "Status" shows Done',
        '  - assert: the "Terms" is checked',
        "  - colour: red",
        "  - assert: display shows 8",
        "",
      ].join("\n"),
    );
    const res = await runCli(["validate", "many.flow.yaml"], { cwd: project.dir, env: NO_BROWSER });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    const err = res.stderr;
    expect(err).toContain("error: 7 problems:");
    expect(err).toContain("many.flow.yaml:4:1: error[unknown-key] unknown key `stpes` in a flow");
    expect(err).toContain("did you mean `steps`?");
    expect(err).toMatch(/many\.flow\.yaml:6:\d+: error\[(refused|unknown)-step\]/);
    expect(err).toMatch(/many\.flow\.yaml:7:\d+: error\[unknown-step\]/);
    expect(err).toMatch(/many\.flow\.yaml:8:\d+: error\[refused-step\][^\n]*\n(.*\n)*.*hint: .*`repeat:`/);
    expect(err).toMatch(/many\.flow\.yaml:9:\d+: error\[unknown-step\]/);
    expect(err).toContain("many.flow.yaml:10:5: error[unknown-key] unknown step key `colour`");
    expect(err).toContain('  8 |   - rules: Click "Next" until the "Status" shows Done');
    expect(err).toMatch(/many\.flow\.yaml:11:\d+: error\[unsupported-step\] `display shows` is calculator sugar \(app: calc\)/);
    expect(err.indexOf("many.flow.yaml:10:")).toBeLessThan(err.indexOf("many.flow.yaml:11:"));
    expect(err).not.toContain("chromium");
  });

  test("reports malformed YAML at its position", async () => {
    project.write("broken.flow.yaml", 'name: Broken\napp: web\nurl: "http://x\nsteps:\n  - rules: Click "A"\n');
    const res = await runCli(["run", "broken.flow.yaml"], { cwd: project.dir, env: NO_BROWSER });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^broken\.flow\.yaml:\d+:\d+: error\[yaml-syntax\]/);
    expect(res.stderr).toContain("hint:");
  });

  test("a missing trace exits 2 and says how to record it", async () => {
    project.write("untraced.flow.yaml", 'name: Untraced\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - rules: Click "A"\n');
    const res = await runCli(["run", "untraced.flow.yaml"], { cwd: project.dir, env: NO_BROWSER });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("error: no trace at");
    expect(res.stderr).toContain("hint: record it first: flowproof record untraced.flow.yaml");
  });

  test("a file that is not a flowproof trace is refused at its first line", async () => {
    project.write("wrong.flow.yaml", 'name: Wrong\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - rules: Click "A"\n');
    project.write("wrong.trace.jsonl", '{"format":"something-else","version":1}\n{"id":"s0001"}\n');
    const res = await runCli(["run", "wrong.flow.yaml", "--json"], { cwd: project.dir, env: NO_BROWSER });
    expect(res.code).toBe(2);
    const out = JSON.parse(res.stdout) as { error: { code: string; diagnostics: Array<{ file: string; line: number; message: string }> } };
    expect(out.error.code).toBe("bad-trace");
    expect(out.error.diagnostics[0]!.line).toBe(1);
    expect(out.error.diagnostics[0]!.message).toContain('expected "flowproof-trace"');
  });

  test("a trace from a newer flowproof is refused naming the version", async () => {
    project.write("newer.flow.yaml", 'name: Newer\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - rules: Click "A"\n');
    project.write("newer.trace.jsonl", '{"format":"flowproof-trace","version":2}\n');
    const res = await runCli(["run", "newer.flow.yaml"], { cwd: project.dir, env: NO_BROWSER });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("newer.trace.jsonl:1:1: error[trace-version] trace version 2 is newer than this flowproof supports");
  });

  test("usage errors exit 2 with a suggestion; --help and --version exit 0", async () => {
    const unknown = await runCli(["run", "x.flow.yaml", "--trcae", "t"], { cwd: project.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown flag --trcae");
    expect(unknown.stderr).toContain("did you mean --trace?");
    const cmd = await runCli(["rnu"], { cwd: project.dir });
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain("did you mean `flowproof run`?");
    const author = await runCli(["record", "x.flow.yaml", "--author", "magic"], { cwd: project.dir });
    expect(author.code).toBe(2);
    expect(author.stderr).toContain("--author must be one of auto, rules, llm");
    for (const command of ["record", "run", "validate"]) {
      const help = await runCli([command, "--help"], { cwd: project.dir });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: flowproof ${command} <flow.yaml>`);
    }
    const version = await runCli(["--version"], { cwd: project.dir });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test("validate accepts a good flow without a browser", async () => {
    project.write(
      "good.flow.yaml",
      'name: Good\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - rules: Type Ada into the "Name" field\n  - assert: page shows Ada\n',
    );
    const res = await runCli(["validate", "good.flow.yaml", "--json"], { cwd: project.dir, env: NO_BROWSER });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ valid: true, name: "Good", app: "web", steps: 2 });
  });
});
