// The agent parts of the flow format (`app: agent`): the `agent:`, `tools:` and `strict:` keys and
// the agent step forms (`prompt:`, `assert_tool_call:`, `assert_no_tool_call:`, `assert: reply …`).
// Pure: YAML nodes in, plain data out (every value as written, `${…}` raw), problems with spans.
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, isSeq, keyName, spanInScalar, spanOf, type Node, type Scalar, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";

/** The app kind whose flows drive an AI agent through the model-boundary proxy. */
export const AGENT_APP = "agent";
/** Flow keys only an agent flow takes. */
export const AGENT_FLOW_KEYS = ["agent", "tools", "mcp", "strict"] as const;
/** Step keys only an agent flow takes. */
export const AGENT_STEP_KEYS = ["prompt", "follow_up", "assert_tool_call", "assert_no_tool_call"] as const;
/** A flow's time bound when `agent.timeout_seconds` is not given. */
export const DEFAULT_AGENT_TIMEOUT_SECONDS = 300;

/** `agent:` as written: a spawned command, or a running service flowproof POSTs the task to. */
export type AgentSpec =
  | { readonly command: string; readonly env?: Readonly<Record<string, string>>; readonly timeout_seconds?: number; readonly allow_egress?: readonly string[] }
  | { readonly url: string; readonly proxy_port: number; readonly headers?: Readonly<Record<string, string>>; readonly timeout_seconds?: number };

/** One `tools:` entry: a declaration, or (with `result`) what the model is told the tool answered. */
export interface AgentTool {
  readonly name: string;
  readonly result?: unknown;
}

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
export function parseToolCall(text: string): { ok: true; tool: string; where: ToolCallClause[] } | { ok: false; message: string; hint: string; offset: number; length: number } {
  const m = /^\s*(\S+)(?:\s+where\s+([\s\S]*))?$/.exec(text);
  if (!m || m[1] === "where") return { ok: false, message: "name the tool first", hint: TOOL_CALL_EXAMPLE, offset: 0, length: Math.max(1, text.length) };
  const tool = m[1]!;
  if (/\s/.test(text.trim()) && m[2] === undefined) {
    const at = text.indexOf(tool) + tool.length;
    return { ok: false, message: `after the tool name comes \`where <path> <matcher> <value>\`, not \`${text.slice(at).trim()}\``, hint: TOOL_CALL_EXAMPLE, offset: at, length: text.length - at };
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
    return { ok: false, message: `\`${clause}\` is not a clause: write \`<path> <matcher> <value>\``, hint: "matchers: `equals` (or `is`), `contains`, `matches <regex>`, `exists`, `is absent` (or `is missing`); e.g. `flight.id equals KQ311`" };
  }
  const path = m[1]!;
  if (!/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(path)) return { ok: false, message: `\`${path}\` is not a dotted path`, hint: "write keys and array indices separated by dots: `passengers.0.name`" };
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
      return { ok: false, message: `\`${value}\` is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`, hint: "write a JavaScript regular expression without slashes, e.g. `matches ^KQ[0-9]+$`" };
    }
  }
  return { ok: true, clause: { path, matcher: word === "is" ? "equals" : word as ClauseMatcher, value } };
}

/** `reply contains <text>` / `reply is <text>` (the text of an `assert:` step in an agent flow). */
export function parseReply(text: string): { op: "contains" | "is"; value: string } | undefined {
  const m = /^\s*reply\s+(contains|is)\s+([\s\S]*\S)\s*$/.exec(text);
  return m ? { op: m[1] as "contains" | "is", value: m[2]! } : undefined;
}

/** Loads one step of an agent flow; undefined (with a problem) when it is not an agent step. */
export function loadAgentStep(source: YamlSource, item: Node, problems: Diagnostic[]): { spec: AgentStepSpec; keyNode: Node } | undefined {
  const hint = "an agent flow's steps are `prompt: <task>`, `follow_up: <message>`, `assert_tool_call: <tool> [where …]`, `assert_no_tool_call: <tool> [where …]` and `assert: reply contains <text>`";
  if (isScalar(item) && item.value === NO_EGRESS_STEP) return { spec: { kind: "no_egress", text: NO_EGRESS_STEP }, keyNode: item };
  if (isMap(item) && item.items.length === 1 && keyName(item.items[0]!) === NO_EGRESS_STEP) {
    problems.push(diagnostic("bad-value", "`assert_no_egress` is a bare step: it takes no value", { span: spanOf(source, item.items[0]!.key as Node), hint: "write `- assert_no_egress` (the destinations the agent may reach go in `agent.allow_egress`)" }));
    return undefined;
  }
  if (!isMap(item) || item.items.length !== 1) {
    problems.push(diagnostic("unsupported-step", isScalar(item)
      ? "an agent flow has no UI: a plain step is a UI step (rules grammar), not an agent step"
      : "an agent step is a one-key mapping", { span: spanOf(source, item), hint }));
    return undefined;
  }
  const pair = item.items[0]!;
  const key = keyName(pair);
  const keyNode = pair.key as Node;
  const value = pair.value as Node | null;
  const text = isScalar(value) && (typeof value.value === "string" || typeof value.value === "number") ? String(value.value) : undefined;
  if (key === "rules" || key === "repeat" || key === "when" || key === "foreach" || key === "in" || key.startsWith("assert_") && !(AGENT_STEP_KEYS as readonly string[]).includes(key)) {
    problems.push(diagnostic("unsupported-step", `\`${key}:\` is a UI/structured step (rules grammar); an agent flow takes agent steps only`, { span: spanOf(source, keyNode), hint }));
    return undefined;
  }
  if (!(AGENT_STEP_KEYS as readonly string[]).includes(key) && key !== "assert") {
    const guess = nearest(key, [...AGENT_STEP_KEYS, "assert"]);
    problems.push(diagnostic("unknown-key", `unknown step key \`${key}\` in an agent flow`, { span: spanOf(source, keyNode), hint: guess ? `did you mean \`${guess}\`? ${hint}` : hint }));
    return undefined;
  }
  if (text === undefined || text.trim() === "") {
    problems.push(diagnostic("bad-value", `\`${key}:\` takes text`, { span: spanOf(source, (value ?? keyNode) as Node), hint: key === "prompt" ? "prompt: Book the cheapest flight to Nairobi" : key === "follow_up" ? "follow_up: Make it a window seat" : key === "assert" ? "assert: reply contains booked" : TOOL_CALL_EXAMPLE }));
    return undefined;
  }
  const scalar = value as Scalar;
  if (key === "prompt") return { spec: { kind: "prompt", text }, keyNode };
  if (key === "follow_up") return { spec: { kind: "follow_up", text: `follow_up: ${text}`, message: text }, keyNode };
  if (key === "assert") {
    const reply = parseReply(text);
    if (!reply) {
      problems.push(diagnostic("unsupported-step", "in an agent flow `assert:` checks the agent's reply: `reply contains <text>` or `reply is <text>`; a UI assertion (rules grammar) has no page to read here", { span: spanOf(source, scalar), hint: "assert: reply contains booked" }));
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

const COMMAND_KEYS = ["command", "env", "timeout_seconds", "allow_egress"];
const EGRESS_EXAMPLE = "allow_egress: [api.example.com:443, 10.0.0.5:8080, 10.1.0.0/16:5432, 10.0.0.7, ${API_HOST}]";

/** One `agent.allow_egress` entry, parsed: a host name, an IPv4/IPv6 address or a CIDR range, and a port (none on a host or address: any port). */
export type EgressEntry =
  | { readonly kind: "host"; readonly host: string; readonly port?: number }
  | { readonly kind: "ip"; readonly ip: string; readonly port?: number }
  | { readonly kind: "cidr"; readonly ip: string; readonly bits: number; readonly port: number };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOST = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || !text.includes(":")) return false;
  try {
    return new URL(`http://[${text}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/**
 * Parses one resolved `allow_egress` entry: `host:port`, `ip:port`, `cidr:port` (IPv6 in brackets:
 * `[::1]:443`, `[fd00::/8]:443`), or a bare `host` or `ip` (`[fd00::7]` or `fd00::7`): every TCP
 * port of it. A CIDR range always names its port.
 */
export function parseEgressEntry(text: string): { ok: true; entry: EgressEntry } | { ok: false; message: string; hint: string } {
  const t = text.trim();
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/:]+)(?::(\d+))?/i.exec(t);
  if (url) return { ok: false, message: `\`${t}\` is a URL, not a destination`, hint: `write \`${url[1]}:${url[2] ?? "443"}\`` };
  // A bare address or host name: any port.
  const bareV6 = /^\[([^\]]+)\]$/.exec(t)?.[1] ?? t;
  if (isIpv6(bareV6)) return { ok: true, entry: { kind: "ip", ip: bareV6 } };
  if (IPV4.test(t)) return { ok: true, entry: { kind: "ip", ip: t } };
  if (HOST.test(t) && !/^\d+(\.\d+)*$/.test(t)) return { ok: true, entry: { kind: "host", host: t.replace(/\.$/, "").toLowerCase() } };
  const m = /^\[([^\]]+)\]:(\S*)$/.exec(t) ?? /^([^:\s[\]]+):(\S*)$/.exec(t);
  if (!m) {
    const range = /^\[?([^\]/\s]+)\/\d+\]?$/.exec(t);
    if (range && (IPV4.test(range[1]!) || isIpv6(range[1]!))) return { ok: false, message: `\`${t}\` names no port: a CIDR range is allowed on the ports you name`, hint: `write \`${t.includes(":") && !t.startsWith("[") ? `[${t}]` : t}:443\` (one entry per port), or name each address alone for every port` };
    if (/^\d+(\.\d+)*$/.test(t)) return { ok: false, message: `\`${t}\` is not an IPv4 address`, hint: "four numbers from 0 to 255, e.g. `10.0.0.5` or `10.0.0.5:8080`" };
    return { ok: false, message: `\`${t}\` is not a destination: write \`host\`, \`ip\`, \`host:port\`, \`ip:port\` or \`cidr:port\``, hint: EGRESS_EXAMPLE };
  }
  const [, addr, portText] = m as unknown as [string, string, string];
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65535)) return { ok: false, message: `port \`${portText}\` in \`${t}\` is out of range: a port is a whole number from 1 to 65535`, hint: `e.g. \`${m[0].slice(0, m[0].length - portText.length)}443\`` };
  const slash = addr.indexOf("/");
  if (slash >= 0) {
    const ip = addr.slice(0, slash);
    const bitsText = addr.slice(slash + 1);
    const v6 = isIpv6(ip);
    const max = v6 ? 128 : 32;
    const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    if (!(IPV4.test(ip) || v6)) return { ok: false, message: `\`${addr}\` is not a CIDR range: the address before \`/\` must be an IPv4 or IPv6 address`, hint: "e.g. `10.1.0.0/16:5432` or `[fd00::/8]:443`" };
    if (!(bits >= 0 && bits <= max)) return { ok: false, message: `prefix length \`/${bitsText}\` in \`${addr}\` must be from 0 to ${max}`, hint: "e.g. `10.1.0.0/16:5432`" };
    return { ok: true, entry: { kind: "cidr", ip, bits, port } };
  }
  if (IPV4.test(addr) || isIpv6(addr)) return { ok: true, entry: { kind: "ip", ip: addr, port } };
  if (/^\d+(\.\d+)*$/.test(addr)) return { ok: false, message: `\`${addr}\` is not an IPv4 address`, hint: "four numbers from 0 to 255, e.g. `10.0.0.5:8080`" };
  if (!HOST.test(addr)) return { ok: false, message: `\`${addr}\` is not a host name`, hint: "letters, digits, hyphens and dots, e.g. `api.example.com:443`" };
  return { ok: true, entry: { kind: "host", host: addr.replace(/\.$/, "").toLowerCase(), port } };
}
const URL_KEYS = ["url", "proxy_port", "headers", "timeout_seconds"];

/** Loads `agent:`: `{command, env?, timeout_seconds?}` or `{url, proxy_port, headers?, timeout_seconds?}`. */
export function loadAgentSpec(source: YamlSource, node: Node | null, problems: Diagnostic[]): AgentSpec | undefined {
  const example = "agent: {command: node agent.js}";
  if (!isMap(node)) {
    problems.push(diagnostic("bad-value", "`agent:` must be a mapping with `command:` (a program flowproof starts) or `url:` and `proxy_port:` (a running service)", { span: spanOf(source, node), hint: example }));
    return undefined;
  }
  const values = new Map<string, Node | null>();
  const keys = new Map<string, Node>();
  const before = problems.length;
  for (const pair of node.items) {
    const key = keyName(pair);
    values.set(key, pair.value as Node | null);
    keys.set(key, pair.key as Node);
  }
  const hasCommand = values.has("command");
  const hasUrl = values.has("url");
  if (hasCommand && hasUrl) {
    problems.push(diagnostic("bad-value", "`agent:` has both `command:` and `url:`; an agent is either a program flowproof starts or a service already running", { span: spanOf(source, keys.get("url")), hint: "keep `command:` (flowproof spawns it) or `url:` with `proxy_port:` (flowproof POSTs the task to it)" }));
    return undefined;
  }
  if (!hasCommand && !hasUrl) {
    problems.push(diagnostic("missing-key", "`agent:` needs `command:` or `url:`", { span: spanOf(source, node), hint: example }));
    return undefined;
  }
  const allowed = hasCommand ? COMMAND_KEYS : URL_KEYS;
  for (const [key, keyNode] of keys) {
    if (allowed.includes(key)) continue;
    if (key === "allow_egress") {
      problems.push(diagnostic("bad-value", "`allow_egress` goes with `agent.command`: flowproof does not start a `url:` service, so it cannot contain its network", { span: spanOf(source, keyNode), hint: "remove `allow_egress` (a `url:` agent runs not contained), or let flowproof start the agent with `command:`" }));
      continue;
    }
    const other = hasCommand ? URL_KEYS.includes(key) : COMMAND_KEYS.includes(key);
    const guess = nearest(key, allowed);
    problems.push(diagnostic("unknown-key", other
      ? `\`${key}:\` goes with \`agent.${hasCommand ? "url" : "command"}\`, not with \`agent.${hasCommand ? "command" : "url"}\``
      : `unknown key \`${key}\` in \`agent:\``, { span: spanOf(source, keyNode), hint: `${guess && !other ? `did you mean \`${guess}\`? ` : ""}\`agent:\` with \`${hasCommand ? "command" : "url"}\` takes: ${allowed.join(", ")}` }));
  }
  const str = (key: string): string | undefined => {
    const v = values.get(key);
    if (isScalar(v) && typeof v.value === "string" && v.value.trim() !== "") return v.value;
    problems.push(diagnostic("bad-value", `\`agent.${key}\` must be a non-empty string`, { span: spanOf(source, v ?? keys.get(key)), hint: key === "url" ? "url: http://127.0.0.1:8080/run" : example }));
    return undefined;
  };
  const map = (key: string): Record<string, string> | undefined => {
    const v = values.get(key);
    if (v === undefined) return undefined;
    if (!isMap(v) || !v.items.every((p) => isScalar(p.value) && (typeof (p.value as Scalar).value === "string" || typeof (p.value as Scalar).value === "number"))) {
      problems.push(diagnostic("bad-value", `\`agent.${key}\` must map names to string values`, { span: spanOf(source, v ?? keys.get(key)), hint: `${key}: {NAME: value}` }));
      return undefined;
    }
    return Object.fromEntries(v.items.map((p) => [keyName(p), String((p.value as Scalar).value)]));
  };
  const positive = (key: string, max: number): number | undefined => {
    const v = values.get(key);
    if (v === undefined) return undefined;
    if (!isScalar(v) || typeof v.value !== "number" || !Number.isInteger(v.value) || v.value < 1 || v.value > max) {
      problems.push(diagnostic("bad-value", `\`agent.${key}\` must be a whole number from 1 to ${max}`, { span: spanOf(source, v ?? keys.get(key)), hint: key === "proxy_port" ? "proxy_port: 8787" : `${key}: 120` }));
      return undefined;
    }
    return v.value;
  };
  const timeout = positive("timeout_seconds", 3600);
  if (hasCommand) {
    const command = str("command");
    const env = map("env");
    const allow = values.has("allow_egress") ? loadAllowEgress(source, values.get("allow_egress") ?? null, problems) : undefined;
    if (problems.length > before || command === undefined) return undefined;
    return { command, ...(env ? { env } : {}), ...(timeout !== undefined ? { timeout_seconds: timeout } : {}), ...(allow ? { allow_egress: allow } : {}) };
  }
  const url = str("url");
  if (!values.has("proxy_port")) {
    problems.push(diagnostic("missing-key", "`agent.url` needs `proxy_port:`: the loopback port the running service's model client is configured to use", { span: spanOf(source, keys.get("url")), hint: "proxy_port: 8787 (and point the service's OPENAI_BASE_URL at http://127.0.0.1:8787/v1)" }));
  }
  const port = positive("proxy_port", 65535);
  const headers = map("headers");
  if (problems.length > before || url === undefined || port === undefined) return undefined;
  return { url, proxy_port: port, ...(headers ? { headers } : {}), ...(timeout !== undefined ? { timeout_seconds: timeout } : {}) };
}

/** Loads `tools:`: a list of `{name, result?}`. */
export function loadAgentTools(source: YamlSource, node: Node | null, problems: Diagnostic[]): AgentTool[] {
  const hint = "tools:\n  - name: lookup_weather\n    result: {temp_c: 21}";
  if (!isSeq(node)) {
    problems.push(diagnostic("bad-value", "`tools:` must be a list of `{name, result?}`", { span: spanOf(source, node), hint }));
    return [];
  }
  const out: AgentTool[] = [];
  for (const item of node.items as Node[]) {
    if (!isMap(item)) {
      problems.push(diagnostic("bad-value", "a `tools:` entry must be a mapping `{name, result?}`", { span: spanOf(source, item), hint }));
      continue;
    }
    let name: string | undefined;
    let result: unknown;
    let hasResult = false;
    for (const pair of item.items) {
      const key = keyName(pair);
      if (key === "name" && isScalar(pair.value) && typeof pair.value.value === "string" && pair.value.value.trim() !== "") name = pair.value.value.trim();
      else if (key === "name") problems.push(diagnostic("bad-value", "`name` must be the tool's name", { span: spanOf(source, (pair.value ?? pair.key) as Node), hint }));
      else if (key === "result") {
        hasResult = true;
        result = (pair.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? null;
      } else {
        problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in a \`tools:\` entry`, { span: spanOf(source, pair.key as Node), hint: "a tool entry takes `name` and `result`" }));
      }
    }
    if (name === undefined && !item.items.some((p) => keyName(p) === "name")) problems.push(diagnostic("missing-key", "a `tools:` entry needs `name`", { span: spanOf(source, item), hint }));
    if (name !== undefined) out.push(hasResult ? { name, result } : { name });
  }
  return out;
}

/** Loads `strict:` (true: every tool call the agent makes must be asserted, in order). */
export function loadStrict(source: YamlSource, node: Node | null, problems: Diagnostic[]): boolean {
  if (isScalar(node) && typeof node.value === "boolean") return node.value;
  problems.push(diagnostic("bad-value", "`strict:` must be true or false", { span: spanOf(source, node), hint: "strict: true" }));
  return false;
}

/**
 * Loads `agent.allow_egress`: a list of destinations as written. `${VAR}` entries stay raw (checked
 * when resolved, at execution); a literal host name must resolve now (it is resolved again, and
 * pinned, when the agent starts).
 */
export function loadAllowEgress(source: YamlSource, node: Node | null, problems: Diagnostic[], resolves: (host: string) => boolean = hostResolves): string[] | undefined {
  if (!isSeq(node)) {
    problems.push(diagnostic("bad-value", "`agent.allow_egress` must be a list of destinations", { span: spanOf(source, node), hint: EGRESS_EXAMPLE }));
    return undefined;
  }
  const out: string[] = [];
  for (const item of node.items as Node[]) {
    if (!isScalar(item) || (typeof item.value !== "string" && typeof item.value !== "number")) {
      problems.push(diagnostic("bad-value", "an `allow_egress` entry is a destination string", { span: spanOf(source, item), hint: EGRESS_EXAMPLE }));
      continue;
    }
    const text = String(item.value);
    if (/\$\{/.test(text)) {
      if (!/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(text.trim())) problems.push(diagnostic("bad-value", `\`${text}\` mixes a reference with text: an entry is either a destination or one \`\${VAR}\` holding a whole destination`, { span: spanOf(source, item), hint: "allow_egress: [${API_DESTINATION}] with API_DESTINATION=api.example.com:443" }));
      else out.push(text.trim());
      continue;
    }
    const parsed = parseEgressEntry(text);
    if (!parsed.ok) {
      problems.push(diagnostic("bad-value", `\`agent.allow_egress\`: ${parsed.message}`, { span: spanOf(source, item), hint: parsed.hint }));
      continue;
    }
    if (parsed.entry.kind === "host" && !resolves(parsed.entry.host)) {
      problems.push(diagnostic("bad-value", `\`agent.allow_egress\`: host \`${parsed.entry.host}\` does not resolve`, { span: spanOf(source, item), hint: "check the spelling, or name the address instead: `10.0.0.5:443`" }));
      continue;
    }
    out.push(text.trim());
  }
  return out;
}

/** Whether `host` resolves on this machine (the system resolver, through `getent`); true where there is no `getent`. */
export function hostResolves(host: string): boolean {
  if (host === "localhost") return true;
  try {
    const r = Bun.spawnSync(["getent", "ahosts", host], { stdout: "ignore", stderr: "ignore", timeout: 10_000 });
    return r.exitCode === 0;
  } catch {
    return true;
  }
}

/** One `mcp:` entry as written: a stdio server (`command`) or a streamable-HTTP one (`url`, optional `port`). */
export interface AgentMcpSpec {
  readonly name: string;
  readonly command?: string;
  readonly url?: string;
  readonly port?: number;
  readonly tools?: readonly AgentTool[];
}

const MCP_HINT = "mcp:\n  - name: notes\n    command: node notes-server.js   # or url: http://127.0.0.1:9000/mcp (port: 8931)";

/** Loads `mcp:`: a list of `{name, command | url, port? (url only), tools?}`; names unique. */
export function loadAgentMcp(source: YamlSource, node: Node | null, problems: Diagnostic[]): AgentMcpSpec[] {
  if (!isSeq(node)) {
    problems.push(diagnostic("bad-value", "`mcp:` must be a list of servers `{name, command | url, port?, tools?}`", { span: spanOf(source, node), hint: MCP_HINT }));
    return [];
  }
  const out: AgentMcpSpec[] = [];
  for (const item of node.items as Node[]) {
    if (!isMap(item)) {
      problems.push(diagnostic("bad-value", "an `mcp:` entry must be a mapping `{name, command | url, port?, tools?}`", { span: spanOf(source, item), hint: MCP_HINT }));
      continue;
    }
    const before = problems.length;
    const values = new Map<string, Node | null>();
    const keys = new Map<string, Node>();
    for (const pair of item.items) {
      const key = keyName(pair);
      values.set(key, pair.value as Node | null);
      keys.set(key, pair.key as Node);
      if (!["name", "command", "url", "port", "tools"].includes(key)) {
        const guess = nearest(key, ["name", "command", "url", "port", "tools"]);
        problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in an \`mcp:\` entry`, { span: spanOf(source, pair.key as Node), hint: `${guess ? `did you mean \`${guess}\`? ` : ""}an MCP server takes name, command or url, port (url only) and tools` }));
      }
    }
    const str = (key: string): string | undefined => {
      const v = values.get(key);
      if (v === undefined) return undefined;
      if (isScalar(v) && typeof v.value === "string" && v.value.trim() !== "") return v.value;
      problems.push(diagnostic("bad-value", `\`${key}\` of an \`mcp:\` entry must be a non-empty string`, { span: spanOf(source, v ?? keys.get(key)), hint: MCP_HINT }));
      return undefined;
    };
    const name = str("name");
    if (!values.has("name")) problems.push(diagnostic("missing-key", "an `mcp:` entry needs `name`", { span: spanOf(source, item), hint: MCP_HINT }));
    else if (name !== undefined && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) problems.push(diagnostic("bad-value", `\`${name}\` is not a server name: letters, digits, \`_\` and \`-\`, starting with a letter`, { span: spanOf(source, values.get("name")), hint: "name: notes" }));
    else if (name !== undefined && out.some((s) => s.name.toUpperCase().replace(/[^A-Z0-9]/g, "_") === name.toUpperCase().replace(/[^A-Z0-9]/g, "_"))) {
      problems.push(diagnostic("bad-value", `MCP server \`${name}\` is declared twice (names are compared as their variable suffix, FLOWPROOF_MCP_…_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")})`, { span: spanOf(source, values.get("name")), hint: "give each server its own name" }));
    }
    const command = str("command");
    const url = str("url");
    if (values.has("command") && values.has("url")) problems.push(diagnostic("bad-value", "an `mcp:` entry has both `command:` and `url:`; a server is either a stdio program or a streamable-HTTP URL", { span: spanOf(source, keys.get("url")), hint: "keep `command:` (stdio) or `url:` (streamable HTTP)" }));
    else if (!values.has("command") && !values.has("url")) problems.push(diagnostic("missing-key", "an `mcp:` entry needs `command:` (a stdio server) or `url:` (a streamable-HTTP server)", { span: spanOf(source, item), hint: MCP_HINT }));
    let port: number | undefined;
    const portNode = values.get("port");
    if (portNode !== undefined) {
      if (values.has("command")) problems.push(diagnostic("bad-value", "`port:` goes with an `mcp:` server's `url:`, not with `command:` (a stdio server has no port)", { span: spanOf(source, keys.get("port")), hint: "remove `port:`" }));
      else if (!isScalar(portNode) || typeof portNode.value !== "number" || !Number.isInteger(portNode.value) || portNode.value < 1 || portNode.value > 65535) problems.push(diagnostic("bad-value", "`port:` must be a whole number from 1 to 65535", { span: spanOf(source, portNode ?? keys.get("port")), hint: "port: 8931" }));
      else port = portNode.value;
    }
    const toolsNode = values.get("tools");
    const tools = toolsNode === undefined ? [] : loadAgentTools(source, toolsNode, problems);
    if (problems.length > before || name === undefined) continue;
    out.push({ name, ...(command !== undefined ? { command } : {}), ...(url !== undefined ? { url } : {}), ...(port !== undefined ? { port } : {}), ...(tools.length > 0 ? { tools } : {}) });
  }
  return out;
}

/** `mcp:` of an agent flow, checked against its `agent:` and `tools:`: `{mcp}` to spread into the step, `{}` when absent. */
export function loadFlowMcp(source: YamlSource, node: Node | null | undefined, agent: AgentSpec | undefined, tools: readonly AgentTool[], problems: Diagnostic[]): { mcp?: AgentMcpSpec[] } {
  if (node === undefined) return {};
  const mcp = loadAgentMcp(source, node, problems);
  for (const server of mcp) {
    if (agent && "url" in agent && server.url !== undefined && server.port === undefined) {
      problems.push(diagnostic("missing-key", `MCP server \`${server.name}\` needs \`port:\` when the agent is a running service (\`agent.url\`): the service cannot read FLOWPROOF_MCP_URL_…, so it must be configured with a fixed stand-in URL`, { span: spanOf(source, node), hint: "port: 8931 (and point the service at http://127.0.0.1:8931/mcp)" }));
    }
    for (const t of server.tools ?? []) {
      if ("result" in t && tools.some((f) => "result" in f && f.name === t.name)) {
        problems.push(diagnostic("bad-value", `tool \`${t.name}\` has a \`result:\` at both boundaries (flow \`tools:\` and MCP server \`${server.name}\`); the model would be told one and the agent the other`, { span: spanOf(source, node), hint: "keep the `result:` in one place" }));
      }
    }
  }
  return mcp.length > 0 ? { mcp } : {};
}
