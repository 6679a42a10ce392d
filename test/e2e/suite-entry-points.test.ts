// The three ways to drive flowproof — the CLI as a subprocess, the MCP server through the SDK's
// client, and the library's `Flow` — applied to one suite give one outcome: suite.yaml's
// `min_version` refuses record, run, heal and validate alike with the same diagnostic; its `env:`
// reaches `${VAR}` at record, run and heal; and heal runs between the suite's hooks, as record and
// run do. Real Chromium against a 127.0.0.1 page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidTrace } from "../support/schemas.ts";
import { Flow, errorToJson } from "../../src/index.ts";

let server: TestServer;
let project: TmpProject;
let client: Client;

/** Set only by the suite's `env:`, never in the environment of any of the three callers. */
const VARIABLE = "FP_ENTRY_POINTS_WHO";

beforeAll(async () => {
  requireChromium();
  expect(process.env[VARIABLE]).toBeUndefined();
  server = await startServer();
  project = tmpProject("flowproof-entry-points-");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1" })) if (v !== undefined) env[k] = v;
  client = new Client({ name: "flowproof-entry-points-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp"], cwd: project.dir, env, stderr: "ignore" }),
  );
});
afterAll(async () => {
  await client?.close();
  server?.stop();
  project?.remove();
});

interface ErrorDoc {
  readonly code: string;
  readonly message: string;
}

type Entry = "cli" | "mcp" | "library";
type Command = "record" | "run" | "heal" | "validate";
const ENTRIES: readonly Entry[] = ["cli", "mcp", "library"];
const TOOL: Record<Command, string> = { record: "flowproof_record", run: "flowproof_run", heal: "flowproof_heal", validate: "flowproof_validate" };
/** What each command takes besides the flow, the same on every entry point. */
const EXTRA: Record<Command, { cli: string[]; args: Record<string, unknown> }> = {
  record: { cli: ["--author", "rules", "--recording-detail", "off"], args: { author: "rules", recording_detail: "off" } },
  run: { cli: ["--recording-detail", "off"], args: { recording_detail: "off" } },
  heal: { cli: ["--author", "rules"], args: { author: "rules" } },
  validate: { cli: [], args: {} },
};

type Outcome = { readonly ok: true; readonly doc: Record<string, unknown> } | { readonly ok: false; readonly error: ErrorDoc };

/** One command on one entry point: its JSON document, or the error it was refused with. */
async function drive(entry: Entry, command: Command, spec: string): Promise<Outcome> {
  if (entry === "cli") {
    const r = await runCli([command, spec, ...EXTRA[command].cli, "--json"], { cwd: project.dir });
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    if (r.code === 2 && "error" in doc) return { ok: false, error: doc["error"] as ErrorDoc };
    return { ok: true, doc };
  }
  if (entry === "mcp") {
    const r = (await client.callTool({ name: TOOL[command], arguments: { spec, ...EXTRA[command].args } })) as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: Record<string, unknown>;
    };
    if (r.isError) return { ok: false, error: (JSON.parse(r.content[0]!.text) as { error: ErrorDoc }).error };
    return { ok: true, doc: r.structuredContent! };
  }
  const flow = new Flow(spec);
  try {
    switch (command) {
      case "record":
        return { ok: true, doc: { ...(await flow.record({ author: "rules", recordingDetail: "off" })) } };
      case "run":
        return { ok: true, doc: { ...(await flow.run({ recordingDetail: "off" })) } };
      case "heal":
        return { ok: true, doc: { ...(await flow.heal({ author: "rules" })) } };
      case "validate":
        return { ok: true, doc: { ...(await flow.validate()) } };
    }
  } catch (error) {
    return { ok: false, error: errorToJson(error) };
  }
}

const greeter = (name: string) =>
  flowYaml(name, `${server.url}/greeter.html`, [
    `rules: Type \${${VARIABLE}} into the "Your name" field`,
    'rules: Press the "Greet" button',
    "assert: page shows Hello, Ada!",
  ]);

describe("one suite, three entry points", () => {
  test("min_version refuses record, run, heal and validate with the same diagnostic everywhere", async () => {
    project.write("old/suite.yaml", 'min_version: "99.0.0"\n');
    const spec = project.write("old/flows/g.flow.yaml", greeter("Too new"));
    for (const command of ["record", "run", "heal", "validate"] as const) {
      const outcomes = await Promise.all(ENTRIES.map((entry) => drive(entry, command, spec)));
      for (const [i, o] of outcomes.entries()) {
        if (o.ok) throw new Error(`${ENTRIES[i]} ${command} was not refused: ${JSON.stringify(o.doc).slice(0, 300)}`);
        expect(o.error.code).toBe("bad-value");
        expect(o.error.message).toMatch(/suite\.yaml needs flowproof 99\.0\.0 or newer; this is flowproof \d+\.\d+\.\d+$/);
      }
      // The same refusal, word for word (the suite's path is shown relative to each caller's working directory).
      const refusals = outcomes.map((o) => (o.ok ? "" : `${o.error.code}: ${o.error.message.replace(/^.*suite\.yaml/, "suite.yaml")}`));
      expect(new Set(refusals).size).toBe(1);
    }
  });

  test("the suite's env: reaches ${VAR} at record, run and heal; heal runs between the hooks", async () => {
    const hooks = join(project.dir, "env", "hooks.log");
    project.write(
      "env/suite.yaml",
      ["env:", `  ${VARIABLE}: Ada`, `before_each: echo before >> ${hooks}`, `after_each: echo after >> ${hooks}`, ""].join("\n"),
    );
    const spec = project.write("env/flows/g.flow.yaml", greeter("Suite env"));
    const trace = join(project.dir, "env", "flows", "g.trace.jsonl");
    for (const entry of ENTRIES) {
      const recorded = await drive(entry, "record", spec);
      if (!recorded.ok) throw new Error(`${entry} record: ${recorded.error.message}`);
      expect([entry, recorded.doc["steps"], recorded.doc["trace_path"]]).toEqual([entry, 3, trace]);
      expectValidTrace(trace);
      // The trace stores the reference, never the suite's value.
      expect(readFileSync(trace, "utf8")).toContain(`\${${VARIABLE}}`);

      const ran = await drive(entry, "run", spec);
      if (!ran.ok) throw new Error(`${entry} run: ${ran.error.message}`);
      expect([entry, (ran.doc["report"] as { outcome: string }).outcome]).toEqual([entry, "passed"]);

      const before = readFileSync(hooks, "utf8");
      const healed = await drive(entry, "heal", spec);
      if (!healed.ok) throw new Error(`${entry} heal: ${healed.error.message}`);
      const report = (healed.doc["report"] ?? {}) as { changed?: boolean };
      expect([entry, healed.doc["error"], report.changed]).toEqual([entry, undefined, false]);
      // heal's re-record ran between before_each and after_each, as every execution of the flow does.
      expect([entry, readFileSync(hooks, "utf8").slice(before.length)]).toEqual([entry, "before\nafter\n"]);
    }
  });
});
