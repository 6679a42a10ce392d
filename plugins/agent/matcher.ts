// Request ↔ recorded turn. Each turn is consumed once; the earliest unconsumed turn that matches
// wins. What "matches" is the flow's `match:` (MatchRule): by default the conversation the request
// carries (canonical.ts: model, instructions, messages, tool calls and results, tool definitions)
// plus any `compare:` paths, so a field an SDK upgrade adds or reorders is a note on the step, not
// a divergence; `strict` compares the whole body (key order aside). `ignore:` paths are dropped from
// both bodies first. A request that matches none is a divergence described against the earliest
// unconsumed turn, in the flow's words (divergence.ts). Pure.
import { conversationOfRequest, type MatchRule } from "./canonical.ts";
export type { MatchRule } from "./canonical.ts";
import { asProtocol, type Protocol } from "./dialects.ts";
import { describeDivergence } from "./divergence.ts";
import { fieldDiff, ignoring, jsonEqual, valuesAt } from "./json-diff.ts";
import { obj } from "./wire.ts";
export { fieldDiff, jsonEqual } from "./json-diff.ts";

export interface RecordedTurn {
  readonly protocol: string;
  readonly request: unknown;
}

export const DEFAULT_MATCH: MatchRule = { by: "conversation", ignore: [], compare: [] };

export type MatchResult =
  | { readonly ok: true; readonly index: number; readonly notes: readonly string[] }
  | { readonly ok: false; readonly detail: string; readonly index?: number };

/** What a request is compared by under `rule`: the whole body, or its conversation plus the `compare:` paths. */
export function matchKey(protocol: Protocol, body: unknown, rule: MatchRule): unknown {
  const kept = ignoring(body, rule.ignore);
  if (rule.by === "strict") return kept;
  const c = conversationOfRequest(protocol, kept);
  const strip = <T extends { wire: string }>(x: T) => {
    const { wire: _wire, ...rest } = x;
    return rest;
  };
  return {
    model: c.model,
    system: c.system,
    entries: c.entries.map(strip),
    tools: c.tools.map(strip),
    compared: rule.compare.map((p) => valuesAt(kept, p).map((v) => [v.path, v.value ?? null])),
  };
}

/** Whether `request` replays `turn` under `rule`. */
export function turnMatches(turn: RecordedTurn, protocol: Protocol, request: unknown, rule: MatchRule = DEFAULT_MATCH): boolean {
  return turn.protocol === protocol && jsonEqual(matchKey(protocol, turn.request, rule), matchKey(protocol, request, rule));
}

/** The request fields that differ but were not compared (`match: conversation`): notes on the step. */
export function uncomparedNotes(turn: RecordedTurn, request: unknown, rule: MatchRule, turnNumber: number): string[] {
  if (rule.by === "strict") return [];
  const diffs = fieldDiff(ignoring(turn.request, rule.ignore), ignoring(request, rule.ignore), 5);
  return diffs.length === 0
    ? []
    : [`turn ${turnNumber}: request fields that differ from the recording, not compared (match: conversation): ${diffs.join("; ")}`];
}

/** Finds the turn a request replays: the earliest unconsumed turn it matches under `rule`. */
export function matchTurn(
  turns: readonly RecordedTurn[],
  consumed: ReadonlySet<number>,
  protocol: Protocol,
  request: unknown,
  ordinal: number,
  rule: MatchRule = DEFAULT_MATCH,
): MatchResult {
  let earliest: number | undefined;
  for (const [i, turn] of turns.entries()) {
    if (consumed.has(i)) continue;
    earliest ??= i;
    if (turnMatches(turn, protocol, request, rule)) return { ok: true, index: i, notes: uncomparedNotes(turn, request, rule, i + 1) };
  }
  if (earliest === undefined) {
    return {
      ok: false,
      detail: `extra model call: request ${ordinal} has no recorded turn left (the cassette holds ${turns.length}); the agent asked the model more than it did at record`,
    };
  }
  const recorded = turns[earliest]!;
  return {
    ok: false,
    index: earliest,
    detail: describeDivergence({
      turn: earliest + 1,
      ordinal,
      recorded: { protocol: asProtocol(recorded.protocol), request: obj(recorded.request) },
      protocol,
      replayed: request,
      rule,
    }),
  };
}
