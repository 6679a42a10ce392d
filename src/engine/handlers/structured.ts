// Structured steps (`- assert_xxx: {…}` owned by an assertion plugin, and `assert_no_secret_leak`):
// resolves `${…}` in the arguments at execution, then auto-waits the plugin's one-attempt `run`
// (reads) or runs it exactly once (writes, or a bound of 0). The plugin never loops.
import { OutsideRootError } from "../../plugins/file-paths.ts";
import type { AssertionContext, AssertionPlugin, Verdict } from "../../plugins/api.ts";
import type { StepOutcome } from "./shared.ts";
import { errored, failed, handlerFor, passed } from "./shared.ts";
import { poll } from "../poll.ts";
import { resolveText } from "../templates.ts";
import { MIN_SECRET, type ExecutionContext, type StructuredContext } from "../context.ts";
import { surfaceShooter } from "../surface-shot.ts";
import { reportSent } from "../effects.ts";
import { DEFAULT_ASSERT_TIMEOUT_MS } from "../compile.ts";
import { pluginFile } from "../../plugins/loader.ts";

/**
 * One call of a plugin's `run()`, bounded by `ms`: a run that never settles is the plugin's fault,
 * named with its file and key, not the app's ("the app stopped responding").
 */
async function runBounded<T>(run: () => Promise<T>, ms: number, who: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new PluginRunTimeout(`${who}: its run() did not answer within ${ms} ms (it never settled); the plugin must resolve with a verdict or throw`)),
      ms,
    );
  });
  try {
    return await Promise.race([run(), late]);
  } finally {
    clearTimeout(timer);
  }
}

class PluginRunTimeout {
  constructor(readonly message: string) {}
}

/** Every string in `value` with its `${VAR}` / `${captured.x}` references resolved (throws when one is unset). */
export function resolveArgs(value: unknown, ctx: Pick<ExecutionContext, "env" | "captures" | "secrets">): unknown {
  if (typeof value === "string") return resolveText(value, ctx).value;
  if (Array.isArray(value)) return value.map((v) => resolveArgs(v, ctx));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveArgs(v, ctx)]));
  }
  return value;
}

/** A plugin's answer, checked at the boundary. */
function checkVerdict(v: unknown, key: string): Verdict | string {
  if (v === null || typeof v !== "object") return `${key} returned ${JSON.stringify(v)} instead of a verdict`;
  const o = v as Record<string, unknown>;
  if (o["pass"] === true) return { pass: true };
  if (o["pass"] === false && typeof o["actual"] === "string" && typeof o["expected"] === "string") return v as Verdict;
  return `${key} returned a malformed verdict (it needs \`pass\`, and \`expected\` and \`actual\` strings when it fails)`;
}

function assertionContext(step: { id: string; surface?: string }, ctx: ExecutionContext, s: StructuredContext): AssertionContext {
  const shoot = surfaceShooter(ctx.driver, () => [...ctx.secrets.values()].filter((v) => v.length >= MIN_SECRET));
  return {
    baseDir: s.baseDir,
    ...(ctx.paths ? { paths: ctx.paths } : {}),
    log: s.log,
    mode: s.mode,
    flowStem: s.flowStem,
    artifactDir: s.artifactDir,
    env: ctx.env,
    observe: (label, text) => s.leaks.observe(`${label} of step ${step.id}`, text),
    sent: reportSent,
    ...(shoot ? { screenshot: shoot } : {}),
    ...(step.surface !== undefined ? { surface: step.surface } : {}),
  };
}

export const structuredAssert = handlerFor(["assert"], async (step, ctx): Promise<StepOutcome> => {
  const p = step.action.params;
  if (p.kind !== "structured") return errored(`an assert step of kind ${p.kind} reached the structured handler`);
  const key = p.key;
  const s = ctx.structured;
  const plugin: AssertionPlugin | undefined = s?.assertions.get(key);
  if (!s || !plugin) {
    return errored(`no assertion plugin provides \`${key}\`; add the plugin that defines it to the project's plugins/ (docs/plugins.md)`);
  }
  const timeoutMs = p.timeout_ms ?? DEFAULT_ASSERT_TIMEOUT_MS;
  const policy = timeoutMs === 0 ? "once" : (plugin.policy?.(p.args as never) ?? "poll");
  const args = resolveArgs(p.args, ctx);
  const actx = assertionContext(step, ctx, s);
  let fault: string | undefined;
  const file = pluginFile(plugin);
  const who = `the assertion plugin for \`${key}\`${file ? ` (${file})` : ""}`;
  // Under the step's own guard (its bound, plus the navigation bound, plus a margin).
  const attemptMs = Math.max(timeoutMs, 1_000);
  const attempt = async (): Promise<Verdict | undefined> => {
    try {
      const v = checkVerdict(await runBounded(() => plugin.run(args as never, actx), attemptMs, who), key);
      if (typeof v === "string") fault = v;
      else return v;
    } catch (error) {
      // A path outside the run's roots is refused, naming the path and the root, not a plugin bug; a
      // plugin whose run() never answered is named with its key.
      fault =
        error instanceof OutsideRootError
          ? `${key}: ${error.message}`
          : error instanceof PluginRunTimeout
            ? error.message
            : `${key} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
    }
    return undefined;
  };
  let verdict: Verdict | undefined;
  let timedOut = false;
  if (policy === "once") verdict = await attempt();
  else {
    const r = await poll<Verdict | undefined>(ctx.clock, timeoutMs, async () => {
      const v = await attempt();
      if (v === undefined) return { done: false, retryable: false, last: v };
      return v.pass ? { done: true, value: v } : { done: false, retryable: v.retryable !== false, last: v };
    });
    verdict = r.value;
    timedOut = r.timedOut;
  }
  if (verdict === undefined) return errored(fault ?? `${key} gave no verdict`);
  if (verdict.pass) return passed();
  // A plugin's `actual` may already say what was expected (the documented failure messages do).
  const expected = verdict.expected && !verdict.actual.includes(verdict.expected) ? ` (expected ${verdict.expected})` : "";
  const why = `${verdict.actual}${expected}${verdict.hint ? `; ${verdict.hint}` : ""}`;
  const outcome = failed(timedOut ? `${key}: timed out after ${timeoutMs} ms: ${why}` : `${key}: ${why}`, {
    expected: verdict.expected,
    actual: verdict.actual,
    hint: verdict.hint,
  });
  return verdict.evidence && verdict.evidence.length > 0 ? { ...outcome, evidence: [...verdict.evidence] } : outcome;
});

export const secretLeakAssert = handlerFor(["assert"], async (step, ctx): Promise<StepOutcome> => {
  const s = ctx.structured;
  const p = step.action.params;
  if (p.kind !== "no_secret_leak") return errored(`an assert step of kind ${p.kind} reached the secret-leak handler`);
  const vars = p.vars;
  if (!s) return errored("assert_no_secret_leak cannot run here: no secret watch was set up for this run");
  // The boundary at this step counts too (what the surface shows right now).
  await s.leaks.scanSurface(ctx.driver, `surface text at step ${step.id}`);
  const problem = s.leaks.check(vars, ctx.env);
  return problem ? failed(problem) : passed();
});
