import { afterEach, describe, expect, test } from "bun:test";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { COMMANDS, commandHelp, mainHelp } from "./flags.ts";
import type { Io } from "./io.ts";
import { main } from "./main.ts";

function capture(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
}

async function cli(argv: string[]) {
  const io = capture();
  const code = await main(argv, io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

describe("main", () => {
  let project: TmpProject | undefined;
  afterEach(() => {
    project?.remove();
    project = undefined;
  });

  test.each([["--version"], ["-V"]])("prints the version for %s and exits 0", async (flag) => {
    expect(await cli([flag])).toEqual({ code: 0, out: FLOWPROOF_VERSION, err: "" });
  });

  test.each([["--help"], ["-h"], ["help"]])("prints the main help for %s and exits 0", async (flag) => {
    expect(await cli([flag])).toEqual({ code: 0, out: mainHelp(FLOWPROOF_VERSION), err: "" });
  });

  test("prints the main help and exits 2 without arguments", async () => {
    expect(await cli([])).toEqual({ code: 2, out: mainHelp(FLOWPROOF_VERSION), err: "" });
  });

  test("refuses an unknown command and suggests the nearest one", async () => {
    const r = await cli(["valdate", "a.flow.yaml"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe('error: unknown command "valdate" [usage]\n  hint: did you mean `flowproof validate`? Run `flowproof --help` for the list');
  });

  test("refuses an unknown command as JSON when asked", async () => {
    const r = await cli(["recrod", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out).error).toMatchObject({ code: "usage", message: 'unknown command "recrod"' });
  });

  test.each(COMMANDS.map((c) => [c.name] as const))("prints the usage for `%s --help` without running it", async (name) => {
    const r = await cli([name, "--help", "does-not-exist.flow.yaml"]);
    expect(r).toEqual({ code: 0, out: commandHelp(COMMANDS.find((c) => c.name === name)!), err: "" });
  });

  test("refuses an unknown flag of a command with exit 2", async () => {
    const r = await cli(["record", "--ouput", "x"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown flag --ouput for `flowproof record`");
    expect(r.err).toContain("did you mean --out?");
  });

  test("validates a good flow file and prints an OK line", async () => {
    project = tmpProject();
    const path = project.write("login.flow.yaml", flowYaml("Log in", "http://127.0.0.1:9/", ['rules: Type Ada into the "Name" field', 'Click "Save"', "assert: page shows Saved"]));
    expect(await cli(["validate", path])).toEqual({ code: 0, out: `OK: ${path} (Log in: 3 steps)`, err: "" });
  });

  test("prints the validation result as JSON with --json", async () => {
    project = tmpProject();
    const path = project.write("login.flow.yaml", flowYaml("Log in", "http://127.0.0.1:9/", ['Click "Save"']));
    const r = await cli(["validate", path, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ valid: true, name: "Log in", app: "web", steps: 1 });
  });

  test("renders a refused step as a code frame and exits 2", async () => {
    project = tmpProject();
    const path = project.write("bad.flow.yaml", flowYaml("Bad", "http://127.0.0.1:9/", ['rules: Blur the "Email" field']));
    const r = await cli(["validate", path]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain(":5:12: error[refused-step]");
    expect(r.err).toContain("^^^^");
    expect(r.err).toContain("hint: write `Press Tab`");
  });

  test("lists a refused step and an unsupported step of the same flow together", async () => {
    project = tmpProject();
    const path = project.write("bad.flow.yaml", flowYaml("Bad", "http://127.0.0.1:9/", ['rules: Blur the "Email" field', "assert: display shows 8"]));
    const r = await cli(["validate", path]);
    expect(r.code).toBe(2);
    expect(r.err).toStartWith("error: 2 problems:");
    expect(r.err).toMatch(/:5:12: error\[refused-step\][\s\S]*:6:13: error\[unsupported-step\] `display shows`/);
  });

  test("reports a missing flow file as io-error", async () => {
    const r = await cli(["validate", "/nonexistent/flowproof/x.flow.yaml", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out).error).toMatchObject({ code: "io-error", message: "no flow file at /nonexistent/flowproof/x.flow.yaml" });
  });

  test.each([["validate"], ["record"], ["run"]])("refuses `%s` without a flow file", async (name) => {
    const r = await cli([name]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^error: ${name} takes exactly one flow file \\[usage\\]`));
  });
});
