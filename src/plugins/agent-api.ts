// The agent surface's part of the plugin contract (`app: agent`): one whole execution of the
// agent under test through the model-boundary proxy. Re-exported by api.ts, which plugins import.

/** One exchange at the model boundary, as the cassette holds it (see docs/agents.md). */
export interface AgentTurn {
  /** The dialect: `openai` (chat-completions), `openai-responses` (Responses), `anthropic` (Messages) or `gemini` (generateContent). */
  readonly protocol: string;
  /** The request body as matched: without `stream`/`stream_options`, `tools:` results substituted, secrets masked. */
  readonly request: unknown;
  /** The upstream's JSON (non-streaming) response body. */
  readonly response: unknown;
  /** The upstream's HTTP status, when not 200. */
  readonly status?: number;
}

/** A tool call the model asked for, with the result the model was then told (when it was). */
export interface AgentToolCall {
  /** Index of the turn whose response holds the call. */
  readonly turn: number;
  readonly name: string;
  readonly arguments: unknown;
  readonly result?: string;
  /** Set for a call that crossed an `mcp:` lane (`name` is then `<server>.<tool>`). */
  readonly server?: string;
}

/** What the report and the assertions read: every tool call in order and the final reply. */
export interface AgentConversation {
  readonly turns: number;
  readonly calls: readonly AgentToolCall[];
  /** The main conversation's final assistant text; absent when its last turn was a tool call. */
  readonly reply?: string;
}

export interface AgentClause {
  readonly path: string;
  readonly matcher: "equals" | "contains" | "matches" | "exists" | "absent";
  readonly value?: string;
}

/** An agent assertion with every `${…}` resolved. */
export type AgentCheck =
  | { readonly kind: "tool_call"; readonly text: string; readonly tool: string; readonly where: readonly AgentClause[]; readonly negate: boolean }
  | { readonly kind: "reply"; readonly text: string; readonly op: "contains" | "is"; readonly value: string }
  /** `assert_no_egress`: the contained agent attempted no destination outside `allow_egress`. */
  | { readonly kind: "no_egress"; readonly text: string };

/** `match:` as the execution uses it (see docs/agents.md, "Matching"). */
export interface AgentMatch {
  readonly by: "conversation" | "strict";
  /** Request paths (dotted, `*` any key or index) left out of the comparison. */
  readonly ignore: readonly string[];
  /** `conversation` only: request paths compared as well. */
  readonly compare: readonly string[];
}

/** The agent to run, with `${…}` resolved (env values included). */
export type AgentTarget =
  | { readonly command: string; readonly env?: Readonly<Record<string, string>>; readonly allow_egress?: readonly EgressRule[] }
  | { readonly url: string; readonly proxy_port: number; readonly headers?: Readonly<Record<string, string>> };

/** One execution of the agent under test through the model-boundary proxy. */
export interface AgentRunRequest {
  /** The run mode (RunMode in api.ts): recording forwards to the upstream, replay serves the cassette. */
  readonly mode: "record" | "replay";
  readonly agent: AgentTarget;
  /** The task: every `prompt:` step, joined by newlines. */
  readonly prompt: string;
  /** A scripted conversation's later deliveries (`follow_up:` steps), in order. */
  readonly followUps?: readonly string[];
  readonly checks: readonly AgentCheck[];
  /** `tools:` entries; one with `result` answers for the agent's own tool, at record and replay alike. */
  readonly tools: readonly { readonly name: string; readonly result?: unknown }[];
  readonly strict: boolean;
  /** Record under `heal`: the recorded turns, served while the requests match them (by `match`); from the first that does not, every request goes to the upstream and is recorded. */
  readonly healFrom?: readonly AgentTurn[];
  /** Replay: how a model request is matched to its recorded turn (`match:`; absent: the conversation). */
  readonly match?: AgentMatch;
  /** Replay: the recorded turns, served instead of any upstream. */
  readonly cassette?: readonly AgentTurn[];
  /** The flow's bound, ms. */
  readonly timeoutMs: number;
  /** Directory of the flow file: the agent's working directory. */
  readonly baseDir: string;
  /** The environment flowproof runs in (upstream and key at record: FLOWPROOF_AGENT_UPSTREAM, FLOWPROOF_AGENT_KEY…). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Secret values (resolved `${VAR}`s): masked as their `${NAME}` in every stored or matched body. */
  readonly secrets: ReadonlyMap<string, string>;
  readonly log: (line: string) => void;
  /** Aborted when the run is asked to stop: the agent is ended at once. */
  readonly signal?: AbortSignal;
  /** Hands every body crossing the model boundary, unmasked, to the secret-leak scan (`assert_no_secret_leak`). */
  readonly observe?: (label: string, text: string) => void;
  /** `mcp:` servers the agent is wired to (each served by a stand-in lane); at replay, their recorded lanes by name. */
  readonly mcp?: readonly AgentMcpServer[];
  readonly lanes?: Readonly<Record<string, McpLane>>;
  /**
   * The authored agent steps in order, each as its report line reads (`prompt: …`, `follow_up: …`,
   * `assert_tool_call: …`, `assert: reply contains …`, `assert_no_egress`), `${…}` references raw:
   * the execution answers one line for each (AgentRunOutcome.lines).
   */
  readonly lines?: readonly AgentStepRef[];
}

/** One authored agent step: a delivery (`prompt`, `follow_up`) or an assertion (`check`, the index into `checks`). */
export type AgentStepRef =
  | { readonly kind: "prompt" | "follow_up"; readonly intent: string }
  | { readonly kind: "check"; readonly intent: string; readonly check: number };

/** How one authored agent step went: a delivery passed when the conversation went through it, an assertion when it held. */
export interface AgentStepLine {
  readonly intent: string;
  readonly status: "passed" | "failed" | "errored" | "skipped";
  readonly detail?: string;
}

/** One `mcp:` server, `${…}` resolved: a stdio `command` or a streamable-HTTP `url` (`port`: the stand-in's fixed port); `tools` with `result` are answered by the stand-in. */
export interface AgentMcpServer {
  readonly name: string;
  readonly command?: string;
  readonly url?: string;
  readonly port?: number;
  readonly tools?: readonly { readonly name: string; readonly result?: unknown }[];
}

/** One MCP server's traffic as recorded: each client call with its answer (secrets as `${NAME}`), each server notification anchored `after` that many answered calls. */
export interface McpLane {
  readonly calls: readonly { readonly method: string; readonly params?: unknown; readonly result?: unknown; readonly error?: unknown }[];
  readonly events: readonly { readonly after: number; readonly method: string; readonly params?: unknown }[];
}

export interface AgentRunOutcome {
  readonly status: "passed" | "failed" | "errored";
  readonly detail?: string;
  /** Record: the turns to store (only when the execution reached the model at least once). */
  readonly cassette?: readonly AgentTurn[];
  readonly conversation: AgentConversation;
  /** Record: the `mcp:` lanes by server name. */
  readonly lanes?: Readonly<Record<string, McpLane>>;
  /** Index (in `checks`) of the assertion that failed, and the call it matched or missed. */
  readonly failedCheck?: { readonly index: number; readonly call?: number };
  /** How the agent's network was contained, and what it attempted outside `allow_egress`. */
  readonly containment?: AgentContainment;
  /** Model requests forwarded to the upstream model (record); 0 at replay. */
  readonly modelCalls?: number;
  /** One line for each of `AgentRunRequest.lines`, in the same order. */
  readonly lines?: readonly AgentStepLine[];
  /** A spawned agent: what it printed on stdout and stderr (unredacted: the engine redacts before it keeps them). */
  readonly output?: { readonly stdout: string; readonly stderr: string };
  /** Record under `heal`: how many turns were served from the recording before the first divergence (the rest were recorded live). */
  readonly healedFrom?: number;
  /** Record under `heal`: the conversation the recording held, for the reviewer to compare with the new one. */
  readonly recordedConversation?: AgentConversation;
  /** Replay: the turn (1-based) whose request diverged from the recording; `conversation` then holds the calls and results as they happened at replay up to it. */
  readonly divergedTurn?: number;
  /** Replay: request fields that differed from the recording but were not compared (`match: conversation`), one note per turn. */
  readonly notes?: readonly string[];
}

/** One `agent.allow_egress` destination, `${…}` resolved and parsed (a host name resolves when the agent starts); no port: any TCP port. */
export type EgressRule =
  | { readonly kind: "host"; readonly host: string; readonly port?: number }
  | { readonly kind: "ip"; readonly ip: string; readonly port?: number }
  | { readonly kind: "cidr"; readonly ip: string; readonly bits: number; readonly port: number };

/** The containment of one agent execution (see docs/agents.md, "Containment"). */
export interface AgentContainment {
  /** `enforced (linux …)` or `not contained (<reason>)`. */
  readonly tier: string;
  readonly enforced: boolean;
  /** Contained runs only: destinations outside `allow_egress` the agent attempted, first attempt first (`tcp 10.0.0.9:443`, `dns evil.example`). */
  readonly attempted: readonly { readonly destination: string; readonly at_ms: number }[];
}
