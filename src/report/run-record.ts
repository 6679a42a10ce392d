// The run record (`.flowproof/runs/<run-id>/report.json`): what a suite run proved, the source of
// `flowproof audit` and `flowproof merge`. Declared once with TypeBox (schema/run-record.schema.json),
// plus the pure rules that derive it: flow status and control verdicts. No I/O.
import { Type, type Static } from "@sinclair/typebox";
import type { RunReport } from "./schema.ts";
import { EARLIER_RUN_ID_PATTERN, RUN_ID_PATTERN } from "./run-id.ts";

export const FlowStatus = Type.Union(
  [
    Type.Literal("pass"),
    Type.Literal("fail"),
    Type.Literal("degraded"),
    Type.Literal("skipped"),
    Type.Literal("errored"),
    Type.Literal("stale"),
    Type.Literal("xfail"),
    Type.Literal("flaky"),
  ],
  {
    description: "stale: the flow file changed since its trace was recorded; the replay proves nothing about the flow as written.",
  },
);
export const ControlVerdict = Type.Union([Type.Literal("pass"), Type.Literal("fail"), Type.Literal("capability-error")]);

export const ControlRecord = Type.Object(
  {
    id: Type.String({ pattern: "^[a-z0-9._-]+$" }),
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    verdict: ControlVerdict,
    reason: Type.Optional(Type.String({ description: "Why the verdict is not pass (never a secret's value)." })),
    lanes: Type.Optional(
      Type.Array(Type.Union([Type.Literal("egress"), Type.Literal("secret_leak")]), {
        description: "What the flow asserts: `egress` (assert_no_egress), `secret_leak` (assert_no_secret_leak).",
      }),
    ),
    containment: Type.Optional(
      Type.String({ description: "What this run enforced on the agent's network: `enforced (linux …)` or `not contained (<reason>)`." }),
    ),
    evidence: Type.Object(
      {
        trace: Type.String({ description: "The trace replayed, relative to the suite directory." }),
        blocked: Type.Optional(
          Type.Array(Type.String(), { description: "Contained runs only: the destinations the agent attempted outside allow_egress, refused." }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const FlowRecord = Type.Object(
  {
    flow: Type.String({ description: "The flow file, relative to the suite directory." }),
    name: Type.String(),
    browser: Type.Optional(
      Type.String({
        description: "The entry of the suite's `browsers:` matrix this run of the flow ran in (the flow runs once per entry); absent without a matrix.",
      }),
    ),
    status: FlowStatus,
    degraded: Type.Optional(Type.Boolean()),
    position: Type.Integer({ minimum: 0, description: "The flow's place in the unsharded suite order (merge sorts by it)." }),
    duration_ms: Type.Integer({ minimum: 0 }),
    attempts: Type.Optional(Type.Integer({ minimum: 1 })),
    reason: Type.Optional(Type.String({ description: "Why the flow was skipped, errored or failed." })),
    result: Type.Optional(Type.String({ description: "The flow's result.json, relative to this record." })),
    exports: Type.Optional(Type.Array(Type.String(), { description: "Names of the variables the flow exported (never their values)." })),
    control: Type.Optional(ControlRecord),
  },
  { additionalProperties: false },
);

export const RunRecord = Type.Object(
  {
    run_id: Type.String({
      pattern: `${RUN_ID_PATTERN.source}|${EARLIER_RUN_ID_PATTERN.source}`,
      description: "Sortable: YYYYMMDDTHHMMSS.mmmZ (then -2, -3… within one millisecond); records written before carry YYYY-MM-DDTHH-MM-SSZ-<4 hex>.",
    }),
    started_at: Type.String({ format: "date-time" }),
    flowproof_version: Type.String(),
    env: Type.Object({ os: Type.String() }, { additionalProperties: false }),
    suite: Type.String({ description: "The suite directory (or the single flow's directory)." }),
    shard: Type.Optional(
      Type.Object(
        {
          index: Type.Integer({ minimum: 1 }),
          total: Type.Integer({ minimum: 1 }),
          flows: Type.Optional(
            Type.Integer({ minimum: 0, description: "Flows in the whole suite (every shard together): a merge must account for all of them." }),
          ),
          plan: Type.Optional(
            Type.String({
              pattern: "^sha256:[0-9a-f]{64}$",
              description: "sha256 of the suite's ordered flow list: shards merge only with shards of the same suite and flow list.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    merged_from: Type.Optional(Type.Array(Type.String(), { description: "Run ids this record was merged from (`flowproof merge`)." })),
    flows: Type.Array(FlowRecord),
  },
  { additionalProperties: false },
);

export type FlowStatus = Static<typeof FlowStatus>;
export type ControlVerdict = Static<typeof ControlVerdict>;
export type ControlRecord = Static<typeof ControlRecord>;
export type FlowRecord = Static<typeof FlowRecord>;
export type RunRecord = Static<typeof RunRecord>;

export const RUN_RECORD_RETENTION = 10;

/** Failure texts that mean "this run cannot certify the control", not "the control does not hold". */
const CAPABILITY = /not contained|cannot certify|not enforced|no trace recorded/i;

/**
 * What a control's run report says beyond its verdict: the lanes it asserts (read from its steps as
 * authored), the agent's containment tier, and (contained runs only) what the agent was refused.
 */
export function controlEvidence(report: Pick<RunReport, "steps">): { lanes?: ("egress" | "secret_leak")[]; containment?: string; blocked?: string[] } {
  const lanes: ("egress" | "secret_leak")[] = [];
  // An agent run reports each authored step as a line of its own (`assert_no_egress` one of them).
  if (report.steps.some((s) => s.intent.split("\n").includes("assert_no_egress"))) lanes.push("egress");
  if (report.steps.some((s) => s.intent.startsWith("assert_no_secret_leak:"))) lanes.push("secret_leak");
  const agent = report.steps.find((s) => s.agent?.containment !== undefined)?.agent;
  return {
    ...(lanes.length > 0 ? { lanes } : {}),
    ...(agent?.containment !== undefined ? { containment: agent.containment } : {}),
    ...(agent?.egress_attempts !== undefined ? { blocked: agent.egress_attempts.map((a) => a.destination) } : {}),
  };
}

/** A control's record: its declaration, its verdict, the lanes and containment of its run, and its evidence. */
export function controlRecord(
  control: { readonly id: string; readonly title?: string; readonly description?: string },
  status: FlowStatus,
  reason: string | undefined,
  report: Pick<RunReport, "steps">,
  trace: string,
): ControlRecord {
  const { blocked, ...facts } = controlEvidence(report);
  return { ...control, ...controlVerdict(status, reason), ...facts, evidence: { trace, ...(blocked ? { blocked } : {}) } };
}

/** A control's verdict from its flow's status and reason (feature inventory §5.3). */
export function controlVerdict(status: FlowStatus, reason: string | undefined): { verdict: ControlVerdict; reason?: string } {
  if (status === "skipped" || status === "errored" || status === "stale") return { verdict: "capability-error", ...(reason ? { reason } : {}) };
  if (reason && CAPABILITY.test(reason)) return { verdict: "capability-error", reason };
  // A control known to fail is a failing control, whatever the flow's own verdict.
  if (status === "fail" || status === "xfail" || status === "flaky") return { verdict: "fail", ...(reason ? { reason } : {}) };
  return { verdict: "pass" };
}

/** A flow's status in the record, from its run report's outcome (an interrupted flow is errored). */
export function flowStatus(report: Pick<RunReport, "outcome" | "degraded">): FlowStatus {
  switch (report.outcome) {
    case "stale":
      return "stale";
    case "skipped":
      return "skipped";
    case "errored":
    case "interrupted":
      return "errored";
    case "failed":
      return "fail";
    case "expected_failure":
      return "xfail";
    case "flaky":
      return "flaky";
    case "passed":
      return report.degraded ? "degraded" : "pass";
  }
}

/** Why a flow did not pass: the run's error, else the skip reason, else the first step that did not pass. */
export function flowReason(report: Pick<RunReport, "outcome" | "error" | "steps" | "expected_failure" | "flaky">): string | undefined {
  if (report.outcome === "passed") return undefined;
  if (report.error !== undefined) return report.error;
  if (report.flaky) return `flaky: ${report.flaky.summary}`;
  if (report.expected_failure)
    return `known failure (${report.expected_failure.reason}): ${report.expected_failure.step} failed as recorded${report.expected_failure.detail ? `: ${report.expected_failure.detail}` : ""}`;
  const step = report.steps.find((s) => s.status !== "passed");
  if (!step) return undefined;
  return report.outcome === "skipped" ? step.detail : `${step.id} ${step.intent}: ${step.detail ?? step.status}`;
}

export function runRecordSchemaDocument(): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://flowproof.dev/schema/run-record.schema.json",
    title: "flowproof run record (.flowproof/runs/<run-id>/report.json)",
    ...RunRecord,
  };
}
