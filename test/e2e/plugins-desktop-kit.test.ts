// A desktop backend of a project's own, on flowproof's one desktop driver through the exported
// desktop kit (`flowproof/desktop`), by the real CLI: examples/plugins/teller, an in-house app
// behind a line protocol (a process the adapter starts), whose adapter imports only the package's
// public faces. Recorded once (the driver's own `id:` rungs), replayed, and a regressed build
// fails at the step that shows it; the PIN typed as a secret is in no output file. Type-checked
// with `tsc` against the package as a project installs it, so `flowproof/desktop` must be an
// export of package.json, not only something the loader knows; and run through the compiled
// executable too, where no node_modules is around it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tscAsInstalled } from "../support/plugin-tsc.ts";
import { REPO_ROOT, runCli, type CliResult } from "../support/cli.ts";
import { buildSandbox, type Sandbox } from "../support/executable.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const EXAMPLE = join(REPO_ROOT, "examples", "plugins", "teller");
const PIN = "4711";
const projects: TmpProject[] = [];
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await buildSandbox();
}, 120_000);
afterAll(() => {
  sandbox?.remove();
  for (const p of projects) p.remove();
});

type Cli = (args: readonly string[], o: { cwd: string; env?: Record<string, string | undefined> }) => Promise<CliResult>;
const source: Cli = (args, o) => runCli(args, o);
const binary: Cli = (args, o) => sandbox.run(args, o);

function exampleProject(): TmpProject {
  const project = tmpProject();
  projects.push(project);
  for (const f of ["package.json", "app.ts", "plugins", "deposit.flow.yaml"]) cpSync(join(EXAMPLE, f), join(project.dir, f), { recursive: true });
  return project;
}

/** Every file the runs wrote (and the project's own, but for the app, which knows the PIN). */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== "app.ts")
    .map((e) => readFileSync(join(e.parentPath, e.name), "latin1"))
    .join("\n");
}

interface StepResult {
  readonly id: string;
  readonly status: string;
  readonly error?: { readonly message?: string };
}

describe("a project desktop backend through the exported desktop kit (examples/plugins/teller)", () => {
  test("its adapter imports only the package's public faces", () => {
    const source = readFileSync(join(EXAMPLE, "plugins", "teller.ts"), "utf8");
    const specifiers = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(specifiers.filter((s) => !s!.startsWith("node:"))).toEqual(["flowproof", "flowproof/desktop"]);
  });

  test.each([
    ["from source", source],
    ["through the compiled executable", binary],
  ] as const)(
    "records on the one desktop driver, replays, and a regressed build fails at the step that shows it (%s)",
    async (_, cli) => {
      const p = exampleProject();
      const env = { TELLER_PIN: PIN };
      const rec = await cli(["record", "deposit.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
      expect(rec.stderr + rec.stdout).toContain("Recorded 'Deposit at the teller': 6 steps");
      expect(rec.code).toBe(0);
      // The kit's driver recorded each control by its native id ahead of the step's own rung.
      const trace = p
        .read("deposit.trace.jsonl")
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => JSON.parse(l) as { selectors: { tier: string; provenance: string; payload: object }[] });
      expect(trace.slice(0, 4).map((s) => s.selectors[0])).toEqual([
        { tier: "native_id", provenance: "recorder", payload: { id: "account" } },
        { tier: "native_id", provenance: "recorder", payload: { id: "pin" } },
        { tier: "native_id", provenance: "recorder", payload: { id: "amount" } },
        { tier: "native_id", provenance: "recorder", payload: { id: "deposit", name: "Deposit" } },
      ]);

      const ok = await cli(["run", "deposit.flow.yaml", "--json"], { cwd: p.dir, env });
      expect(ok.code).toBe(0);
      const passed = JSON.parse(ok.stdout) as { report: { passed: boolean; steps: StepResult[] } };
      expect(passed.report.passed).toBe(true);
      expect(passed.report.steps.map((s) => s.status)).toEqual(Array(6).fill("passed"));

      const bad = await cli(["run", "deposit.flow.yaml", "--json"], {
        cwd: p.dir,
        env: { ...env, TELLER_BUILD: "double", FLOWPROOF_STEP_TIMEOUT_MS: "1000" },
      });
      expect(bad.code).toBe(1);
      const failed = JSON.parse(bad.stdout) as { report: { passed: boolean; steps: StepResult[] } };
      expect(failed.report.steps.slice(0, 5).map((s) => `${s.id} ${s.status}`)).toEqual([
        "s0001 passed",
        "s0002 passed",
        "s0003 passed",
        "s0004 passed",
        "s0005 failed",
      ]);
      expect(JSON.stringify(failed.report.steps[4])).toContain("Balance: 150.00");

      expect(allText(p.dir).includes(PIN)).toBe(false);
    },
    120_000,
  );

  test("a step naming no control names the nearest texts the app shows (the kit's nearest texts)", async () => {
    const p = exampleProject();
    p.write("typo.flow.yaml", 'name: Typo\napp: teller\nsteps:\n  - rules: Click "Deposti"\n');
    const r = await runCli(["record", "typo.flow.yaml", "--author", "rules"], { cwd: p.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "500" } });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('no control in "Teller - Branch 12" matches "Deposti"');
    expect(r.stdout + r.stderr).toContain('"Deposit"');
  }, 60_000);

  test("tsc type-checks the adapter against the package as a project installs it", async () => {
    const p = exampleProject();
    const { out, code } = await tscAsInstalled(p.dir, { typeRoots: [join(REPO_ROOT, "node_modules", "@types")], types: ["bun"] });
    expect(out).toBe("");
    expect(code).toBe(0);
  }, 120_000);
});
