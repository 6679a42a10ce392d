// result.json (the run report) declared once: TypeBox gives the static type and the JSON Schema
// written to schema/result.schema.json. No I/O.
import { Type, type Static } from "@sinclair/typebox";
import { RanOn } from "../trace/schema.ts";

export const StepStatus = Type.Union([Type.Literal("passed"), Type.Literal("failed"), Type.Literal("skipped"), Type.Literal("errored")]);

/** An agent run's conversation (`app: agent`): what a reviewer reads in report.html. */
export const AgentRunReport = Type.Object(
  {
    turns: Type.Integer({ minimum: 0, description: "Model requests answered." }),
    model_calls: Type.Integer({
      minimum: 0,
      description: "Model requests forwarded to the upstream model: at record, every turn; at replay 0 (served from the cassette).",
    }),
    calls: Type.Array(
      Type.Object(
        {
          turn: Type.Integer({
            minimum: 1,
            description: "The turn (model request, counting from 1 as report.html and the failure messages do) whose response made the call.",
          }),
          name: Type.String(),
          arguments: Type.Unknown({ description: "The call's arguments as the model sent them (parsed JSON)." }),
          result: Type.Optional(Type.String({ description: "What the model was then told the tool answered." })),
        },
        { additionalProperties: false },
      ),
    ),
    reply: Type.Optional(Type.String({ description: "The main conversation's final assistant text." })),
    output: Type.Optional(
      Type.Object(
        {
          stdout: Type.String({ description: "The agent's stdout, redacted, relative to the run bundle." }),
          stderr: Type.String({ description: "The agent's stderr, redacted, relative to the run bundle." }),
        },
        { additionalProperties: false, description: "A spawned agent: where its output is kept in the run bundle." },
      ),
    ),
    healed: Type.Optional(
      Type.Object(
        {
          kept_turns: Type.Integer({ minimum: 0, description: "Turns served from the recording before the first divergence." }),
          recorded: Type.Object(
            { turns: Type.Integer({ minimum: 0 }), calls: Type.Array(Type.Unknown()), reply: Type.Optional(Type.String()) },
            { additionalProperties: false, description: "The conversation the recording held." },
          ),
        },
        { additionalProperties: false, description: "`flowproof heal` of an agent flow: what was kept and what the recording held." },
      ),
    ),
    diverged_turn: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "Replay: the turn whose model request diverged from the recording; `calls` then hold the calls and results as they happened at replay, up to it.",
      }),
    ),
    notes: Type.Optional(
      Type.Array(Type.String(), { description: "Replay: request fields that differed from the recording but were not compared (`match: conversation`)." }),
    ),
    failed_check: Type.Optional(
      Type.Object(
        {
          text: Type.String({ description: "The agent assertion that did not hold." }),
          call: Type.Optional(Type.Integer({ minimum: 0, description: "0-based index of the call it matched or missed." })),
        },
        { additionalProperties: false },
      ),
    ),
    containment: Type.Optional(
      Type.String({ description: "How the agent's network was contained: `enforced (linux …)` or `not contained (<reason>)` (docs/agents.md, Containment)." }),
    ),
    egress_attempts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            destination: Type.String({
              description:
                "What the agent tried outside agent.allow_egress, refused: `tcp 10.0.0.9:443`, `udp 10.0.0.9:53`, `icmp 10.0.0.9`, `dns evil.example`.",
            }),
            at_ms: Type.Integer({ minimum: 0, description: "First attempt, ms after the agent started." }),
          },
          { additionalProperties: false },
        ),
        { description: "Contained runs only (absent when the run was not contained): every destination attempted outside agent.allow_egress." },
      ),
    ),
  },
  { additionalProperties: false },
);

/** An action's effect as report.html shows it (see docs/trace-format.md, "Effects"); never a body, a query or a value. */
export const EffectShape = Type.Object(
  {
    navigated: Type.Optional(Type.String({ description: "Normalised path it navigated to." })),
    requests: Type.Optional(Type.Array(Type.String(), { description: "`METHOD /normalised/path` of requests it sent." })),
    dialog: Type.Optional(Type.String()),
    download: Type.Optional(Type.Boolean()),
    target: Type.Optional(Type.Array(Type.String(), { description: "Which of the target's states changed." })),
    focus: Type.Optional(Type.Boolean()),
    dom: Type.Optional(Type.Union([Type.Literal("near"), Type.Literal("page")])),
  },
  { additionalProperties: false },
);

export const StepEffectReport = Type.Object(
  {
    check: Type.Union([Type.Literal("on"), Type.Literal("strict"), Type.Literal("off"), Type.Literal("unjudged")], {
      description:
        "`on`/`strict`: the recorded effect was compared; `off`: the flow or the step turned checking off; `unjudged`: nothing recorded to compare, or not observed.",
    }),
    observes: Type.Optional(
      Type.Array(Type.String(), {
        description: "Record: the effect kinds the surface observed. Replay: `[]` only for a step whose surface observes no effects (desktop), never judged.",
      }),
    ),
    recorded: Type.Optional(EffectShape),
    seen: Type.Optional(EffectShape),
    warning: Type.Optional(Type.String({ description: "A DOM, focus or GET effect that did not happen again (a failure only with `effects: strict`)." })),
  },
  { additionalProperties: false },
);

export const StepReport = Type.Object(
  {
    id: Type.String({
      pattern: "^s[0-9]{4,}(\\.[0-9]+)?$",
      description: "The trace step's id; `<id>.<n>` for the n-th authored step of an agent run (its prompts, follow-ups and assertions, one line each).",
    }),
    intent: Type.String(),
    status: StepStatus,
    detail: Type.Optional(Type.String({ description: "Why the step failed, errored or was skipped (never a secret's value)." })),
    expected: Type.Optional(Type.String({ description: "A failed assertion: what it expected, as authored (`${VAR}` references raw)." })),
    actual: Type.Optional(Type.String({ description: "A failed assertion: what the app showed; absent when the expectation held a `${VAR}` value." })),
    hint: Type.Optional(Type.String({ description: "A failed step: what to check or change." })),
    started_ms: Type.Integer({ minimum: 0, description: "Offset from the start of the run, ms." }),
    duration_ms: Type.Integer({ minimum: 0 }),
    selector_tier: Type.Optional(Type.String({ description: "The selector-ladder rung that matched." })),
    degraded: Type.Optional(Type.Boolean()),
    evidence: Type.Optional(
      Type.Array(Type.String(), { description: "Evidence files a failed assertion wrote, relative to result.json (e.g. visual/<name>.diff.png)." }),
    ),
    agent: Type.Optional(AgentRunReport),
    effect: Type.Optional(StepEffectReport),
  },
  { additionalProperties: false },
);

export const RecordingFrame = Type.Object(
  {
    offset_ms: Type.Integer({ minimum: 0, description: "When the frame was captured: offset from the run start, ms." }),
    file: Type.String({ description: "The frame's path relative to result.json: recording/frame-<offset_ms>-<sha256-8>.png." }),
  },
  { additionalProperties: false },
);

export const RecordingStep = Type.Object(
  {
    id: Type.String({ pattern: "^s[0-9]{4,}$" }),
    start_ms: Type.Integer({ minimum: 0 }),
    end_ms: Type.Integer({
      minimum: 0,
      description: "Ranges are monotonic and non-overlapping; a step's frames are exactly those whose offset_ms lies in [start_ms, end_ms].",
    }),
    frames_dropped: Type.Optional(
      Type.Literal("redaction", { description: "A frame of this step was not persisted because its redaction could not be guaranteed." }),
    ),
    frames_dropped_why: Type.Optional(
      Type.String({
        description:
          "Why the first frame of this step that was not persisted could not be masked (never a secret's value), e.g. a secret the screen shows could not be located.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const RecordingReport = Type.Object(
  {
    format: Type.Literal("filmstrip/1", { description: "Keyframes (before/after each step, on failure); a continuous format would say webm/1." }),
    dir: Type.String({ description: "Directory of the frames, relative to result.json." }),
    frames: Type.Array(RecordingFrame, { description: "In capture order." }),
    steps: Type.Array(RecordingStep),
    gif: Type.Optional(Type.String({ description: "recording.gif relative to result.json (with --video)." })),
  },
  { additionalProperties: false },
);

/**
 * The flow's one verdict, worked out once by the run and read by every output (exit code, console
 * line, report.html, junit.xml, the run record, a suite's counts).
 */
export const RunOutcome = Type.Union(
  [
    Type.Literal("passed"),
    Type.Literal("failed"),
    Type.Literal("errored"),
    Type.Literal("stale"),
    Type.Literal("skipped"),
    Type.Literal("interrupted"),
    Type.Literal("expected_failure"),
    Type.Literal("flaky"),
  ],
  {
    description:
      "passed: every step passed. failed: a step's check did not hold. errored: the flow could not run, or a step could not be performed (exit code 2). " +
      "stale: the flow file changed since its trace was recorded, whatever its steps did (exit code 2). skipped: the flow did not run (`skip_unless_env` unmet, or no trace in a suite run). " +
      "interrupted: the run was stopped (see `interrupted`) before this flow finished; counted as errored. " +
      "expected_failure: the flow declares a known failure (`expect: {fail: …}`) and its recorded step failed again (see `expected_failure`); exit code 0, reported as XFAIL. " +
      "flaky: with `--repeat-each`, the flow passed in some repeats and not in others (see `repeat` and `flaky`); exit code 1.",
  },
);

export const RunReport = Type.Object(
  {
    name: Type.String(),
    browser: Type.Optional(
      Type.String({
        description:
          "The entry of the suite's `browsers:` matrix this run of the flow ran in (`name` ends with it in brackets: `Checkout [firefox]`); absent without a matrix.",
      }),
    ),
    trace_id: Type.String(),
    passed: Type.Boolean(),
    outcome: RunOutcome,
    degraded: Type.Optional(Type.Boolean()),
    steps: Type.Array(StepReport),
    model_calls: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: "A flow with an agent run: the model requests the run sent to an upstream model, every agent run together (0 at replay).",
      }),
    ),
    duration_ms: Type.Integer({ minimum: 0 }),
    started_at: Type.String({ format: "date-time" }),
    flowproof_version: Type.String(),
    spec_path: Type.String(),
    trace_path: Type.String(),
    error: Type.Optional(
      Type.String({ description: "Why the flow could not run at all (browser missing, app unreachable…), or why its replay proves nothing (a stale trace)." }),
    ),
    stale: Type.Optional(
      Type.Object(
        {
          trace_hash: Type.String({ description: "spec.hash in the trace header: the flow file as recorded." }),
          flow_hash: Type.String({ description: "sha256 of the flow file as it is now." }),
        },
        {
          additionalProperties: false,
          description:
            "Present when the flow file changed since its trace was recorded: the replay ran the trace as recorded, so the flow did not pass (passed is false, error says why).",
        },
      ),
    ),
    recording: Type.Optional(RecordingReport),
    expected_failure: Type.Optional(
      Type.Object(
        {
          reason: Type.String({ description: "The flow's `expect: {fail: …}`, as written." }),
          step: Type.String({ pattern: "^s[0-9]{4,}$", description: "The step recorded failing." }),
          detail: Type.Optional(Type.String({ description: "How it failed at this run." })),
        },
        {
          additionalProperties: false,
          description: "Present on a flow that declares a known failure and failed at its recorded step again (outcome `expected_failure`).",
        },
      ),
    ),
    repeat: Type.Optional(
      Type.Object(
        {
          of: Type.Integer({ minimum: 1, description: "How many times the flow was replayed (`--repeat-each`)." }),
          outcomes: Type.Array(RunOutcome, { description: "Each repeat's outcome, in order." }),
          runs: Type.Array(Type.String(), { description: "Each repeat's own result.json, relative to this one." }),
        },
        {
          additionalProperties: false,
          description: "With `--repeat-each N`: this report is the first repeat that did not pass (or the last, when all did), and how every repeat went.",
        },
      ),
    ),
    flaky: Type.Optional(
      Type.Object(
        {
          summary: Type.String({
            description: "How many repeats passed, and each differing step's outcomes: `2 of 3 repeats passed; s0002 passed/failed/passed`.",
          }),
          steps: Type.Array(
            Type.Object(
              {
                id: Type.String(),
                intent: Type.String(),
                outcomes: Type.Array(StepStatus),
                detail: Type.Optional(Type.String({ description: "One failing repeat's detail." })),
              },
              { additionalProperties: false },
            ),
            { description: "The steps whose outcome differed between repeats." },
          ),
        },
        { additionalProperties: false, description: "Present when the outcome is `flaky`." },
      ),
    ),
    ran_on: Type.Optional(RanOn),
    interrupted: Type.Optional(
      Type.String({
        description:
          "Present when the run was stopped before this flow finished: what stopped it (`SIGINT`, `SIGTERM`, or the MCP client closing the connection). The step it stopped at is errored with a detail starting `interrupted:`; the steps after it are skipped.",
      }),
    ),
  },
  { additionalProperties: false },
);

export type StepReport = Static<typeof StepReport>;
export type RunReport = Static<typeof RunReport>;
export type RunOutcome = Static<typeof RunOutcome>;
export type RecordingReport = Static<typeof RecordingReport>;

export function resultSchemaDocument(): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://flowproof.dev/schema/result.schema.json",
    title: "flowproof result.json (run report)",
    ...RunReport,
  };
}
