import { afterEach, describe, expect, test } from "bun:test";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { COMMANDS, commandHelp, mainHelp } from "./flags.ts";
import type { Io } from "./io.ts";
import { main } from "./main.ts";
import { credentialFlags } from "./config.ts";
import { BUILTIN_ADAPTERS } from "../plugins/builtin.ts";
import { REPO_ROOT } from "../../test/support/cli.ts";
import { join } from "node:path";

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
    // `config` also lists the flags the built-in adapters declare (the repository has no project plugins).
    expect(r).toEqual({
      code: 0,
      out: commandHelp(COMMANDS.find((c) => c.name === name)!, name === "config" ? credentialFlags(BUILTIN_ADAPTERS) : []),
      err: "",
    });
  });

  test("refuses an unknown flag of a command with exit 2", async () => {
    const r = await cli(["record", "--ouput", "x"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown flag --ouput for `flowproof record`");
    expect(r.err).toContain("did you mean --out?");
  });

  test("validates a good flow file and prints an OK line", async () => {
    project = tmpProject();
    const path = project.write(
      "login.flow.yaml",
      flowYaml("Log in", "http://127.0.0.1:9/", ['rules: Type Ada into the "Name" field', 'Click "Save"', "assert: page shows Saved"]),
    );
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

  test("starting the command line loads neither the model SDK nor the JSON Schema compiler: only a model or a structured step needs them", async () => {
    // The command line and the run command, which it loads when it runs (each command loads on use).
    const probe = `await import(${JSON.stringify(join(REPO_ROOT, "src", "cli", "main.ts"))}); await import(${JSON.stringify(join(REPO_ROOT, "src", "cli", "run.ts"))}); console.log(JSON.stringify(Object.keys(require.cache)));`;
    const proc = Bun.spawn([process.execPath, "-e", probe], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const loaded = JSON.parse(out) as string[];
    expect(loaded.some((p) => p.includes(join("src", "cli", "run.ts")))).toBe(true);
    expect(loaded.filter((p) => /node_modules[\\/]openai[\\/]/.test(p))).toEqual([]);
    // The trace validators are compiled ahead of time and need only Ajv's small runtime helpers.
    expect(loaded.filter((p) => /node_modules[\\/]ajv[\\/]dist[\\/](core|ajv|compile[\\/])/.test(p))).toEqual([]);
  }, 60_000);

  test("a large --json output is complete through a pipe whose reader is slower than the writer", async () => {
    project = tmpProject();
    const flow = project.write("big.flow.yaml", flowYaml("Big", "http://127.0.0.1:9/", ['Click "Go"']));
    const header = {
      format: "flowproof-trace",
      version: 1,
      trace_id: "8f33b3de-f7ac-4fe7-a9e0-ff9f0e490e39",
      recorded_at: "2026-12-01T13:22:07.247Z",
      app: { name: "web", adapter: "web", url: "http://127.0.0.1:9/" },
      env: { os: "linux", resolution: [1280, 800], locale: "en-US" },
      flowproof_version: FLOWPROOF_VERSION,
      spec: { name: "Big", path: "big.flow.yaml" },
    };
    const step = (i: number) => ({
      id: `s${String(i).padStart(4, "0")}`,
      intent: `Click "Go" number ${i}`,
      action: { type: "click", params: {} },
      selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Go" } }],
      sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: 5000 }], post: [] },
      artifacts: {},
    });
    const lines = [header, ...Array.from({ length: 400 }, (_, i) => step(i + 1))].map((l) => JSON.stringify(l));
    const trace = project.write("big.trace.jsonl", `${lines.join("\n")}\n`);
    // The reader is a process of its own that starts late, so the CLI fills the pipe (64 KiB) and
    // must wait for it rather than exit; pipefail hands back the CLI's exit code.
    const pipeline = 'set -o pipefail; "$0" "$1" trace "$2" -t "$3" --json | { sleep 1.5; cat; }';
    const proc = Bun.spawn(["bash", "-c", pipeline, process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), flow, trace], {
      cwd: project.dir,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, NO_COLOR: "1" },
    });
    const text = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    // Far beyond one pipe buffer (64 KiB), and whole.
    expect(text.length).toBeGreaterThan(3 * 65_536);
    expect(JSON.parse(text).steps).toHaveLength(400);
  }, 60_000);
});
