// Record-time refusal of an ambiguous plain label: a quoted label (a text target with no ordinal)
// that names several visible elements would silently act on the first. Recording asks which one
// instead; replay follows the trace as recorded and never decides again.
import type { TraceStep } from "../trace/schema.ts";
import { payloadOf } from "../trace/selector.ts";
import type { ExecutionContext } from "./context.ts";
import { ordinal } from "./scoped.ts";

/** The label as the step names it, with an optional ordinal: `the 2nd "Save" button`. */
function named(text: string, role: string | undefined, nth?: number): string {
  return `the ${nth !== undefined ? `${ordinal(nth)} ` : ""}${JSON.stringify(text)}${role !== undefined ? ` ${role}` : ""}`;
}

/**
 * While recording: why the step's target is ambiguous (its plain label names several distinct
 * visible elements), with the candidates and what to write instead; undefined otherwise, and
 * always on replay.
 */
export async function ambiguousLabel(step: TraceStep, ctx: ExecutionContext): Promise<string | undefined> {
  if (ctx.structured?.mode !== "record" || !ctx.driver.candidates) return undefined;
  const first = step.selectors[0];
  const anchor = payloadOf(first, "text_anchor");
  if (!anchor || anchor.nth !== undefined) return undefined;
  const text = anchor.text;
  const found = await ctx.driver.candidates(step.selectors);
  if (found.length < 2) return undefined;
  const role = anchor.role;
  const second = found[1]!.nth;
  return (
    `${found.length} elements match ${JSON.stringify(text)}: ${found.map((c) => `${ordinal(c.nth)} ${c.what}`).join(", ")}; ` +
    `say which one with an ordinal, e.g. \`${named(text, role, second)}\`, or a scope, e.g. \`${named(text, role)} in the item containing "…"\``
  );
}
