// The `agent_run` action's params of the trace format (flowproof-trace v1): the agent
// declaration, the authored agent steps, `tools:`, `mcp:` and what record adds (the cassette and
// the MCP lanes), declared once (TypeBox: the JSON Schema and the static types). Pure: no I/O.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { MAX_TIMEOUT_MS } from "../diagnostics/bounds.ts";

const Opt = <T extends TSchema>(t: T) => Type.Optional(t);
const Int = (o: object = {}) => Type.Integer({ minimum: 0, ...o });
/** Each declared object: unknown keys are allowed (additive within v1). */
const Open = <P extends Record<string, TSchema>>(properties: P, description: string) => Type.Object(properties, { additionalProperties: true, description });

/** The model-boundary dialects a cassette turn may name (see docs/agents.md, "Dialects"). */
export const AGENT_PROTOCOLS = ["openai", "openai-responses", "anthropic", "gemini"] as const;
/** One exchange at the model boundary (see docs/agents.md, "The cassette"). */
export const CassetteTurn = Type.Object(
  {
    protocol: Type.Union(
      AGENT_PROTOCOLS.map((p) => Type.Literal(p)),
      {
        description:
          "The dialect the agent spoke: `openai` (chat-completions), `openai-responses` (Responses), `anthropic` (Messages) or `gemini` (generateContent).",
      },
    ),
    request: Type.Record(Type.String(), Type.Unknown(), {
      description: "The request body as matched: no `stream` flags, `tools:` results substituted, secret values as `${NAME}`.",
    }),
    response: Type.Record(Type.String(), Type.Unknown(), { description: "The upstream's (non-streaming) JSON response body." }),
    status: Opt(Type.Integer({ minimum: 100, maximum: 599, description: "The upstream's HTTP status when not 200." })),
  },
  { additionalProperties: true },
);
/** One MCP server's recorded traffic (see docs/agents.md, "MCP servers"). */
export const McpLaneSchema = Type.Object(
  {
    calls: Type.Array(
      Type.Object(
        {
          method: Type.String({ description: "The JSON-RPC method the client called." }),
          params: Opt(Type.Unknown({ description: "Its params (secret values as `${NAME}`)." })),
          result: Opt(Type.Unknown({ description: "The server's result." })),
          error: Opt(Type.Unknown({ description: "The server's JSON-RPC error, when it answered with one." })),
        },
        { additionalProperties: false },
      ),
      { description: "Every client request, in order, with its answer." },
    ),
    events: Type.Array(
      Type.Object(
        {
          after: Int({ description: "How many client calls had been answered when the server sent it." }),
          method: Type.String(),
          params: Opt(Type.Unknown()),
        },
        { additionalProperties: false },
      ),
      { description: "Server notifications, re-emitted at replay after the same number of answered calls." },
    ),
  },
  { additionalProperties: false },
);
const TextMap = (description: string) => Opt(Type.Record(Type.String(), Type.String(), { description }));
const Seconds = Opt(Type.Integer({ minimum: 1, maximum: 3600, description: "The execution's bound in seconds (default 300)." }));

/** `agent:` as written (`${VAR}` raw; env and header values as text): a program flowproof starts, or a running service. */
export const AgentSpec = Type.Union(
  [
    Open(
      {
        command: Type.String({ description: "Run through `sh -c` in the flow's folder." }),
        env: TextMap("Applied over the injected variables."),
        timeout_seconds: Seconds,
        allow_egress: Opt(Type.Array(Type.String(), { description: "Destinations the contained agent may reach, as written." })),
      },
      "{command, env?, timeout_seconds?, allow_egress?}",
    ),
    Open(
      {
        url: Type.String({ description: "A running agent service flowproof POSTs the prompt to." }),
        proxy_port: Type.Integer({ minimum: 1, maximum: 65535, description: "The loopback port its model client is pointed at." }),
        headers: TextMap("Sent with every delivery."),
        timeout_seconds: Seconds,
      },
      "{url, proxy_port, headers?, timeout_seconds?}",
    ),
  ],
  { description: "`agent:` as written (`${VAR}` raw): {command, env?, timeout_seconds?, allow_egress?} or {url, proxy_port, headers?, timeout_seconds?}." },
);

const StepText = Type.String({ description: "The step as written (`${VAR}` raw)." });
/** One `where` clause of a tool-call assertion. */
export const AgentClauseSchema = Open(
  {
    path: Type.String({ description: "A dotted path into the call's arguments." }),
    matcher: Type.Union([Type.Literal("equals"), Type.Literal("contains"), Type.Literal("matches"), Type.Literal("exists"), Type.Literal("absent")]),
    value: Opt(Type.String()),
  },
  "{path, matcher, value?}",
);

/** The kinds of authored agent step, in the order docs/agents.md lists them. */
export const AGENT_STEP_KINDS = ["prompt", "follow_up", "tool_call", "reply", "no_egress"] as const;

/** One authored agent step, as carried into the trace (`text` is the step as written). */
export const AgentStep = Type.Union(
  [
    Open({ kind: Type.Literal("prompt"), text: StepText }, "`prompt: <task>`"),
    Open({ kind: Type.Literal("follow_up"), text: StepText, message: Type.String({ description: "The later delivery." }) }, "`follow_up: <message>`"),
    Open(
      {
        kind: Type.Literal("tool_call"),
        text: StepText,
        tool: Type.String(),
        where: Type.Array(AgentClauseSchema),
        negate: Type.Boolean({ description: "`assert_no_tool_call`." }),
      },
      "`assert_tool_call: <tool> [where …]`, `assert_no_tool_call: …`",
    ),
    Open(
      { kind: Type.Literal("reply"), text: StepText, op: Type.Union([Type.Literal("contains"), Type.Literal("is")]), value: Type.String() },
      "`assert: reply contains|is <text>`",
    ),
    Open({ kind: Type.Literal("no_egress"), text: StepText }, "`assert_no_egress`"),
  ],
  {
    description:
      "{kind: prompt, text} | {kind: follow_up, text, message} | {kind: tool_call, text, tool, where, negate} | {kind: reply, text, op, value} | {kind: no_egress, text}",
  },
);

/** A `tools:` entry as written. */
export const AgentToolSpec = Open(
  { name: Type.String(), result: Opt(Type.Unknown({ description: "What the model is told the tool answered." })) },
  "{name, result?}",
);

/** An `mcp:` server as written: a stdio `command` or a streamable-HTTP `url` (with the stand-in's `port`). */
export const AgentMcpSpec = Type.Union(
  [
    Open({ name: Type.String(), command: Type.String(), tools: Opt(Type.Array(AgentToolSpec)) }, "{name, command, tools?}"),
    Open(
      { name: Type.String(), url: Type.String(), port: Opt(Type.Integer({ minimum: 1, maximum: 65535 })), tools: Opt(Type.Array(AgentToolSpec)) },
      "{name, url, port?, tools?}",
    ),
  ],
  { description: "{name, command | url, port?, tools?}" },
);

export const AgentRunParams = Open(
  {
    agent: AgentSpec,
    steps: Type.Array(AgentStep, {
      description:
        "The authored agent steps in order: {kind: prompt, text} | {kind: follow_up, text, message} | {kind: tool_call, text, tool, where, negate} | {kind: reply, text, op, value} | {kind: no_egress, text}.",
    }),
    tools: Opt(Type.Array(AgentToolSpec, { description: "`tools:` as written: {name, result?}." })),
    strict: Opt(Type.Boolean()),
    match: Opt(
      Type.Union(
        [
          Type.Union([Type.Literal("conversation"), Type.Literal("strict")]),
          Open(
            {
              by: Opt(Type.Union([Type.Literal("conversation"), Type.Literal("strict")])),
              ignore: Opt(Type.Array(Type.String())),
              compare: Opt(Type.Array(Type.String())),
            },
            "{by?, ignore?, compare?}",
          ),
        ],
        { description: "`match:` as written: how a replayed model request is matched to its recorded turn (default `conversation`)." },
      ),
    ),
    timeout_ms: Int({ maximum: MAX_TIMEOUT_MS, description: "The execution's bound (default 300 000)." }),
    cassette: Opt(Type.Array(CassetteTurn, { description: "Written at record: every model turn, in the order they were made." })),
    mcp: Opt(Type.Array(AgentMcpSpec, { description: "`mcp:` as written: {name, command | url, port?, tools?}." })),
    lanes: Opt(Type.Record(Type.String(), McpLaneSchema, { description: "Written at record: each `mcp:` server's lane, by server name." })),
  },
  "an agent flow's whole execution (`app: agent`): prompts, agent assertions and the recorded cassette",
);

export type AgentSpec = Static<typeof AgentSpec>;
export type AgentStep = Static<typeof AgentStep>;
export type AgentToolSpec = Static<typeof AgentToolSpec>;
export type AgentMcpSpec = Static<typeof AgentMcpSpec>;
export type CassetteTurn = Static<typeof CassetteTurn>;
export type McpLaneRecord = Static<typeof McpLaneSchema>;
export type AgentRunParams = Static<typeof AgentRunParams>;

/** Whether a turn is one the cassette may hold (a surface's answer, checked before the trace keeps it). */
export const isCassetteTurn = (turn: unknown): turn is CassetteTurn => Value.Check(CassetteTurn, turn);

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === "object" && v !== null && !Array.isArray(v);
const STEP_SHAPES: Readonly<Record<(typeof AGENT_STEP_KINDS)[number], string>> = {
  prompt: "{kind: prompt, text}",
  follow_up: "{kind: follow_up, text, message}",
  tool_call: "{kind: tool_call, text, tool, where: [{path, matcher, value?}], negate}",
  reply: "{kind: reply, text, op: contains|is, value}",
  no_egress: "{kind: no_egress, text}",
};

/**
 * Why an `agent_run` step's params are not v1's, in one sentence naming the agent step or key;
 * undefined for sound params (the cassette is checked on its own). For the trace reader.
 */
export function agentRunProblem(params: unknown): string | undefined {
  if (!isObject(params)) return "the agent_run params are not an object";
  const agent = params["agent"];
  if (!isObject(agent) || !("command" in agent || "url" in agent)) return "the agent_run step has no `agent` {command, …} or {url, proxy_port, …}";
  const steps = params["steps"];
  if (!Array.isArray(steps)) return "the agent_run step has no `steps` list";
  for (const [i, step] of steps.entries()) {
    const at = `agent step ${i + 1} of ${steps.length}`;
    if (!isObject(step)) return `${at} is not an object {kind, text, …}`;
    const kind = step["kind"];
    if (!(AGENT_STEP_KINDS as readonly unknown[]).includes(kind))
      return `${at} has kind ${JSON.stringify(kind)}; expected ${AGENT_STEP_KINDS.map((k) => JSON.stringify(k)).join(", ")}`;
    const k = kind as (typeof AGENT_STEP_KINDS)[number];
    const schema = AgentStep.anyOf[AGENT_STEP_KINDS.indexOf(k)]!;
    for (const [key, prop] of Object.entries(schema.properties)) {
      const required = (schema.required as readonly string[] | undefined)?.includes(key) ?? false;
      const v = step[key];
      if (v === undefined ? required : !Value.Check(prop, v))
        return `${at} (${k}) has ${v === undefined ? "no" : `a malformed`} \`${key}\`${v === undefined ? "" : ` (${clip(JSON.stringify(v))})`}; a ${k} step is ${STEP_SHAPES[k]}`;
    }
  }
  return undefined;
}

const clip = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}…` : s);
