// Windows app surfaces in multi-surface flows, through the flowproof windows-x64 executable under
// Wine: a desktop block, an api block against a real HTTP server on 127.0.0.1 (Wine shares the
// network), and a second program whose launch command takes a value an earlier block remembered.
// (A web surface cannot run from the executable under Wine: it would have to start a Windows
// Chromium.) One Wine bed (Xvfb + prefix) for the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { compileWin32, flowproofExecutable, processesOfPrefix, showRun, startWineBed, winPath, type WineBed, type WineRun } from "../support/wine.ts";
import { startServer, type TestServer } from "../support/server.ts";

let bed: WineBed;
let exe: string;
let fixture: string;
let api: TestServer;

beforeAll(async () => {
  [exe, fixture] = await Promise.all([flowproofExecutable(), compileWin32()]);
  bed = await startWineBed();
  api = await startServer();
  // Answers 200 only for the person the desktop block greeted.
  api.setRoute("/api/people/Zed", () => Response.json({ name: "Zed" }));
}, 600_000);
afterAll(async () => {
  api?.stop();
  await bed?.stop();
}, 60_000);

const project = (name: string, flow: string): string => bed.writeFlow(name, flow);

const cli = (args: readonly string[], env: Record<string, string> = {}): Promise<WineRun> => bed.run(exe, args, { timeoutMs: 400_000, env });
const show = showRun;
const program = (args = "") => `'"${winPath(fixture)}"${args ? ` ${args}` : ""}'`;

/** Fixture programs of the bed still running (each surface's program must end with the flow). */
function fixturesRunning(): number[] {
  return processesOfPrefix(bed.prefix).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("fixture-");
    } catch {
      return false;
    }
  });
}

async function noFixtureLeft(): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  while (fixturesRunning().length > 0 && Date.now() < deadline) await Bun.sleep(200);
  return fixturesRunning();
}

describe("Windows app surfaces in apps:", () => {
  test("a desktop block, an api block and a second program started with a remembered value; each block foregrounds its window; recorded and replayed", async () => {
    const flow = project(
      "order",
      `name: order
apps:
  gui: { app: {command: ${program()}, window_title: "Flowproof Fixture"}, window: {width: 420, height: 560, x: 0, y: 0} }
  backend: { app: api }
  follow: { app: {command: ${program("--title=Order-${captured.who} --x=500 --y=0")}, window_title: "Order-\${captured.who}"} }
steps:
  - in: gui
    steps:
      - rules: Type Zed into the "Name" field
      - rules: Click "Greet"
      - rules: Remember the "id:101" as who
  - in: backend
    steps:
      - assert_api:
          request: GET \${API}/api/people/\${captured.who}
          status: 200
  - in: follow
    steps:
      - assert: page shows Order-Zed
      - rules: Type \${captured.who} into the "Name" field
      - assert: the "Name" field contains Zed
  - in: gui
    steps:
      - assert: the "id:120" shows Active
      - assert: the "id:112" shows Hello, Zed!
`,
    );
    const env = { API: api.url };
    const rec = await cli(["record", winPath(flow)], env);
    expect(rec.code, show(rec)).toBe(0);
    expect(await noFixtureLeft()).toEqual([]);
    const trace = readFileSync(flow.replace(/\.flow\.yaml$/, ".trace.jsonl"), "utf8");
    const header = JSON.parse(trace.split("\n")[0]!) as { app: { adapter: string }; apps: Record<string, Record<string, unknown>> };
    expect(header.app.adapter).toBe("multi");
    expect(header.apps["gui"]).toMatchObject({
      name: "gui",
      adapter: "windows",
      window_title: "Flowproof Fixture",
      geometry: { width: 420, height: 560, x: 0, y: 0 },
      backend: "win32",
    });
    // The launch command keeps the reference; the value is resolved again at every activation.
    expect(header.apps["follow"]).toMatchObject({ adapter: "windows", window_title: "Order-${captured.who}" });
    expect(String(header.apps["follow"]?.["command"])).toContain("--title=Order-${captured.who}");
    expect(header.apps["backend"]).toEqual({ name: "backend", adapter: "api" });

    const run = await cli(["run", winPath(flow)], env);
    expect(run.code, show(run)).toBe(0);
    expect(await noFixtureLeft()).toEqual([]);
  }, 900_000);

  test("a capture no earlier block made stops the run at the surface's activation, naming it; nothing is started with the literal reference", async () => {
    const flow = project(
      "unresolved",
      `name: unresolved
apps:
  gui: { app: {command: ${program()}, window_title: "Flowproof Fixture"} }
  follow: { app: {command: ${program("--title=Order-${captured.who}")}, window_title: "Order-\${captured.who}"} }
steps:
  - in: gui
    steps:
      - rules: Type Zed into the "Name" field
  - in: follow
    steps:
      - rules: Type Zed into the "Name" field
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).not.toBe(0);
    expect(rec.stdout + rec.stderr).toContain("surface `follow` cannot start: ${captured.who} was never remembered");
    expect(rec.stdout + rec.stderr).not.toContain("no window titled");
    expect(await noFixtureLeft()).toEqual([]);
  }, 300_000);

  test("flowproof.exe killed outright mid-flow (no exit hook runs): the program it started ends with it, one started through a launcher too", async () => {
    // Directly, and through cmd's `start`, which starts the fixture from another process and exits.
    const commands = [program(), `'cmd /c start "" "${winPath(fixture)}"'`];
    for (const [i, command] of commands.entries()) {
      const flow = project(
        `killed-${i}`,
        `name: killed
app: {command: ${command}, window_title: "Flowproof Fixture"}
steps:
  - rules: Type Ada into the "Name" field
  - assert: the "id:112" shows Never within 60s
`,
      );
      expect(fixturesRunning()).toEqual([]);
      const running = cli(["record", winPath(flow)]);
      // Once the fixture is up, the flow waits on its assertion: kill flowproof.exe's own process.
      const deadline = Date.now() + 120_000;
      while (fixturesRunning().length === 0 && Date.now() < deadline) await Bun.sleep(200);
      expect(fixturesRunning().length).toBeGreaterThan(0);
      await Bun.sleep(1_000);
      const flowproof = processesOfPrefix(bed.prefix).filter((pid) => {
        try {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
          return cmd.includes("flowproof") && cmd.includes(".exe") && !cmd.includes("fixture-");
        } catch {
          return false;
        }
      });
      expect(flowproof.length).toBeGreaterThan(0);
      for (const pid of flowproof) process.kill(pid, "SIGKILL");
      await running;
      // The kill-on-close job flowproof put the program in closed with flowproof's last handle.
      expect({ command, left: await noFixtureLeft() }).toEqual({ command, left: [] });
    }
  }, 300_000);

  test("bad window and app keys of a Windows surface are load errors at file:line:col, exit 2", async () => {
    const flow = project(
      "bad",
      `name: bad
apps:
  gui: { app: {command: a.exe, window_titel: A}, window: {width: 800, heigth: 600} }
  notes: { app: notepad, window: {width: 800, x: 1} }
steps:
  - in: notes
    steps:
      - rules: Hover over "File"
`,
    );
    const r = await cli(["validate", winPath(flow)]);
    expect(r.code, show(r)).toBe(2);
    expect(r.stderr).toContain(
      "bad.flow.yaml:3:32: error[unknown-key] unknown key `window_titel` in `apps.gui.app`: a Windows program is `{command, window_title}`",
    );
    expect(r.stderr).toContain("did you mean `window_title`?");
    expect(r.stderr).toContain("bad.flow.yaml:3:71: error[unknown-key] unknown key `heigth` in `apps.gui.window`");
    expect(r.stderr).toContain("bad.flow.yaml:4:34: error[bad-value] `apps.notes.window` gives `width` without `height`; a size needs both");
  }, 120_000);
});
