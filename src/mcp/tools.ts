// The MCP tools: one object per tool (name, description, JSON input schema, handler), each calling
// the same commands/ core as the CLI. A failing flow is a normal result; only a command that could
// not run at all (bad flow, missing trace, broken plugin) is an error result carrying diagnostics.
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { record } from "../commands/record.ts";
import { runInSuiteContext } from "../commands/run-single.ts";
import { audit } from "../commands/audit.ts";
import { validate } from "../commands/validate.ts";
import { getTrace } from "../commands/get-trace.ts";
import { loadPluginsFor } from "../commands/common.ts";
import { heal } from "../commands/heal.ts";
import type { PathRole } from "./roots.ts";

export interface McpTool<S extends TSchema = TSchema> {
  /** `flowproof_<command>`. */
  readonly name: `flowproof_${string}`;
  readonly description: string;
  /** Arguments as MCP sends them (snake_case, the CLI's flags); validated before `handle` runs. */
  readonly inputSchema: S;
  /** The JSON value returned to the client; throws only when the command could not run. */
  handle(args: Static<S>): Promise<unknown>;
  /** Its path arguments and what each names; each is checked against the server's roots before `handle` runs. */
  readonly paths: Readonly<Record<string, PathRole>>;
}

const spec = Type.String({ description: "Path of the flow file (`*.flow.yaml`), absolute or relative to the server's working directory." });
const tracePath = Type.Optional(Type.String({ description: "Trace file; default `<stem>.trace.jsonl` next to the flow." }));

/** The three recording controls, with the CLI's names and defaults (docs/cli.md). */
const recordingDetail = Type.Optional(Type.Union([Type.Literal("full"), Type.Literal("low"), Type.Literal("off")], { description: "Frames kept: full (before and after every step, default), low (initial, every 5th step, final), off." }));
const video = Type.Optional(Type.Boolean({ description: "Also assemble recording.gif from the frames (default false)." }));
const highlightCursor = Type.Optional(Type.Boolean({ description: "Draw the pointer with a halo on a frame taken before each click and hover (default false)." }));
const controls = (args: { recording_detail?: "full" | "low" | "off" | undefined; video?: boolean | undefined; highlight_cursor?: boolean | undefined }) => ({
  ...(args.recording_detail !== undefined ? { recordingDetail: args.recording_detail } : {}),
  ...(args.video !== undefined ? { video: args.video } : {}),
  ...(args.highlight_cursor !== undefined ? { highlightCursor: args.highlight_cursor } : {}),
});

const author = Type.Optional(Type.Union([Type.Literal("auto"), Type.Literal("rules"), Type.Literal("llm")], { description: "Authoring backend for plain steps (default auto: the model when configured, else the rules grammar with a warning)." }));

const defineTool = <S extends TSchema>(tool: McpTool<S>): McpTool<S> => tool;

export const recordTool = defineTool({
  name: "flowproof_record",
  paths: { spec: "flow", out: "trace-out" },
  description: "Perform a flow once in the live app and write its trace (whole, or not at all when a step fails). A failing step is a normal result with ok: false and the failing step's detail.",
  inputSchema: Type.Object({
    spec,
    out: Type.Optional(Type.String({ description: "Where to write the trace; default `<stem>.trace.jsonl` next to the flow." })),
    author,
    recording_detail: recordingDetail,
    video,
    highlight_cursor: highlightCursor,
    reuse: Type.Optional(Type.Boolean({ description: "Reuse the existing trace's steps where intent and target still match; only drifted or new plain steps go to the model (default false)." })),
    verify: Type.Optional(Type.Boolean({ description: "Replay the fresh trace once; a trace that cannot reproduce itself is reported (and kept) (default false)." })),
  }, { additionalProperties: false }),
  async handle(args) {
    const r = await record({
      spec: args.spec, ...(args.out !== undefined ? { out: args.out } : {}), ...(args.author !== undefined ? { author: args.author } : {}), ...controls(args),
      ...(args.reuse === true ? { reuse: true } : {}), ...(args.verify === true ? { verify: true } : {}),
    });
    // A step too ambiguous to author is data for the calling agent, not an error.
    if (r.clarification) return { needs_clarification: r.clarification };
    return {
      ok: r.ok, name: r.name, trace_path: r.trace_path, steps: r.steps, reused_steps: r.reused_steps, routing: r.routing,
      warnings: r.warnings, ...(r.agent ? { agent: r.agent } : {}), ...(r.verified !== undefined ? { verified: r.verified } : {}),
      ...(r.error !== undefined ? { error: r.error, step_results: r.step_results } : {}),
    };
  },
});

export const healTool = defineTool({
  name: "flowproof_heal",
  paths: { spec: "flow", trace: "trace" },
  description: "Re-record a flow against the live app and propose a diff of its trace (steps compared by position on intent, action, surface and selectors), with <stem>.proposed.jsonl and a review page <stem>.heal.html showing old and new frames per changed step. The trace is only replaced with apply: true. A step too ambiguous to author returns {needs_clarification}.",
  inputSchema: Type.Object({
    spec,
    trace: tracePath,
    apply: Type.Optional(Type.Boolean({ description: "Copy the proposal over the trace and delete the proposal (default false)." })),
    author,
  }, { additionalProperties: false }),
  async handle(args) {
    const r = await heal({ spec: args.spec, ...(args.trace !== undefined ? { trace: args.trace } : {}), ...(args.apply === true ? { apply: true } : {}), ...(args.author !== undefined ? { author: args.author } : {}) });
    if (!r.ok) return r.clarification ? { needs_clarification: r.clarification } : { error: r.error };
    return { report: r.report, applied: r.applied };
  },
});

export const runTool = defineTool({
  name: "flowproof_run",
  paths: { spec: "flow", trace: "trace" },
  description: "Replay a flow's trace with zero model calls and write the run bundle (result.json, junit.xml, report.html). A failing flow is a normal result: report.passed is false and the failing step says what was expected and seen.",
  inputSchema: Type.Object({ spec, trace: tracePath, recording_detail: recordingDetail, video, highlight_cursor: highlightCursor }, { additionalProperties: false }),
  async handle(args) {
    const r = await runInSuiteContext({ spec: args.spec, ...(args.trace !== undefined ? { trace: args.trace } : {}), ...controls(args) });
    return { report: r.report, report_path: r.report_path, run_dir: r.run_dir, junit_path: r.junit_path, html_path: r.html_path, warnings: r.warnings, ...(r.error_hint !== undefined ? { hint: r.error_hint } : {}) };
  },
});

export const getTraceTool = defineTool({
  name: "flowproof_get_trace",
  paths: { spec: "flow", trace: "trace" },
  description: "Read a flow's recorded trace: the header (app, environment, flowproof version) and every step's action, selectors and sync conditions.",
  inputSchema: Type.Object({ spec, trace: tracePath }, { additionalProperties: false }),
  async handle(args) {
    return getTrace({ spec: args.spec, ...(args.trace !== undefined ? { trace: args.trace } : {}) });
  },
});

export const validateTool = defineTool({
  name: "flowproof_validate",
  paths: { spec: "flow" },
  description: "Parse and check a flow without starting the app: YAML, keys, every step's grammar and whether this version runs each form. Problems come back together, each with file:line:col and a hint.",
  inputSchema: Type.Object({ spec }, { additionalProperties: false }),
  async handle(args) {
    const plugins = await loadPluginsFor(args.spec, process.env);
    return { valid: true, ...validate({ spec: args.spec, plugins }) };
  },
});

export const auditTool = defineTool({
  name: "flowproof_audit",
  paths: { dir: "dir" },
  description: "The control map of a suite from its persisted run record (never re-runs): each flow's `control` with its verdict (pass, fail or capability-error) and evidence. With `since`, the difference to an earlier run: added, removed and changed controls, and whether that is a regression.",
  inputSchema: Type.Object({
    dir: Type.String({ description: "The suite directory (the one `flowproof run <dir>` ran)." }),
    run: Type.Optional(Type.String({ description: "Audit this run record (a run id) instead of the latest." })),
    since: Type.Optional(Type.String({ description: "Compare the latest run record with this one (a run id); cannot be combined with `run`." })),
  }, { additionalProperties: false }),
  async handle(args) {
    if (args.run !== undefined && args.since !== undefined) {
      throw new SpecError(diagnostic("bad-value", "`run` and `since` cannot be combined: `since` always compares against the latest run", { hint: "pass one of them" }));
    }
    const r = audit({ dir: args.dir, ...(args.run !== undefined ? { run: args.run } : {}), ...(args.since !== undefined ? { since: args.since } : {}) });
    return r.kind === "map" ? { ...r.map, failed: r.failed } : { ...r.diff, regression: r.regression };
  },
});

/** Every tool the server offers, in listing order. */
export const TOOLS: readonly McpTool[] = [recordTool, runTool, getTraceTool, validateTool, healTool, auditTool] as readonly McpTool[];
