// `flowproof codegen` through the real CLI: a headed Chromium on a virtual display (Xvfb), driven
// by real OS-level input (xdotool: pointer and keyboard; CDP is only asked, read-only, where an
// element is on screen). The flows it writes are then recorded and replayed green.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { headedBrowserPort } from "../support/processes.ts";
import CDP from "chrome-remote-interface";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startBareDisplay } from "../support/vision-bed.ts";

/** Generous: a headed Chromium on a busy two-core machine. */
const WAIT_MS = 60_000;
const SECRET = "Tr0ub4dor-and-3";

let server: TestServer;
let project: TmpProject;
let xvfb: { kill(): void } | undefined;
let display = "";

/** Xvfb on a free display at the browser's size (a headed Chromium shows on it); fails with instructions when it is not installed. */
async function startXvfb(): Promise<string> {
  const x = await startBareDisplay("1280x1024", "the codegen test");
  xvfb = { kill: () => void x.stop() };
  return x.display;
}

beforeAll(async () => {
  requireChromium();
  if (!Bun.which("xdotool"))
    throw new Error("The codegen test drives the browser with real input through xdotool, which was not found. On Debian: apt-get install -y xdotool");
  server = await startServer();
  project = tmpProject();
  display = await startXvfb();
});
/** Every CLI the tests started: one still running when they end (a failed test) is stopped with it. */
const started: Bun.Subprocess[] = [];
afterAll(async () => {
  for (const proc of started) {
    if (proc.exitCode !== null) continue;
    proc.kill("SIGTERM");
    await Promise.race([proc.exited, Bun.sleep(15_000)]);
    if (proc.exitCode === null) proc.kill("SIGKILL");
  }
  server?.stop();
  project?.remove();
  xvfb?.kill();
});

/** Runs xdotool on the test's display; fails the test when it fails. */
function xdo(...args: string[]): string {
  const r = Bun.spawnSync(["xdotool", ...args], { env: { ...process.env, DISPLAY: display }, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`xdotool ${args.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

async function waitFor(what: string, ok: () => boolean, ms = WAIT_MS): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** The CLI as a child we can signal, its output collected as it comes. */
function spawnCli(args: string[]) {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), ...args], {
    cwd: project.dir,
    env: { ...process.env, DISPLAY: display, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  started.push(proc);
  let stderr = "";
  const errDone = (async () => {
    const decoder = new TextDecoder();
    const reader = proc.stderr.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      stderr += decoder.decode(value, { stream: true });
    }
  })();
  const out = new Response(proc.stdout).text();
  return { proc, stderr: () => stderr, finished: async () => ({ code: await proc.exited, stdout: await out, stderr: (await errDone, stderr) }) };
}

/** The steps of the flow file as written so far: `rules: …` / `assert: …`, and `# TODO` lines. */
const stepsIn = (path: string): string[] =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => /^ {2}(- |# TODO)/.test(l))
        .map((l) => l.replace(/^ {2}(- )?/, ""))
    : [];

/** Waits until the flow file holds `n` steps; a timeout names the steps it has, and the session's output when given. */
async function waitForSteps(path: string, n: number, output: () => string = () => ""): Promise<void> {
  const count = () => stepsIn(path).filter((s) => !s.startsWith("#")).length;
  await waitFor(`${n} steps in ${path}`, () => count() >= n).catch((e: Error) => {
    throw new Error(`${e.message} (have: ${JSON.stringify(stepsIn(path))})\n${output()}`);
  });
}

/** The window of a codegen session started by process `pid`: a read-only DevTools client for geometry, the window's X id, and real input at elements. */
async function attachWindow(pid: number, page: string, title: string) {
  let port: number | undefined;
  await waitFor("the browser under the session", () => (port = headedBrowserPort(pid)) !== undefined);
  const client = await CDP({
    port: port!,
    host: "127.0.0.1",
    target: (targets: Array<{ type: string; url: string }>) => targets.findIndex((t) => t.type === "page" && t.url.includes(page)),
  });
  const window = xdo("search", "--sync", "--onlyvisible", "--name", title).split("\n")[0]!;
  xdo("windowfocus", "--sync", window);
  /** Screen coordinates of the centre of the `nth` element `css` names: its box plus the window's place and toolbar. */
  const at = async (css: string, nth = 0): Promise<[string, string]> => {
    const expression = `(() => { const r = document.querySelectorAll(${JSON.stringify(css)})[${nth}].getBoundingClientRect(); return [screenX + (outerWidth - innerWidth) / 2 + r.x + r.width / 2, screenY + outerHeight - innerHeight + r.y + r.height / 2].map(Math.round); })()`;
    const r = await client.Runtime.evaluate({ expression, returnByValue: true });
    const [x, y] = r.result.value as [number, number];
    return [String(x), String(y)];
  };
  const click = async (css: string, nth = 0) => xdo("mousemove", "--sync", ...(await at(css, nth)), "click", "1");
  const pointAt = async (css: string) => xdo("mousemove", "--sync", ...(await at(css)));
  return { client, window, click, pointAt };
}

/** A codegen session on `page` through the CLI, and its window. */
async function openSession(page: string, title: string, out: string, extra: string[] = []) {
  const cli = spawnCli(["codegen", `${server.url}/${page}`, "--out", out, ...extra]);
  await waitFor("the codegen notice", () => cli.stderr().includes("close the window"));
  return { cli, ...(await attachWindow(cli.proc.pid, page, title)), path: join(project.dir, out) };
}

/** Every file under the project (bytes) and the given outputs that contain `secret`. */
function holding(secret: string, outputs: Record<string, string>): string[] {
  const files = project.files().filter((f) => readFileSync(join(project.dir, f)).includes(Buffer.from(secret)));
  return [
    ...files,
    ...Object.entries(outputs)
      .filter(([, text]) => text.includes(secret))
      .map(([name]) => name),
  ];
}

describe("flowproof codegen (headed, real input)", () => {
  test("a sign-in: typing per field, the password as ${PASSWORD} and nowhere else, a checkbox, a button, an assertion by pointing, an address-bar navigation; then record and run pass", async () => {
    const s = await openSession("codegen-sign-in.html", "Sign in - Codegen", "sign-in.flow.yaml");
    try {
      await s.click("#email");
      xdo("type", "--delay", "30", "ada@example.com");
      await s.click("#password");
      xdo("type", "--delay", "30", SECRET);
      await s.click("#remember");
      await waitForSteps(s.path, 3);
      await s.click("button");
      await waitForSteps(s.path, 4);
      await s.pointAt("#message");
      xdo("key", "alt+a");
      await waitForSteps(s.path, 5);
      // The address bar takes the keys once it has focus; a press that lands before that (a busy
      // machine) navigates nowhere, and is made again, as a person would. Whether the browser went
      // there is read from the page; the step must then follow.
      const at = async (): Promise<string> =>
        String((await s.client.Runtime.evaluate({ expression: "location.pathname", returnByValue: true }).catch(() => undefined))?.result.value ?? "");
      // The page's document loses focus once the address bar has it: typing waits for that, so a
      // first key that landed in the page cannot turn the address into a search.
      const pageFocused = async (): Promise<boolean> =>
        (await s.client.Runtime.evaluate({ expression: "document.hasFocus()", returnByValue: true }).catch(() => undefined))?.result.value !== false;
      for (let attempt = 0; attempt < 3 && (await at()) !== "/codegen-people.html"; attempt++) {
        xdo("key", "ctrl+l");
        const focusBy = Date.now() + 3_000;
        while ((await pageFocused()) && Date.now() < focusBy) await Bun.sleep(50);
        xdo("type", "--delay", "30", `${server.url}/codegen-people.html`);
        xdo("key", "Return");
        const until = Date.now() + 10_000;
        while ((await at()) !== "/codegen-people.html" && Date.now() < until) await Bun.sleep(100);
      }
      expect(await at()).toBe("/codegen-people.html");
      // What the browser's history says of that navigation, shown when the step does not follow.
      const history = async (): Promise<string> =>
        JSON.stringify((await s.client.Page.getNavigationHistory().catch(() => undefined))?.entries.map((e) => [e.url, e.transitionType]));
      const seen = await history();
      await waitForSteps(s.path, 6, () => `history: ${seen}\n${s.cli.stderr()}`);
    } finally {
      await s.client.close().catch(() => undefined);
    }
    // Closing the window, as a person does, ends the session.
    // To the focused window (the browser, which has just been typed into): the X window found by
    // title at the start may be one Chromium has since replaced.
    xdo("key", "--clearmodifiers", "ctrl+shift+w");
    const done = await s.cli.finished();
    expect(done.code).toBe(0);
    expect(stepsIn(s.path)).toEqual([
      'rules: Type ada@example.com into the "Email" field',
      'rules: Type ${PASSWORD} into the "Password" field',
      'rules: Check the "Remember me" checkbox',
      'rules: Press the "Sign in" button',
      'assert: the "id:message" shows Welcome back, ada@example.com',
      "rules: Go to ${APP_URL}/codegen-people.html",
    ]);
    expect(readFileSync(s.path, "utf8")).toContain("url: ${APP_URL}/codegen-sign-in.html");
    expect(done.stdout).toContain("Wrote 6 steps to sign-in.flow.yaml");
    expect(done.stdout).toContain('PASSWORD (the "Password" field)');
    expect(done.stdout).toContain(`Next: APP_URL=${server.url} PASSWORD=… flowproof record sign-in.flow.yaml`);
    expect(holding(SECRET, { stdout: done.stdout, stderr: done.stderr })).toEqual([]);

    const env = { APP_URL: server.url, PASSWORD: SECRET };
    const rec = await runCli(["record", "sign-in.flow.yaml"], { cwd: project.dir, env });
    expect(rec.code).toBe(0);
    const run = await runCli(["run", "sign-in.flow.yaml"], { cwd: project.dir, env });
    expect(run.code).toBe(0);
    expect(holding(SECRET, { record: rec.stdout + rec.stderr, run: run.stdout + run.stderr })).toEqual([]);
  });

  test("a table row's action by its item, a native dropdown, the second of two same buttons by ordinal, an assertion; Ctrl-C ends it and --record records it", async () => {
    const s = await openSession("codegen-people.html", "People - Codegen", "people.flow.yaml", ["--record"]);
    try {
      await s.click("tbody button", 1);
      await waitForSteps(s.path, 1);
      // A click on the label focuses the dropdown; the arrow keys then pick in it (one step: the last pick).
      await s.click("label[for=role]");
      xdo("key", "Down", "Down");
      await waitFor("the dropdown at Admin", () => stepsIn(s.path).includes('rules: Select Admin from the "Role" dropdown'));
      await s.click("button.save", 1);
      await waitForSteps(s.path, 3);
      await s.pointAt("#status");
      xdo("key", "alt+a");
      await waitForSteps(s.path, 4);
    } finally {
      await s.client.close().catch(() => undefined);
    }
    s.cli.proc.kill("SIGINT");
    const done = await s.cli.finished();
    expect(done.code).toBe(0);
    expect(stepsIn(s.path)).toEqual([
      'rules: Press the "Delete" button in the item containing "Grace Hopper"',
      'rules: Select Admin from the "Role" dropdown',
      'rules: Press the 2nd "Save" button',
      'assert: the "id:status" shows Saved the shipping address',
    ]);
    expect(done.stdout).toContain("Recorded it: people.trace.jsonl");
    expect(existsSync(join(project.dir, "people.trace.jsonl"))).toBe(true);
    const run = await runCli(["run", "people.flow.yaml"], { cwd: project.dir, env: { APP_URL: server.url } });
    expect(run.code).toBe(0);
  });

  test("from MCP: start opens the window, steps gives what was done so far, stop ends the session with the finished flow", async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, DISPLAY: display, NO_COLOR: "1" })) if (v !== undefined) env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp"],
      cwd: project.dir,
      env,
      stderr: "ignore",
    });
    const mcp = new Client({ name: "flowproof-codegen-test", version: "1.0.0" });
    await mcp.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await mcp.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
        content: Array<{ text: string }>;
      };
      if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      return r.structuredContent!;
    };
    try {
      const started = await call("flowproof_codegen_start", { url: `${server.url}/codegen-people.html`, out: "mcp.flow.yaml" });
      expect(started).toEqual({ session: "codegen-1", flow_path: join(project.dir, "mcp.flow.yaml") });
      const w = await attachWindow(transport.pid!, "codegen-people.html", "People - Codegen");
      try {
        await w.click("button.save", 1);
        await waitForSteps(join(project.dir, "mcp.flow.yaml"), 1);
      } finally {
        await w.client.close().catch(() => undefined);
      }
      expect(await call("flowproof_codegen_steps", { session: "codegen-1" })).toEqual({
        flow_path: join(project.dir, "mcp.flow.yaml"),
        steps: [{ key: "rules", text: 'Press the 2nd "Save" button' }],
      });
      const stopped = await call("flowproof_codegen_stop", { session: "codegen-1" });
      expect(stopped).toMatchObject({ steps: [{ key: "rules", text: 'Press the 2nd "Save" button' }], todos: 0, variables: [{ name: "APP_URL" }] });
      await expect(call("flowproof_codegen_steps", { session: "codegen-1" })).rejects.toThrow(/no codegen session/);
    } finally {
      await mcp.close();
    }
  });
});
