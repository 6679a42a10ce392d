// The agent step grammar (`prompt:`, `follow_up:`, `assert_tool_call:`, `assert_no_tool_call:`,
// `assert: reply …`, `assert_no_egress`): the steps of a surface whose adapter declares
// `steps: "agent_steps"`, loaded as one `agent_run` step. The agent's own keys (`agent:`, `tools:`, …)
// are its adapter's (plugins/agent). Pure: YAML nodes in, plain data out (`${…}` raw).
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, keyName, spanInScalar, spanOf, type Node, type Scalar, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";
import type { StepAst } from "../grammar/ast.ts";
import type { SurfaceKind } from "./surface-kinds.ts";

/** Step keys only the agent step grammar takes. */
export const AGENT_STEP_KEYS = ["prompt", "follow_up", "assert_tool_call", "assert_no_tool_call"] as const;
export type ClauseMatcher = "equals" | "contains" | "matches" | "exists" | "absent";

/** One `where` clause: a dotted path into the call's arguments, a matcher and its value as written. */
export interface ToolCallClause {
  readonly path: string;
  readonly matcher: ClauseMatcher;
  readonly value?: string;
}

/** An authored agent step, as carried into the trace (`text` is the step as written). */
export type AgentStepSpec =
  | { readonly kind: "prompt"; readonly text: string }
  /** A later delivery of a scripted conversation: sent once the agent answered the ones before it. */
  | { readonly kind: "follow_up"; readonly text: string; readonly message: string }
  | { readonly kind: "tool_call"; readonly text: string; readonly tool: string; readonly where: readonly ToolCallClause[]; readonly negate: boolean }
  | { readonly kind: "reply"; readonly text: string; readonly op: "contains" | "is"; readonly value: string }
  | { readonly kind: "no_egress"; readonly text: string };

/** The bare step asserting the contained agent attempted no undeclared network destination. */
export const NO_EGRESS_STEP = "assert_no_egress";

const TOOL_CALL_EXAMPLE = "assert_tool_call: book_flight where flight.id equals KQ311 and passengers.0.name exists";

/** Parses one `assert_tool_call` / `assert_no_tool_call` value. Offsets are into `text`. */
export function parseToolCall(
  text: string,
): { ok: true; tool: string; where: ToolCallClause[] } | { ok: false; message: string; hint: string; offset: number; length: number } {
  const m = /^\s*(\S+)(?:\s+where\s+([\s\S]*))?$/.exec(text);
  if (!m || m[1] === "where") return { ok: false, message: "name the tool first", hint: TOOL_CALL_EXAMPLE, offset: 0, length: Math.max(1, text.length) };
  const tool = m[1]!;
  if (/\s/.test(text.trim()) && m[2] === undefined) {
    const at = text.indexOf(tool) + tool.length;
    return {
      ok: false,
      message: `after the tool name comes \`where <path> <matcher> <value>\`, not \`${text.slice(at).trim()}\``,
      hint: TOOL_CALL_EXAMPLE,
      offset: at,
      length: text.length - at,
    };
  }
  const where: ToolCallClause[] = [];
  if (m[2] !== undefined) {
    const start = text.length - m[2].length;
    let offset = start;
    for (const clause of m[2].split(/\s+and\s+/)) {
      const c = parseClause(clause.trim());
      const at = text.indexOf(clause.trim(), offset);
      if (!c.ok) return { ok: false, message: c.message, hint: c.hint, offset: at < 0 ? start : at, length: Math.max(1, clause.trim().length) };
      where.push(c.clause);
      offset = at + clause.length;
    }
  }
  return { ok: true, tool, where };
}

function parseClause(clause: string): { ok: true; clause: ToolCallClause } | { ok: false; message: string; hint: string } {
  const m = /^(\S+)\s+(equals|is absent|is missing|is|contains|matches|exists)(?:\s+([\s\S]*))?$/.exec(clause);
  if (!m) {
    return {
      ok: false,
      message: `\`${clause}\` is not a clause: write \`<path> <matcher> <value>\``,
      hint: "matchers: `equals` (or `is`), `contains`, `matches <regex>`, `exists`, `is absent` (or `is missing`); e.g. `flight.id equals KQ311`",
    };
  }
  const path = m[1]!;
  if (!/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(path))
    return { ok: false, message: `\`${path}\` is not a dotted path`, hint: "write keys and array indices separated by dots: `passengers.0.name`" };
  const word = m[2]!;
  const value = m[3]?.trim();
  if (word === "exists" || word === "is absent" || word === "is missing") {
    if (value) return { ok: false, message: `\`${word}\` takes no value, yet \`${value}\` follows it`, hint: `write \`${path} ${word}\`` };
    return { ok: true, clause: { path, matcher: word === "exists" ? "exists" : "absent" } };
  }
  if (!value) return { ok: false, message: `\`${word}\` needs a value after it`, hint: `write \`${path} ${word} <value>\`` };
  if (word === "matches") {
    try {
      new RegExp(value);
    } catch (error) {
      return {
        ok: false,
        message: `\`${value}\` is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
        hint: "write a JavaScript regular expression without slashes, e.g. `matches ^KQ[0-9]+$`",
      };
    }
  }
  return { ok: true, clause: { path, matcher: word === "is" ? "equals" : (word as ClauseMatcher), value } };
}

/** `reply contains <text>` / `reply is <text>` (the text of an `assert:` step in an agent flow). */
export function parseReply(text: string): { op: "contains" | "is"; value: string } | undefined {
  const m = /^\s*reply\s+(contains|is)\s+([\s\S]*\S)\s*$/.exec(text);
  return m ? { op: m[1] as "contains" | "is", value: m[2]! } : undefined;
}

/** Loads one step of an agent flow; undefined (with a problem) when it is not an agent step. */
export function loadAgentStep(source: YamlSource, item: Node, problems: Diagnostic[]): { spec: AgentStepSpec; keyNode: Node } | undefined {
  const hint =
    "an agent flow's steps are `prompt: <task>`, `follow_up: <message>`, `assert_tool_call: <tool> [where …]`, `assert_no_tool_call: <tool> [where …]` and `assert: reply contains <text>`";
  if (isScalar(item) && item.value === NO_EGRESS_STEP) return { spec: { kind: "no_egress", text: NO_EGRESS_STEP }, keyNode: item };
  if (isMap(item) && item.items.length === 1 && keyName(item.items[0]!) === NO_EGRESS_STEP) {
    problems.push(
      diagnostic("bad-value", "`assert_no_egress` is a bare step: it takes no value", {
        span: spanOf(source, item.items[0]!.key as Node),
        hint: "write `- assert_no_egress` (the destinations the agent may reach go in `agent.allow_egress`)",
      }),
    );
    return undefined;
  }
  if (!isMap(item) || item.items.length !== 1) {
    problems.push(
      diagnostic(
        "unsupported-step",
        isScalar(item) ? "an agent flow has no UI: a plain step is a UI step (rules grammar), not an agent step" : "an agent step is a one-key mapping",
        { span: spanOf(source, item), hint },
      ),
    );
    return undefined;
  }
  const pair = item.items[0]!;
  const key = keyName(pair);
  const keyNode = pair.key as Node;
  const value = pair.value as Node | null;
  const text = isScalar(value) && (typeof value.value === "string" || typeof value.value === "number") ? String(value.value) : undefined;
  if (
    key === "rules" ||
    key === "repeat" ||
    key === "when" ||
    key === "foreach" ||
    key === "in" ||
    (key.startsWith("assert_") && !(AGENT_STEP_KEYS as readonly string[]).includes(key))
  ) {
    problems.push(
      diagnostic("unsupported-step", `\`${key}:\` is a UI/structured step (rules grammar); an agent flow takes agent steps only`, {
        span: spanOf(source, keyNode),
        hint,
      }),
    );
    return undefined;
  }
  if (!(AGENT_STEP_KEYS as readonly string[]).includes(key) && key !== "assert") {
    const guess = nearest(key, [...AGENT_STEP_KEYS, "assert"]);
    problems.push(
      diagnostic("unknown-key", `unknown step key \`${key}\` in an agent flow`, {
        span: spanOf(source, keyNode),
        hint: guess ? `did you mean \`${guess}\`? ${hint}` : hint,
      }),
    );
    return undefined;
  }
  if (text === undefined || text.trim() === "") {
    problems.push(
      diagnostic("bad-value", `\`${key}:\` takes text`, {
        span: spanOf(source, (value ?? keyNode) as Node),
        hint:
          key === "prompt"
            ? "prompt: Book the cheapest flight to Nairobi"
            : key === "follow_up"
              ? "follow_up: Make it a window seat"
              : key === "assert"
                ? "assert: reply contains booked"
                : TOOL_CALL_EXAMPLE,
      }),
    );
    return undefined;
  }
  const scalar = value as Scalar;
  if (key === "prompt") return { spec: { kind: "prompt", text }, keyNode };
  if (key === "follow_up") return { spec: { kind: "follow_up", text: `follow_up: ${text}`, message: text }, keyNode };
  if (key === "assert") {
    const reply = parseReply(text);
    if (!reply) {
      problems.push(
        diagnostic(
          "unsupported-step",
          "in an agent flow `assert:` checks the agent's reply: `reply contains <text>` or `reply is <text>`; a UI assertion (rules grammar) has no page to read here",
          { span: spanOf(source, scalar), hint: "assert: reply contains booked" },
        ),
      );
      return undefined;
    }
    return { spec: { kind: "reply", text: `reply ${reply.op} ${reply.value}`, ...reply }, keyNode };
  }
  const parsed = parseToolCall(text);
  if (!parsed.ok) {
    problems.push(diagnostic("bad-value", parsed.message, { span: spanInScalar(source, scalar, parsed.offset, parsed.length), hint: parsed.hint }));
    return undefined;
  }
  return { spec: { kind: "tool_call", text: `${key}: ${text}`, tool: parsed.tool, where: parsed.where, negate: key === "assert_no_tool_call" }, keyNode };
}

/**
 * The one `agent_run` step a flow's (or an `in:` block's) agent steps become: its text (the steps
 * as written, one per line) and its arguments, composed by the adapter from its keys as written.
 */
export function agentRunStep(kind: SurfaceKind, keys: Readonly<Record<string, unknown>>, specs: readonly AgentStepSpec[]): { text: string; ast: StepAst } {
  const text = specs.map((s) => (s.kind === "prompt" ? `prompt: ${s.text}` : s.kind === "reply" ? `assert: ${s.text}` : s.text)).join("\n");
  const args = kind.executionArgs ? kind.executionArgs(keys, specs) : { ...keys, steps: specs };
  return { text, ast: { kind: "agent_run", args: JSON.parse(JSON.stringify(args)) as Record<string, unknown> } };
}
