// The path users take: `npm pack` of this repository, installed into a fresh project the way README
// says, then `npx flowproof` (version, init, record, run against a local page), the library import,
// and the Python SDK installed with pip into a fresh virtual environment, driving that install.
// npm installs with scripts off, as npm does for scripts a project has not approved: the launcher
// must start Bun without the `bun` package's install script. No bun on PATH hides a broken launcher.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT } from "../support/cli.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { flowYaml } from "../support/tmp-project.ts";
import { startBareDisplay } from "../support/vision-bed.ts";

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const INSTALL_TIMEOUT_MS = 240_000;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let root: string;
let project: string;
let env: Record<string, string>;
let server: TestServer;

/** PATH without node_modules/.bin directories and without any directory holding a bun: only what a user's shell has. */
function userPath(): string {
  return (process.env["PATH"] ?? "")
    .split(delimiter)
    .filter((d) => d && !d.includes("node_modules") && !existsSync(join(d, "bun")))
    .join(delimiter);
}

async function sh(argv: readonly string[], cwd: string, extra: Record<string, string> = {}): Promise<Ran> {
  const proc = Bun.spawn([...argv], { cwd, env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const show = (r: Ran): string => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

async function ok(argv: readonly string[], cwd: string, extra: Record<string, string> = {}): Promise<Ran> {
  const r = await sh(argv, cwd, extra);
  if (r.code !== 0) throw new Error(`${argv.join(" ")} failed: ${show(r)}`);
  return r;
}

beforeAll(async () => {
  requireChromium();
  if (!Bun.which("npm") || !Bun.which("node")) throw new Error("The npm package test needs Node.js and npm on PATH (Debian: apt-get install -y nodejs npm)");
  root = mkdtempSync(join(tmpdir(), "flowproof-npm-"));
  // Variables npm sets for the script that runs this test would steer the nested npm (its prefix, its cache).
  env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !/^npm_/i.test(e[0])));
  env["PATH"] = userPath();
  env["NO_COLOR"] = "1";
  const packed = join(root, "packed");
  mkdirSync(packed);
  // Packed from a copy of the repository's files, as a fresh clone holds them: other tests write
  // run bundles and built files into the working tree while this one packs.
  const stage = join(root, "stage");
  const tracked = (await ok(["git", "ls-files", "-z"], REPO_ROOT)).stdout.split("\0").filter((f) => f !== "" && existsSync(join(REPO_ROOT, f)));
  for (const f of tracked) cpSync(join(REPO_ROOT, f), join(stage, f));
  await ok(["npm", "pack", "--pack-destination", packed], stage, { PATH: `${join(REPO_ROOT, "node_modules", ".bin")}${delimiter}${env["PATH"]}` });
  const tarball = readdirSync(packed).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${packed}`);
  project = join(root, "project");
  mkdirSync(project);
  await ok(["npm", "init", "-y"], project);
  await ok(["npm", "install", "--save-dev", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", join(packed, tarball)], project);
  server = await startServer();
}, INSTALL_TIMEOUT_MS);

afterAll(() => {
  server?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("the npm package, installed into a fresh project", () => {
  test("starts without Bun's install script: the launcher takes the runtime from its platform package", async () => {
    // The install left the placeholder the `bun` package ships, which only prints an error.
    expect(statSync(join(project, "node_modules", "bun", "bin", "bun.exe")).size).toBeLessThan(4096);
    const r = await ok(["npx", "flowproof", "--version"], project);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  test("init writes an example that records and replays to PASS", async () => {
    await ok(["npx", "flowproof", "init"], project);
    const recorded = await ok(["npx", "flowproof", "record", "example.flow.yaml"], project);
    expect(recorded.stdout).toContain("Recorded 'Greet a visitor': 3 steps");
    const replayed = await ok(["npx", "flowproof", "run", "example.flow.yaml"], project);
    expect(replayed.stdout).toContain("PASS: Greet a visitor");
  }, 60_000);

  test("records and replays a flow against a page served on 127.0.0.1", async () => {
    writeFileSync(
      join(project, "greeter.flow.yaml"),
      flowYaml("Served page", `${server.url}/greeter.html`, [
        'rules: Type Grace into the "Your name" field',
        'rules: Click the "Greet" button',
        "assert: page shows Hello, Grace!",
      ]),
    );
    const recorded = await sh(["npx", "flowproof", "record", "greeter.flow.yaml"], project);
    expect(recorded.code, show(recorded)).toBe(0);
    const replayed = await sh(["npx", "flowproof", "run", "greeter.flow.yaml", "--json"], project);
    expect(replayed.code, show(replayed)).toBe(0);
    expect((JSON.parse(replayed.stdout) as { report: { passed: boolean } }).report.passed).toBe(true);
  }, 60_000);

  test("finds the OCR model it depends on: a vision flow starts its OCR engine, then waits for its window", async () => {
    const x = await startBareDisplay();
    try {
      writeFileSync(join(project, "vision.flow.yaml"), "name: Vision\napp: vision\nwindow: {title: No such window}\nsteps:\n  - assert: page shows Saved\n");
      const r = await sh(["npx", "flowproof", "record", "vision.flow.yaml", "--author", "rules", "--json"], project, {
        DISPLAY: x.display,
        FLOWPROOF_WINDOW_TIMEOUT_MS: "300",
      });
      expect(r.code, show(r)).toBe(2);
      // A missing model would be no-ocr-model; a worker that cannot start, plugin-error.
      expect((JSON.parse(r.stdout) as { error: unknown }).error).toMatchObject({
        code: "app-launch",
        message: 'no window titled "No such window" appeared within 300 ms; windows open: none',
      });
    } finally {
      await x.stop();
    }
  }, 60_000);

  test('the library import runs a flow (`import { Flow } from "flowproof"`)', async () => {
    writeFileSync(
      join(project, "lib.ts"),
      'import { Flow } from "flowproof";\nconst { report } = await new Flow("greeter.flow.yaml").run();\nconsole.log(JSON.stringify({ passed: report.passed, steps: report.steps.length }));\n',
    );
    const r = await ok([process.execPath, "lib.ts"], project);
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toEqual({ passed: true, steps: 3 });
  }, 60_000);
});

describe("the Python SDK, installed with pip into a fresh virtual environment", () => {
  test("drives the npm-installed CLI", async () => {
    const venv = join(root, "venv");
    const made = await sh(["python3", "-m", "venv", venv], root);
    if (made.code !== 0) throw new Error(`python3 -m venv failed (Debian: apt-get install -y python3-venv): ${show(made)}`);
    // README's command; --no-index proves the install downloads nothing (the SDK builds with the standard library).
    await ok([join(venv, "bin", "pip"), "install", "--quiet", "--no-index", join(REPO_ROOT, "sdk", "python")], root);
    const script = [
      "import json, flowproof",
      "from flowproof import Flow",
      "result = Flow('greeter.flow.yaml').run()",
      "print(json.dumps({'module': flowproof.__file__, 'passed': result.passed}))",
    ].join("\n");
    const r = await ok([join(venv, "bin", "python"), "-c", script], project, { FLOWPROOF_BIN: join(project, "node_modules", ".bin", "flowproof") });
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { module: string; passed: boolean };
    expect(out.module.startsWith(venv)).toBe(true);
    expect(out.passed).toBe(true);
  }, 120_000);
});
