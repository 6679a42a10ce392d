// The MCP tools: one object per CLI command, each calling the same commands/ core as the CLI. Their
// input schemas are generated from the CLI's flag table (src/cli/flags.ts): every flag becomes the
// argument of the same name in snake_case, with the flag's type, values and description, so a new
// flag reaches MCP unless it is listed in CLI_ONLY_FLAGS with the reason. Each tool returns the
// document `--json` prints, as structuredContent validated by its output schema. A failing flow is
// a normal result; only a command that could not run at all (bad flow, missing trace, broken
// plugin) is an error result carrying diagnostics.
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import { existsSync, statSync } from "node:fs";
import type { CommandName } from "../cli/flags.ts";
import { inputSchemaFor, toolOptions, type ToolArgs } from "./tool-flags.ts";
import { record } from "../commands/record.ts";
import { runInSuiteContext } from "../commands/run-single.ts";
import { runSuite } from "../commands/suite.ts";
import { suiteDocument } from "../commands/suite-document.ts";
import { parseShard } from "../commands/suite-plan.ts";
import { audit } from "../commands/audit.ts";
import { merge } from "../commands/merge.ts";
import { validateFlow } from "../commands/validate.ts";
import { getTrace } from "../commands/get-trace.ts";
import { heal } from "../commands/heal.ts";
import { CodegenSession, type CodegenResult } from "../commands/codegen.ts";
import { RunReport } from "../report/schema.ts";
import { TraceHeader, TraceStep } from "../trace/schema.ts";
import type { PathRole } from "./roots.ts";

/** What a running tool call can do besides returning: report progress. */
export interface ToolCall {
  /** One progress line (a step authored, a flow finished); sent as an MCP progress notification when the client asked for them. */
  readonly progress: (message: string) => void;
  /** The server's roots: every file the flow reads or writes must lie inside them (absent: not confined, as in unit tests). */
  readonly roots?: readonly string[];
  /** The server's process lifecycle: what stops the call's flows (its own stop inside a call), and owns what they start. */
  readonly lifecycle?: Lifecycle;
}

/** The command options of a call's server: its roots confine the call, its lifecycle stops it. */
const rootOf = (call: ToolCall): { root?: readonly string[]; lifecycle?: Lifecycle } => ({
  ...(call.roots ? { root: call.roots } : {}),
  ...(call.lifecycle ? { lifecycle: call.lifecycle } : {}),
});

export interface McpTool {
  /** `flowproof_<command>`. */
  readonly name: `flowproof_${string}`;
  /** The CLI command whose flags this tool takes. */
  readonly command: CommandName;
  readonly description: string;
  /** Arguments as MCP sends them (snake_case, the CLI's flags); validated before `handle` runs. */
  readonly inputSchema: TObject;
  /** The shape of the result (the command's `--json` document). */
  readonly outputSchema: TSchema;
  /** The JSON value returned to the client; throws only when the command could not run. */
  handle(args: ToolArgs, call: ToolCall): Promise<Record<string, unknown>>;
  /** Its path arguments and what each names; each is checked against the server's roots before `handle` runs. */
  readonly paths: Readonly<Record<string, PathRole | "flow-or-dir">>;
}

export {
  CLI_ONLY_COMMANDS,
  CLI_ONLY_FLAGS,
  argName,
  flagSchema,
  inputSchemaFor,
  mcpDrift,
  toolOptions,
  type ToolArgs,
  type ToolOptions,
} from "./tool-flags.ts";

const spec = Type.String({ description: "Path of the flow file (`*.flow.yaml`), absolute or relative to the server's working directory." });

const usage = (message: string, hint: string) => new SpecError(diagnostic("usage", message, { hint }));

// Output schemas: the `--json` documents. Keys the commands may add later are allowed.
const path = Type.String();
const nullablePath = Type.Union([Type.String(), Type.Null()]);
const loose = { additionalProperties: true } as const;
const clarification = Type.Optional(Type.Object({}, { ...loose, description: "A step too ambiguous to author: what was asked and the candidates." }));

const SingleRunResult = Type.Object(
  {
    report: RunReport,
    report_path: nullablePath,
    run_dir: Type.Optional(path),
    junit_path: Type.Optional(path),
    html_path: Type.Optional(path),
    warnings: Type.Optional(Type.Array(Type.String())),
    hint: Type.Optional(Type.String()),
    skipped: Type.Optional(Type.String()),
  },
  loose,
);
const SuiteRunResult = Type.Object(
  {
    flows: Type.Array(
      Type.Object(
        {
          spec: Type.String(),
          browser: Type.Optional(
            Type.String({ description: "The suite's `browsers:` entry this run of the flow ran in (a flow runs once per entry); absent without a matrix." }),
          ),
          outcome: Type.Union(["passed", "failed", "skipped", "errored", "stale", "expected_failure", "flaky"].map((o) => Type.Literal(o))),
          report: RunReport,
          report_path: nullablePath,
          attempts: Type.Integer({ minimum: 0 }),
          exports: Type.Array(Type.String()),
          authoring: Type.Optional(Type.Literal("recorded")),
          reason: Type.Optional(Type.String()),
        },
        loose,
      ),
    ),
    passed: Type.Integer(),
    failed: Type.Integer(),
    skipped: Type.Integer(),
    errored: Type.Integer(),
    stale: Type.Integer(),
    flaky: Type.Integer(),
    expected_failures: Type.Integer(),
    junit_path: path,
    run_id: Type.String(),
    run_dir: path,
    record_path: path,
    html_path: path,
  },
  loose,
);

/** An output schema is an object at its root (MCP); a tool with two result shapes names both under anyOf. */
const objectOf = (...shapes: TObject[]): TSchema => (shapes.length === 1 ? shapes[0]! : ({ type: "object", anyOf: shapes } as unknown as TSchema));

export const recordTool: McpTool = {
  name: "flowproof_record",
  command: "record",
  paths: { spec: "flow", out: "trace-out" },
  description:
    "Perform a flow once in the live app and write its trace (whole, or not at all when a step fails). A failing step is a normal result with ok: false and the failing step's detail. A step too ambiguous to author returns {needs_clarification}.",
  inputSchema: inputSchemaFor("record", { spec }),
  outputSchema: Type.Object(
    {
      ok: Type.Optional(Type.Boolean()),
      name: Type.Optional(Type.String()),
      trace_path: Type.Optional(path),
      steps: Type.Optional(Type.Integer()),
      reused_steps: Type.Optional(Type.Integer()),
      routing: Type.Optional(Type.Array(Type.Object({ route: Type.String() }, loose))),
      warnings: Type.Optional(Type.Array(Type.String())),
      verified: Type.Optional(Type.Boolean()),
      error: Type.Optional(Type.String()),
      step_results: Type.Optional(Type.Array(Type.Object({}, loose))),
      agent: Type.Optional(Type.Object({}, loose)),
      needs_clarification: clarification,
    },
    loose,
  ),
  async handle(args, call) {
    const r = await record({ spec: args["spec"] as string, ...toolOptions("record", args), log: call.progress, ...rootOf(call) });
    // A step too ambiguous to author is data for the calling agent, not an error.
    if (r.clarification) return { needs_clarification: r.clarification as unknown as Record<string, unknown> };
    return {
      ok: r.ok,
      name: r.name,
      trace_path: r.trace_path,
      steps: r.steps,
      reused_steps: r.reused_steps,
      routing: r.routing,
      warnings: r.warnings,
      ...(r.agent ? { agent: r.agent } : {}),
      ...(r.verified !== undefined ? { verified: r.verified } : {}),
      ...(r.error !== undefined ? { error: r.error, step_results: r.step_results } : {}),
    };
  },
};

export const healTool: McpTool = {
  name: "flowproof_heal",
  command: "heal",
  paths: { spec: "flow", trace: "trace" },
  description:
    "Re-record a flow against the live app and propose a diff of its trace (steps compared by position on intent, action, surface and selectors), with <stem>.proposed.jsonl and a review page <stem>.heal.html showing old and new frames per changed step. The trace is only replaced with apply: true, and not when a step's effect changed (it navigates, sends, opens or changes something else, or nothing) unless accept_effect_changes: true too. A step too ambiguous to author returns {needs_clarification}.",
  inputSchema: inputSchemaFor("heal", { spec }),
  outputSchema: Type.Object(
    {
      report: Type.Optional(
        Type.Object({ changed: Type.Boolean(), steps_changed: Type.Array(Type.Unknown()), steps_added: Type.Integer(), steps_removed: Type.Integer() }, loose),
      ),
      applied: Type.Optional(Type.Boolean()),
      needs_clarification: clarification,
      error: Type.Optional(Type.String()),
    },
    loose,
  ),
  async handle(args, call) {
    const r = await heal({ spec: args["spec"] as string, ...toolOptions("heal", args), log: call.progress, ...rootOf(call) });
    if (!r.ok) return r.clarification ? { needs_clarification: r.clarification as unknown as Record<string, unknown> } : { error: r.error };
    return { report: r.report, applied: r.applied };
  },
};

/** Flags of `run` that only apply to a directory. */
const SUITE_ONLY = ["strict", "record_missing", "author", "workers", "shard"] as const;

export const runTool: McpTool = {
  name: "flowproof_run",
  command: "run",
  paths: { spec: "flow-or-dir", trace: "trace" },
  description:
    "Replay a flow's trace with zero model calls and write the run bundle (result.json, junit.xml, report.html); or, given a directory, run it as a suite (workers, shard, retries) with a run record. A failing flow is a normal result: report.passed is false and the failing step says what was expected and seen. Progress: one notification per replayed step of a flow (step 2/3: PASSED …), and per flow of a suite as it finishes.",
  inputSchema: inputSchemaFor("run", {
    spec: Type.String({
      description: "A flow file (`*.flow.yaml`), or a directory to run as a suite; absolute or relative to the server's working directory.",
    }),
  }),
  outputSchema: objectOf(SingleRunResult, SuiteRunResult),
  async handle(args, call) {
    const target = args["spec"] as string;
    const { trace, shard: shardText, ...options } = toolOptions("run", args);
    if (existsSync(target) && statSync(target).isDirectory()) {
      if (trace !== undefined)
        throw usage("`trace` names one flow's trace; a directory run uses each flow's own <stem>.trace.jsonl", "leave out `trace` for a directory");
      if (options.strict && options.recordMissing)
        throw usage("`strict` and `record_missing` contradict each other: one errors on a missing trace, the other records it", "pass one of them");
      const shard = shardText !== undefined ? parseShard(shardText) : undefined;
      if (shardText !== undefined && !shard) throw usage(`\`shard\` must be i/n with 1 ≤ i ≤ n, not ${JSON.stringify(shardText)}`, 'e.g. "shard": "2/3"');
      let done = 0;
      const r = await runSuite({
        dir: target,
        ...options,
        ...(shard ? { shard } : {}),
        log: call.progress,
        ...rootOf(call),
        onFlow: (f) =>
          call.progress(`flow ${++done}: ${f.outcome.toUpperCase()} ${f.spec}${f.browser ? ` [${f.browser}]` : ""}${f.reason ? ` (${f.reason})` : ""}`),
      });
      return suiteDocument(r);
    }
    const suiteOnly = SUITE_ONLY.find((k) => args[k] !== undefined);
    if (suiteOnly) throw usage(`\`${suiteOnly}\` applies to a suite run (a directory), not to one flow file`, "pass the flow's directory as `spec`");
    const { strict: _s, recordMissing: _r, author: _a, workers: _w, ...single } = options;
    const r = await runInSuiteContext({
      spec: target,
      ...(trace !== undefined ? { trace } : {}),
      ...single,
      log: call.progress,
      ...rootOf(call),
      onStep: (index, total, intent, result) => call.progress(`step ${index}/${total}: ${result.status.toUpperCase()} ${intent.split("\n")[0]}`),
    });
    if (r.skipped !== undefined) return { report: r.report, report_path: null, skipped: r.skipped };
    return {
      report: r.report,
      report_path: r.report_path,
      run_dir: r.run_dir,
      junit_path: r.junit_path,
      html_path: r.html_path,
      warnings: r.warnings,
      ...(r.error_hint !== undefined ? { hint: r.error_hint } : {}),
    };
  },
};

export const getTraceTool: McpTool = {
  name: "flowproof_get_trace",
  command: "trace",
  paths: { spec: "flow", trace: "trace" },
  description: "Read a flow's recorded trace: the header (app, environment, flowproof version) and every step's action, selectors and sync conditions.",
  inputSchema: inputSchemaFor("trace", { spec }),
  outputSchema: Type.Object({ trace_path: path, header: TraceHeader, steps: Type.Array(TraceStep) }, loose),
  async handle(args) {
    return { ...getTrace({ spec: args["spec"] as string, ...toolOptions("trace", args) }) };
  },
};

export const validateTool: McpTool = {
  name: "flowproof_validate",
  command: "validate",
  paths: { spec: "flow" },
  description:
    "Parse and check a flow without starting the app: YAML, keys, every step's grammar and whether this version runs each form. Problems come back together, each with file:line:col and a hint.",
  inputSchema: inputSchemaFor("validate", { spec }),
  outputSchema: Type.Object({ valid: Type.Literal(true), name: Type.String(), app: Type.String(), steps: Type.Integer() }, loose),
  async handle(args, call) {
    return { valid: true, ...(await validateFlow({ spec: args["spec"] as string, ...rootOf(call) })) };
  },
};

export const auditTool: McpTool = {
  name: "flowproof_audit",
  command: "audit",
  paths: { dir: "dir" },
  description:
    "The control map of a suite from its persisted run record (never re-runs): each flow's `control` with its verdict (pass, fail or capability-error) and evidence. With `since`, the difference to an earlier run: added, removed and changed controls, and whether that is a regression.",
  inputSchema: inputSchemaFor("audit", { dir: Type.String({ description: "The suite directory (the one `flowproof run <dir>` ran)." }) }),
  outputSchema: objectOf(
    Type.Object({ controls: Type.Array(Type.Object({ id: Type.String(), verdict: Type.String() }, loose)), failed: Type.Boolean() }, loose),
    Type.Object(
      { added: Type.Array(Type.Unknown()), removed: Type.Array(Type.Unknown()), changed: Type.Array(Type.Unknown()), regression: Type.Boolean() },
      loose,
    ),
  ),
  async handle(args) {
    const options = toolOptions("audit", args);
    if (options.run !== undefined && options.since !== undefined)
      throw usage("`run` and `since` cannot be combined: `since` always compares against the latest run", "pass one of them");
    const r = audit({ dir: args["dir"] as string, ...options });
    return r.kind === "map" ? { ...r.map, failed: r.failed } : { ...r.diff, regression: r.regression };
  },
};

export const mergeTool: McpTool = {
  name: "flowproof_merge",
  command: "merge",
  paths: { run_dirs: "dir", out: "dir" },
  description: "Join the run records of shards (`flowproof_run` with `shard`) into one run record, junit.xml and report.",
  inputSchema: inputSchemaFor("merge", {
    run_dirs: Type.Array(Type.String(), { minItems: 1, description: "The run directories of the shards (`<suite>/.flowproof/runs/<run-id>`)." }),
  }),
  outputSchema: Type.Object(
    {
      run_id: Type.String(),
      merged_from: Type.Optional(Type.Array(Type.String())),
      flows: Type.Array(Type.Object({}, loose)),
      passed: Type.Integer(),
      failed: Type.Integer(),
      skipped: Type.Integer(),
      errored: Type.Integer(),
      expected_failures: Type.Integer(),
      record_path: path,
      junit_path: path,
      html_path: path,
    },
    loose,
  ),
  async handle(args, call) {
    const r = merge({ runDirs: args["run_dirs"] as string[], ...toolOptions("merge", args), log: call.progress });
    return {
      run_id: r.record.run_id,
      ...(r.record.merged_from ? { merged_from: r.record.merged_from } : {}),
      flows: r.record.flows,
      passed: r.passed,
      failed: r.failed,
      skipped: r.skipped,
      errored: r.errored,
      expected_failures: r.expected_failures,
      record_path: r.record_path,
      junit_path: r.junit_path,
      html_path: r.html_path,
    };
  },
};

const CodegenStepShape = Type.Object(
  { key: Type.Union([Type.Literal("rules"), Type.Literal("assert")]), text: Type.String(), todo: Type.Optional(Type.String()) },
  loose,
);
const codegenSessionArg = Type.Object(
  { session: Type.String({ description: "The session id `flowproof_codegen_start` returned." }) },
  { additionalProperties: false },
);
const CodegenDone = Type.Object(
  {
    flow_path: path,
    steps: Type.Array(CodegenStepShape),
    variables: Type.Array(Type.Object({ name: Type.String(), for: Type.String() })),
    todos: Type.Integer(),
    not_written: Type.Array(Type.String(), { description: "What the session saw but wrote no step for, each with why and what to write by hand." }),
    ended: Type.String(),
    record: Type.Optional(Type.Object({ ok: Type.Boolean(), trace_path: nullablePath, error: Type.Optional(Type.String()) }, loose)),
  },
  loose,
);
const stepsOf = (steps: CodegenResult["steps"]) => steps.map((s) => ({ key: s.key, text: s.text, ...(s.todo !== undefined ? { todo: s.todo } : {}) }));

/**
 * `flowproof codegen` for an agent working with a person at the screen: start opens the window and
 * returns a session id, steps returns the flow so far, stop ends the session (as closing the window
 * does) and returns the finished flow. Sessions live as long as this server.
 */
function codegenTools(): McpTool[] {
  const sessions = new Map<string, CodegenSession>();
  let next = 0;
  const sessionOf = (args: ToolArgs): CodegenSession => {
    const id = args["session"] as string;
    const s = sessions.get(id);
    if (!s)
      throw usage(
        `no codegen session ${JSON.stringify(id)}`,
        `sessions open: ${[...sessions.keys()].join(", ") || "none"}; start one with flowproof_codegen_start`,
      );
    return s;
  };
  const start: McpTool = {
    name: "flowproof_codegen_start",
    command: "codegen",
    paths: { out: "flow" },
    description:
      "Open the app at `url` in a browser window (on this machine's display) for a person to use; every action they take becomes a readable step of a flow file, rewritten after each step. Returns a session id for flowproof_codegen_steps and flowproof_codegen_stop.",
    inputSchema: inputSchemaFor("codegen", { url: Type.String({ description: "The page to start at (http, https or file URL)." }) }),
    outputSchema: Type.Object({ session: Type.String(), flow_path: path }, loose),
    async handle(args, call) {
      const session = await CodegenSession.start({
        url: args["url"] as string,
        ...toolOptions("codegen", args),
        ...(call.lifecycle ? { lifecycle: call.lifecycle } : {}),
        log: call.progress,
      });
      const id = `codegen-${++next}`;
      sessions.set(id, session);
      return { session: id, flow_path: session.flowPath };
    },
  };
  const steps: McpTool = {
    name: "flowproof_codegen_steps",
    command: "codegen",
    paths: {},
    description: "The steps a codegen session captured so far, in order (each `rules:` or `assert:` text, with a `todo` when it needs a look).",
    inputSchema: codegenSessionArg,
    outputSchema: Type.Object({ flow_path: path, steps: Type.Array(CodegenStepShape) }, loose),
    async handle(args) {
      const s = sessionOf(args);
      return { flow_path: s.flowPath, steps: stepsOf(s.steps) };
    },
  };
  const stop: McpTool = {
    name: "flowproof_codegen_stop",
    command: "codegen",
    paths: {},
    description:
      "End a codegen session (closes its window; also what happens when the person closes it) and return the finished flow: its steps, the variables to set (the origin's and each secret field's), and with `record` the recording's result.",
    inputSchema: codegenSessionArg,
    outputSchema: CodegenDone,
    async handle(args) {
      const s = sessionOf(args);
      sessions.delete(args["session"] as string);
      const r = await s.stop();
      return { ...r, steps: stepsOf(r.steps), variables: [...r.variables], not_written: [...r.not_written] };
    },
  };
  return [start, steps, stop];
}

/** Every tool the server offers, in listing order. */
export const TOOLS: readonly McpTool[] = [recordTool, runTool, getTraceTool, validateTool, healTool, auditTool, mergeTool, ...codegenTools()];
