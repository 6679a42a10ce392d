// A known failure (`expect: {fail: …}`) is expected only while its step fails the same way it did
// at record: the same kind of check, the same target resolved, and the same reading of the app.
// Record writes the failure's signature into the trace header (`expect`); replay compares the new
// failure with it. An app that is down (a navigation that failed, a server error page, a refused
// connection) is never a known failure.
import type { TraceHeader, TraceStep } from "../trace/schema.ts";
import type { StepResult } from "./loop.ts";

export type RecordedFailure = NonNullable<TraceHeader["expect"]>;

/** Keys of an expectation that configure it rather than name what it checks. */
const EXPECT_SETTINGS = new Set(["timeout_ms", "scope", "count", "negate", "normalize", "offset"]);

/**
 * The kind of check a step makes: its action type, and for an assertion or a wait what it expects
 * (`assert value_contains`, `assert attribute+value_equals`, `assert assert_api`, `click`).
 */
export function checkOf(step: TraceStep): string {
  const a = step.action;
  if (a.type !== "assert" && a.type !== "wait") return a.type;
  const p = a.params;
  if (p.kind === "element_state")
    return `${a.type} ${Object.keys(p.expect)
      .filter((k) => !EXPECT_SETTINGS.has(k))
      .sort()
      .join("+")}`;
  if (p.kind === "structured") return `${a.type} ${p.key}`;
  return `${a.type} ${p.kind}`;
}

/** Whether a step reads the app's state (an element-state assertion or wait): its reading is what the app showed. */
const readsState = (step: TraceStep): boolean => (step.action.type === "assert" || step.action.type === "wait") && step.action.params.kind === "element_state";

const APP_DOWN =
  /answered HTTP 5\d\d|net::ERR_(?:CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE|NAME_NOT_RESOLVED|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|TIMED_OUT|CONNECTION_TIMED_OUT)|ECONNREFUSED|connection refused/i;

/** Whether a failure says the app is down: a navigation step that failed, a server error page, a refused connection. */
export function appDown(step: TraceStep, result: Pick<StepResult, "status" | "detail">): boolean {
  if (result.status === "passed") return false;
  return step.action.type === "launch" || APP_DOWN.test(result.detail ?? "");
}

/** The header's `expect` for a step that failed as the flow declares: the reason, the step and how it failed. */
export function recordedFailure(reason: string, step: TraceStep, result: StepResult): RecordedFailure {
  return {
    fail: reason,
    step: result.id,
    ...(result.detail !== undefined ? { failure: result.detail } : {}),
    check: checkOf(step),
    ...(result.selector_tier !== undefined ? { target: result.selector_tier } : {}),
    ...(readsState(step) && result.actual !== undefined ? { actual: result.actual } : {}),
  };
}

/** White space runs as one space, ends trimmed; durations (`1234 ms`) as `N ms`. */
const plain = (text: string | undefined): string | undefined => text?.replace(/\s+/g, " ").trim();
const message = (text: string | undefined): string | undefined => plain(text)?.replace(/\b\d+ ms\b/g, "N ms");

/**
 * Why a failure of the known-failure step is not the one recorded, or undefined when it is. The
 * rule (docs/flow-format.md, Known failures): same step and same kind of check; an element-state
 * check must resolve the same target (the same ladder rung, or none) and read the same value (white
 * space aside); any other step, or a check that holds a `${VAR}` (its reading is never recorded),
 * must fail with the same message (durations aside). An app that is down never matches.
 */
export function failureDifference(recorded: RecordedFailure, step: TraceStep, result: StepResult): string | undefined {
  if (result.id !== recorded.step) return `step ${result.id} failed, where step ${recorded.step} did at record`;
  if (result.status !== "failed") return `the step ${result.status}`;
  if (appDown(step, result)) return "the app is down, which is never a known failure";
  const check = checkOf(step);
  if (recorded.check !== undefined && recorded.check !== check) return `the check is \`${check}\` now, \`${recorded.check}\` at record`;
  if (recorded.actual !== undefined && readsState(step)) {
    if (recorded.target !== result.selector_tier)
      return `its target resolved ${result.selector_tier ? `by its ${result.selector_tier} rung` : "to nothing"}, ${recorded.target ? `by its ${recorded.target} rung` : "to nothing"} at record`;
    if (plain(recorded.actual) !== plain(result.actual)) return "the app shows something else";
    return undefined;
  }
  if (recorded.failure === undefined) return undefined;
  return message(recorded.failure) === message(result.detail) ? undefined : "it fails with another message";
}

/** The detail of a known-failure step that failed another way: both failures named, and what to do. */
export function otherFailureDetail(recorded: RecordedFailure, result: StepResult, why: string): string {
  return `failed, but not as the known failure (${recorded.fail}) was recorded (${why}): at record ${recorded.failure ?? "it failed"}; now ${result.detail ?? result.status}. Fix the app, or, if this is the known failure now, record the flow again`;
}
