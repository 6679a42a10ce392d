// The agent assertions, checked over one execution's conversation (its turns at the model
// boundary): `assert_tool_call` (ordered subsequence of the tool calls, every call under
// `strict`), `assert_no_tool_call` (never, anywhere) and `reply contains|is`. Pure.
import type { AgentCheck, AgentClause, AgentConversation, AgentToolCall, AgentTurn } from "../../src/plugins/api.ts";
import { asProtocol, readRequest, readResponse } from "./dialects.ts";

/** The conversation a list of turns holds: every tool call with its result, and the final reply. */
export function conversationOf(turns: readonly AgentTurn[]): AgentConversation {
  const calls: AgentToolCall[] = [];
  const views = turns.map((t) => ({ req: readRequest(asProtocol(t.protocol), t.request), res: readResponse(asProtocol(t.protocol), t.response) }));
  views.forEach((v, turn) => {
    for (const c of v.res.calls) {
      const answered = views.slice(turn + 1).find((later) => later.req.results.has(c.id));
      calls.push({ turn, name: c.name, arguments: c.arguments, ...(answered ? { result: answered.req.results.get(c.id)! } : {}) });
    }
  });
  // The main conversation: turns grouped by system prompt, the group with most turns (tie: most request text).
  const groups = new Map<string, number[]>();
  views.forEach((v, i) => groups.set(v.req.system, [...(groups.get(v.req.system) ?? []), i]));
  let main: number[] = [];
  let mainText = -1;
  for (const g of groups.values()) {
    const text = g.reduce((n, i) => n + views[i]!.req.text.length, 0);
    if (g.length > main.length || (g.length === main.length && text > mainText)) {
      main = g;
      mainText = text;
    }
  }
  const last = main.length > 0 ? views[main[main.length - 1]!] : undefined;
  const reply = last && last.res.calls.length === 0 ? last.res.text : undefined;
  return { turns: turns.length, calls, ...(reply !== undefined ? { reply } : {}) };
}

/** The value at a dotted path (`passengers.0.name`); undefined when any part is missing. */
export function valueAt(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const part of path.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

const text = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Whether one clause holds for a call's arguments. */
export function clauseHolds(args: unknown, clause: AgentClause): boolean {
  const v = valueAt(args, clause.path);
  switch (clause.matcher) {
    case "exists":
      return v !== undefined;
    case "absent":
      return v === undefined;
    case "equals":
      return v !== undefined && text(v) === clause.value;
    case "contains":
      if (Array.isArray(v)) return v.some((e) => text(e) === clause.value || (typeof e === "string" && e.includes(clause.value ?? "")));
      return v !== undefined && text(v).includes(clause.value ?? "");
    case "matches":
      return v !== undefined && new RegExp(clause.value ?? "").test(text(v));
  }
}

const describeClause = (c: AgentClause): string => `${c.path} ${c.matcher === "absent" ? "is absent" : c.matcher}${c.value !== undefined ? ` ${c.value}` : ""}`;
const describeCheck = (tool: string, where: readonly AgentClause[]): string =>
  `\`${tool}\`${where.length > 0 ? ` where ${where.map(describeClause).join(" and ")}` : ""}`;
export const describeCall = (c: AgentToolCall, i: number): string => `#${i + 1} ${c.name}(${text(c.arguments)})`;

/** Why the closest call of the right tool misses, clause by clause. */
function nearestMiss(calls: readonly AgentToolCall[], from: number, tool: string, where: readonly AgentClause[]): string {
  const same = calls.map((c, i) => ({ c, i })).filter(({ c, i }) => i >= from && c.name === tool);
  if (same.length === 0)
    return calls.length === 0
      ? "the agent made no tool call"
      : `the agent's tool calls${from > 0 ? ` after call #${from}` : ""}: ${
          calls
            .slice(from)
            .map((c, i) => describeCall(c, i + from))
            .join(", ") || "none"
        }`;
  return same
    .map(({ c, i }) => {
      const misses = where
        .filter((w) => !clauseHolds(c.arguments, w))
        .map((w) => `${w.path} is ${valueAt(c.arguments, w.path) === undefined ? "absent" : text(valueAt(c.arguments, w.path))}`);
      return `call ${describeCall(c, i)}: ${misses.join(", ")}`;
    })
    .join("; ");
}

export interface CheckFailure {
  /** Index of the failing check in the list given. */
  readonly index: number;
  readonly detail: string;
  /** The call it matched (negated) or the call it missed, when one can be named. */
  readonly call?: number;
}

/** The first check that does not hold, or undefined when all hold. */
export function firstFailure(checks: readonly AgentCheck[], conversation: AgentConversation, strict: boolean): CheckFailure | undefined {
  const calls = conversation.calls;
  let cursor = 0;
  const matched: number[] = [];
  for (const [index, check] of checks.entries()) {
    if (check.kind === "reply") {
      if (conversation.reply === undefined)
        return {
          index,
          detail: `reply ${check.op} ${check.value}: the agent gave no final reply (its last turn in the main conversation was a tool call, or it made no model request)`,
        };
      if (!conversation.reply.includes(check.value))
        return { index, detail: `reply ${check.op} ${check.value}: the reply was ${JSON.stringify(conversation.reply.slice(0, 300))}` };
      continue;
    }
    // Judged over what the contained agent attempted (see index.ts), not over the conversation.
    if (check.kind === "no_egress") continue;
    if (check.negate) {
      const hit = calls.findIndex((c) => c.name === check.tool && check.where.every((w) => clauseHolds(c.arguments, w)));
      if (hit >= 0)
        return {
          index,
          call: hit,
          detail: `assert_no_tool_call ${describeCheck(check.tool, check.where)}: the agent made it: call ${describeCall(calls[hit]!, hit)}`,
        };
      continue;
    }
    const at = calls.findIndex((c, i) => i >= cursor && c.name === check.tool && check.where.every((w) => clauseHolds(c.arguments, w)));
    // A miss is shown against the nearest call of the same tool (the one whose arguments did not hold), if any.
    const near = calls.findIndex((c, i) => i >= cursor && c.name === check.tool);
    if (at < 0)
      return {
        index,
        ...(near >= 0 ? { call: near } : {}),
        detail: `assert_tool_call ${describeCheck(check.tool, check.where)}: no such call${cursor > 0 ? ` after call #${cursor}` : ""}; ${nearestMiss(calls, cursor, check.tool, check.where)}`,
      };
    const skipped = strict ? unasserted(calls, cursor, at) : -1;
    if (skipped >= 0)
      return { index, call: skipped, detail: `strict: call ${describeCall(calls[skipped]!, skipped)} is not asserted (every tool call must be, in order)` };
    matched.push(at);
    cursor = at + 1;
  }
  const left = strict ? unasserted(calls, cursor, calls.length) : -1;
  if (left >= 0) {
    return {
      index: checks.length - 1,
      call: left,
      detail: `strict: call ${describeCall(calls[left]!, left)} is not asserted (every tool call must be, in order)`,
    };
  }
  return undefined;
}

export interface PartialVerdict {
  readonly status: "passed" | "failed" | "skipped";
  readonly detail?: string;
  /** The call it matched (a negated check that failed) or found. */
  readonly call?: number;
}

/**
 * The verdict of each check that can be decided from a conversation that stopped (diverged) at
 * `turn`: an `assert_tool_call` passes once its call was made (in order), an `assert_no_tool_call`
 * fails once its call was made; a call not (yet) made, the reply and `strict:` cannot be decided.
 */
export function partialVerdicts(checks: readonly AgentCheck[], conversation: AgentConversation, strict: boolean, turn: number): Map<number, PartialVerdict> {
  const calls = conversation.calls;
  const out = new Map<number, PartialVerdict>();
  const stopped = `not judged: the conversation diverged at turn ${turn}`;
  let cursor = 0;
  let ordered = true;
  for (const [index, check] of checks.entries()) {
    if (check.kind === "no_egress") continue;
    if (check.kind === "reply") {
      out.set(index, { status: "skipped", detail: `${stopped}, before the agent's final reply` });
      continue;
    }
    if (check.negate) {
      const hit = calls.findIndex((c) => c.name === check.tool && check.where.every((w) => clauseHolds(c.arguments, w)));
      if (hit >= 0)
        out.set(index, {
          status: "failed",
          call: hit,
          detail: `assert_no_tool_call ${describeCheck(check.tool, check.where)}: the agent made it before the divergence: call ${describeCall(calls[hit]!, hit)}`,
        });
      else out.set(index, { status: "skipped", detail: `${stopped}; no such call up to there` });
      continue;
    }
    const at = ordered ? calls.findIndex((c, i) => i >= cursor && c.name === check.tool && check.where.every((w) => clauseHolds(c.arguments, w))) : -1;
    if (at < 0) {
      // Later calls might have made it; an ordered check after this one cannot be placed either.
      ordered = false;
      out.set(index, {
        status: "skipped",
        detail: `${stopped}, before any such call${calls.length > 0 ? ` (calls up to there: ${calls.map((c, i) => describeCall(c, i)).join(", ")})` : ""}`,
      });
      continue;
    }
    out.set(index, { status: "passed", call: at });
    cursor = at + 1;
  }
  if (strict)
    for (const [i, v] of out)
      if (v.status === "passed") out.set(i, { status: "skipped", detail: `${stopped}; \`strict: true\` is judged over the whole conversation` });
  return out;
}

/** Under `strict`: the first model-boundary call in [from, to) (MCP lane calls are not part of strict), or -1. */
function unasserted(calls: readonly AgentToolCall[], from: number, to: number): number {
  for (let i = from; i < to; i++) if (calls[i]!.server === undefined) return i;
  return -1;
}

/**
 * The trajectory with the calls that crossed `mcp:` lanes merged in: each after the model calls
 * of the turn it followed, in the order it was made.
 */
export function withLaneCalls(conversation: AgentConversation, laneCalls: readonly AgentToolCall[]): AgentConversation {
  if (laneCalls.length === 0) return conversation;
  const tagged = [
    ...conversation.calls.map((c, i) => ({ c, key: c.turn * 2, i })),
    ...laneCalls.map((c, i) => ({ c, key: c.turn * 2 + 1, i: conversation.calls.length + i })),
  ];
  tagged.sort((a, b) => a.key - b.key || a.i - b.i);
  return { ...conversation, calls: tagged.map((t) => t.c) };
}

/** A tool's bare name: MCP-namespaced names (`mcp__server__tool`, `server.tool`, `server/tool`) end in it. */
const bareName = (name: string): string => name.split(/__|[./]/).pop() ?? name;

/**
 * Warnings for `tools:` entries and `assert_no_tool_call` steps that name a tool the model was
 * never offered in any request (so nothing would intercept or forbid it): likely a typo.
 */
export function unofferedToolWarnings(
  turns: readonly AgentTurn[],
  tools: readonly { readonly name: string; readonly result?: unknown }[],
  checks: readonly AgentCheck[],
): string[] {
  if (turns.length === 0) return [];
  const offered = new Set<string>();
  for (const t of turns) for (const n of readRequest(asProtocol(t.protocol), t.request).tools) offered.add(bareName(n));
  const out: string[] = [];
  const warn = (name: string, what: string) => {
    if (!offered.has(bareName(name)))
      out.push(
        `warning: ${what} names tool \`${name}\`, which the agent never offered the model (offered: ${[...offered].join(", ") || "none"}); nothing ${what.startsWith("tools:") ? "is substituted" : "can break it"}`,
      );
  };
  for (const t of tools) if ("result" in t) warn(t.name, "tools:");
  for (const c of checks) if (c.kind === "tool_call" && c.negate) warn(c.tool, "assert_no_tool_call");
  return out;
}
