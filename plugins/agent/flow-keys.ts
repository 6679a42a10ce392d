// The agent adapter's flow keys: `agent:` (the program flowproof starts, or the running service it
// calls), `tools:`, `mcp:`, `strict:` and `match:`, for an `app: agent` flow and an agent surface of `apps:`;
// and the `agent_run` arguments a flow's agent steps become. Checks on the keys as written (any
// JSON), in the words of docs/agents.md. Only `allow_egress` host names are looked up.
import { EGRESS_EXAMPLE, parseEgressEntry, Type, type AdapterKeys, type ArgumentProblem } from "../../src/plugins/api.ts";

const ToolEntry = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    result: Type.Optional(Type.Unknown({ description: "What the model is told the tool answered, at record and replay alike." })),
  },
  { additionalProperties: false },
);

export const AGENT_KEYS_SCHEMA = Type.Object(
  {
    agent: Type.Union(
      [
        Type.Object(
          {
            command: Type.String({ minLength: 1, description: "Run through `sh -c` in the flow's folder, in a process group of its own." }),
            env: Type.Optional(
              Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
                description: "Applied last, over the injected variables; may hold ${VAR}.",
              }),
            ),
            timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, description: "The flow's bound (default 300)." })),
            allow_egress: Type.Optional(
              Type.Array(Type.String({ minLength: 1 }), {
                description:
                  "Destinations the contained agent may reach over TCP: `host:port`, `ip:port`, `cidr:port`, a bare `host` or `ip` (every port), or a `${VAR}` holding one; everything else is refused and recorded (docs/agents.md, Containment).",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        Type.Object(
          {
            url: Type.String({ minLength: 1, description: 'A running agent service; flowproof POSTs {"prompt": …} to it.' }),
            proxy_port: Type.Integer({ minimum: 1, maximum: 65535, description: "The loopback port its model client is pointed at." }),
            headers: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
            timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
          },
          { additionalProperties: false },
        ),
      ],
      { description: "The agent under test (docs/agents.md).", examples: ["{command: node agent.js}"] },
    ),
    tools: Type.Optional(
      Type.Array(ToolEntry, { description: "Tool declarations and substituted results.", examples: ["[{name: lookup_weather, result: {temp_c: 21}}]"] }),
    ),
    mcp: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({
              pattern: "^[A-Za-z][A-Za-z0-9_-]*$",
              description: "Wires the agent through FLOWPROOF_MCP_SERVER_<NAME> (stdio) or FLOWPROOF_MCP_URL_<NAME>.",
            }),
            command: Type.Optional(Type.String({ minLength: 1, description: "A stdio MCP server (started at record only)." })),
            url: Type.Optional(Type.String({ minLength: 1, description: "A streamable-HTTP MCP server (reached at record only)." })),
            port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: "url servers: the stand-in's fixed loopback port." })),
            tools: Type.Optional(Type.Array(ToolEntry)),
          },
          { additionalProperties: false },
        ),
        {
          description: "MCP servers recorded as lanes and served from them at replay (docs/agents.md).",
          examples: ["[{name: notes, command: node notes-server.js}]"],
        },
      ),
    ),
    strict: Type.Optional(Type.Boolean({ description: "Every tool call must be asserted, in order.", examples: ["true"] })),
    match: Type.Optional(
      Type.Union(
        [
          Type.Union([Type.Literal("conversation"), Type.Literal("strict")]),
          Type.Object(
            {
              by: Type.Optional(Type.Union([Type.Literal("conversation"), Type.Literal("strict")], { description: "`conversation` (default) or `strict`." })),
              ignore: Type.Optional(
                Type.Array(Type.String({ minLength: 1 }), { description: "Request paths (dotted, `*` for any key or index) left out of the comparison." }),
              ),
              compare: Type.Optional(
                Type.Array(Type.String({ minLength: 1 }), { description: "`by: conversation` only: request paths compared as well as the conversation." }),
              ),
            },
            { additionalProperties: false },
          ),
        ],
        {
          description:
            "How a replayed model request is matched to the recorded one: `conversation` (default: instructions, messages, tool calls and results, tool definitions, the model), `strict` (the whole body), or `{by, ignore, compare}` (docs/agents.md, Matching).",
          examples: ["conversation", "{ignore: [metadata], compare: [temperature]}"],
        },
      ),
    ),
  },
  { additionalProperties: false, required: ["agent"] },
);

/** A flow's time bound when `agent.timeout_seconds` is not given. */
export const DEFAULT_AGENT_TIMEOUT_SECONDS = 300;

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const COMMAND_KEYS = ["command", "env", "timeout_seconds", "allow_egress"];
const URL_KEYS = ["url", "proxy_port", "headers", "timeout_seconds"];
const EXAMPLE = "agent: {command: node agent.js}";
const TOOLS_HINT = "tools:\n  - name: lookup_weather\n    result: {temp_c: 21}";
const MATCH_HINT = "match: conversation   # or strict, or {by: conversation, ignore: [metadata], compare: [temperature]}";
const MATCH_PATH = /^(?:\*|[A-Za-z0-9_$@-]+)(?:\.(?:\*|[A-Za-z0-9_$@-]+))*$/;
const MCP_HINT = "mcp:\n  - name: notes\n    command: node notes-server.js   # or url: http://127.0.0.1:9000/mcp (port: 8931)";

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

/** `agent:`: `{command, env?, timeout_seconds?, allow_egress?}` or `{url, proxy_port, headers?, timeout_seconds?}`. */
function checkAgent(agent: unknown, out: ArgumentProblem[], resolves: (host: string) => boolean): void {
  if (!isObj(agent)) {
    out.push({
      path: ["agent"],
      message: "`agent:` must be a mapping with `command:` (a program flowproof starts) or `url:` and `proxy_port:` (a running service)",
      hint: EXAMPLE,
    });
    return;
  }
  const hasCommand = "command" in agent;
  const hasUrl = "url" in agent;
  if (hasCommand && hasUrl) {
    out.push({
      path: ["agent", "url"],
      at: "key",
      message: "`agent:` has both `command:` and `url:`; an agent is either a program flowproof starts or a service already running",
      hint: "keep `command:` (flowproof spawns it) or `url:` with `proxy_port:` (flowproof POSTs the task to it)",
    });
    return;
  }
  if (!hasCommand && !hasUrl) {
    out.push({ path: ["agent"], code: "missing-key", message: "`agent:` needs `command:` or `url:`", hint: EXAMPLE });
    return;
  }
  const allowed = hasCommand ? COMMAND_KEYS : URL_KEYS;
  for (const key of Object.keys(agent)) {
    if (allowed.includes(key)) continue;
    if (key === "allow_egress") {
      out.push({
        path: ["agent", key],
        at: "key",
        message: "`allow_egress` goes with `agent.command`: flowproof does not start a `url:` service, so it cannot contain its network",
        hint: "remove `allow_egress` (a `url:` agent runs not contained), or let flowproof start the agent with `command:`",
      });
      continue;
    }
    const other = hasCommand ? URL_KEYS.includes(key) : COMMAND_KEYS.includes(key);
    out.push({
      path: ["agent", key],
      at: "key",
      code: "unknown-key",
      message: other
        ? `\`${key}:\` goes with \`agent.${hasCommand ? "url" : "command"}\`, not with \`agent.${hasCommand ? "command" : "url"}\``
        : `unknown key \`${key}\` in \`agent:\``,
      hint: `\`agent:\` with \`${hasCommand ? "command" : "url"}\` takes: ${allowed.join(", ")}`,
    });
  }
  const str = (key: string) => {
    const v = agent[key];
    if (typeof v !== "string" || v.trim() === "")
      out.push({
        path: ["agent", key],
        message: `\`agent.${key}\` must be a non-empty string`,
        hint: key === "url" ? "url: http://127.0.0.1:8080/run" : EXAMPLE,
      });
  };
  const map = (key: string) => {
    const v = agent[key];
    if (v !== undefined && (!isObj(v) || !Object.values(v).every((x) => typeof x === "string" || typeof x === "number"))) {
      out.push({ path: ["agent", key], message: `\`agent.${key}\` must map names to string values`, hint: `${key}: {NAME: value}` });
    }
  };
  const positive = (key: string, max: number) => {
    const v = agent[key];
    if (v !== undefined && !(typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= max)) {
      out.push({
        path: ["agent", key],
        message: `\`agent.${key}\` must be a whole number from 1 to ${max}`,
        hint: key === "proxy_port" ? "proxy_port: 8787" : `${key}: 120`,
      });
    }
  };
  positive("timeout_seconds", 3600);
  if (hasCommand) {
    str("command");
    map("env");
    if ("allow_egress" in agent) checkAllowEgress(agent["allow_egress"], out, resolves);
    return;
  }
  str("url");
  if (!("proxy_port" in agent))
    out.push({
      path: ["agent", "url"],
      at: "key",
      code: "missing-key",
      message: "`agent.url` needs `proxy_port:`: the loopback port the running service's model client is configured to use",
      hint: "proxy_port: 8787 (and point the service's OPENAI_BASE_URL at http://127.0.0.1:8787/v1)",
    });
  positive("proxy_port", 65535);
  map("headers");
}

/**
 * `agent.allow_egress`: destinations as written. `${VAR}` entries stay raw (checked when resolved,
 * at execution); a literal host name must resolve now (it is resolved again, and pinned, when the
 * agent starts).
 */
export function checkAllowEgress(value: unknown, out: ArgumentProblem[], resolves: (host: string) => boolean = hostResolves): void {
  if (!Array.isArray(value)) {
    out.push({ path: ["agent", "allow_egress"], message: "`agent.allow_egress` must be a list of destinations", hint: EGRESS_EXAMPLE });
    return;
  }
  value.forEach((item, i) => {
    const path = ["agent", "allow_egress", i];
    if (typeof item !== "string" && typeof item !== "number") {
      out.push({ path, message: "an `allow_egress` entry is a destination string", hint: EGRESS_EXAMPLE });
      return;
    }
    const text = String(item);
    if (/\$\{/.test(text)) {
      if (!/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(text.trim()))
        out.push({
          path,
          message: `\`${text}\` mixes a reference with text: an entry is either a destination or one \`\${VAR}\` holding a whole destination`,
          hint: "allow_egress: [${API_DESTINATION}] with API_DESTINATION=api.example.com:443",
        });
      return;
    }
    const parsed = parseEgressEntry(text);
    if (!parsed.ok) out.push({ path, message: `\`agent.allow_egress\`: ${parsed.message}`, hint: parsed.hint });
    else if (parsed.entry.kind === "host" && !resolves(parsed.entry.host))
      out.push({
        path,
        message: `\`agent.allow_egress\`: host \`${parsed.entry.host}\` does not resolve`,
        hint: "check the spelling, or name the address instead: `10.0.0.5:443`",
      });
  });
}

/** `tools:` (of the flow, or of an MCP server at `path`): a list of `{name, result?}`. */
function checkTools(value: unknown, path: (string | number)[], out: ArgumentProblem[]): void {
  if (!Array.isArray(value)) {
    out.push({ path, message: "`tools:` must be a list of `{name, result?}`", hint: TOOLS_HINT });
    return;
  }
  value.forEach((item, i) => {
    if (!isObj(item)) {
      out.push({ path: [...path, i], message: "a `tools:` entry must be a mapping `{name, result?}`", hint: TOOLS_HINT });
      return;
    }
    for (const key of Object.keys(item)) {
      if (key === "name") {
        if (typeof item["name"] !== "string" || item["name"].trim() === "")
          out.push({ path: [...path, i, "name"], message: "`name` must be the tool's name", hint: TOOLS_HINT });
      } else if (key !== "result")
        out.push({
          path: [...path, i, key],
          at: "key",
          code: "unknown-key",
          message: `unknown key \`${key}\` in a \`tools:\` entry`,
          hint: "a tool entry takes `name` and `result`",
        });
    }
    if (!("name" in item)) out.push({ path: [...path, i], code: "missing-key", message: "a `tools:` entry needs `name`", hint: TOOLS_HINT });
  });
}

const suffix = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]/g, "_");

/** `mcp:`: a list of `{name, command | url, port? (url only), tools?}`; names unique; checked against `agent:` and `tools:`. */
function checkMcp(value: unknown, keys: Obj, out: ArgumentProblem[]): void {
  if (!Array.isArray(value)) {
    out.push({ path: ["mcp"], message: "`mcp:` must be a list of servers `{name, command | url, port?, tools?}`", hint: MCP_HINT });
    return;
  }
  const seen: string[] = [];
  const agent = keys["agent"];
  const flowTools = Array.isArray(keys["tools"]) ? keys["tools"].filter(isObj) : [];
  value.forEach((item, i) => {
    const at = (...rest: (string | number)[]) => ["mcp", i, ...rest];
    if (!isObj(item)) {
      out.push({ path: at(), message: "an `mcp:` entry must be a mapping `{name, command | url, port?, tools?}`", hint: MCP_HINT });
      return;
    }
    for (const key of Object.keys(item)) {
      if (!["name", "command", "url", "port", "tools"].includes(key))
        out.push({
          path: at(key),
          at: "key",
          code: "unknown-key",
          message: `unknown key \`${key}\` in an \`mcp:\` entry`,
          hint: "an MCP server takes name, command or url, port (url only) and tools",
        });
    }
    for (const key of ["name", "command", "url"]) {
      const v = item[key];
      if (v !== undefined && (typeof v !== "string" || v.trim() === ""))
        out.push({ path: at(key), message: `\`${key}\` of an \`mcp:\` entry must be a non-empty string`, hint: MCP_HINT });
    }
    const name = typeof item["name"] === "string" ? item["name"] : undefined;
    if (!("name" in item)) out.push({ path: at(), code: "missing-key", message: "an `mcp:` entry needs `name`", hint: MCP_HINT });
    else if (name !== undefined && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(name))
      out.push({
        path: at("name"),
        message: `\`${name}\` is not a server name: letters, digits, \`_\` and \`-\`, starting with a letter`,
        hint: "name: notes",
      });
    else if (name !== undefined && seen.includes(suffix(name)))
      out.push({
        path: at("name"),
        message: `MCP server \`${name}\` is declared twice (names are compared as their variable suffix, FLOWPROOF_MCP_…_${suffix(name)})`,
        hint: "give each server its own name",
      });
    if (name !== undefined) seen.push(suffix(name));
    if ("command" in item && "url" in item)
      out.push({
        path: at("url"),
        at: "key",
        message: "an `mcp:` entry has both `command:` and `url:`; a server is either a stdio program or a streamable-HTTP URL",
        hint: "keep `command:` (stdio) or `url:` (streamable HTTP)",
      });
    else if (!("command" in item) && !("url" in item))
      out.push({
        path: at(),
        code: "missing-key",
        message: "an `mcp:` entry needs `command:` (a stdio server) or `url:` (a streamable-HTTP server)",
        hint: MCP_HINT,
      });
    if ("port" in item) {
      const port = item["port"];
      if ("command" in item)
        out.push({
          path: at("port"),
          at: "key",
          message: "`port:` goes with an `mcp:` server's `url:`, not with `command:` (a stdio server has no port)",
          hint: "remove `port:`",
        });
      else if (!(typeof port === "number" && Number.isInteger(port) && port >= 1 && port <= 65535))
        out.push({ path: at("port"), message: "`port:` must be a whole number from 1 to 65535", hint: "port: 8931" });
    }
    if ("tools" in item) checkTools(item["tools"], at("tools"), out);
    if (isObj(agent) && "url" in agent && "url" in item && !("port" in item)) {
      out.push({
        path: ["mcp"],
        code: "missing-key",
        message: `MCP server \`${name}\` needs \`port:\` when the agent is a running service (\`agent.url\`): the service cannot read FLOWPROOF_MCP_URL_…, so it must be configured with a fixed stand-in URL`,
        hint: "port: 8931 (and point the service at http://127.0.0.1:8931/mcp)",
      });
    }
    for (const t of Array.isArray(item["tools"]) ? item["tools"].filter(isObj) : []) {
      if ("result" in t && flowTools.some((f) => "result" in f && f["name"] === t["name"])) {
        out.push({
          path: ["mcp"],
          message: `tool \`${String(t["name"])}\` has a \`result:\` at both boundaries (flow \`tools:\` and MCP server \`${name}\`); the model would be told one and the agent the other`,
          hint: "keep the `result:` in one place",
        });
      }
    }
  });
}

/** `match:`: `conversation`, `strict`, or `{by?, ignore?, compare?}` with request paths. */
function checkMatch(value: unknown, out: ArgumentProblem[]): void {
  if (value === "conversation" || value === "strict") return;
  if (typeof value === "string") {
    out.push({ path: ["match"], message: `\`match: ${value}\` is not a way to match: \`conversation\` (the default) or \`strict\``, hint: MATCH_HINT });
    return;
  }
  if (!isObj(value)) {
    out.push({ path: ["match"], message: "`match:` must be `conversation`, `strict`, or a mapping `{by, ignore, compare}`", hint: MATCH_HINT });
    return;
  }
  for (const key of Object.keys(value)) {
    if (!["by", "ignore", "compare"].includes(key))
      out.push({
        path: ["match", key],
        at: "key",
        code: "unknown-key",
        message: `unknown key \`${key}\` in \`match:\``,
        hint: "`match:` takes by (conversation or strict), ignore and compare (lists of request paths)",
      });
  }
  const by = value["by"];
  if (by !== undefined && by !== "conversation" && by !== "strict")
    out.push({ path: ["match", "by"], message: `\`match.by\` must be \`conversation\` or \`strict\`, not ${JSON.stringify(by)}`, hint: "by: conversation" });
  for (const key of ["ignore", "compare"] as const) {
    if (!(key in value)) continue;
    const list = value[key];
    if (!Array.isArray(list)) {
      out.push({ path: ["match", key], message: `\`match.${key}\` must be a list of request paths`, hint: `${key}: [metadata, tools.*.description]` });
      continue;
    }
    list.forEach((item, i) => {
      if (typeof item !== "string" || !MATCH_PATH.test(item)) {
        out.push({
          path: ["match", key, i],
          message: `${JSON.stringify(item)} is not a request path: dotted names or indexes, \`*\` for any one`,
          hint: "e.g. `metadata`, `messages.0.content`, `tools.*.description`",
        });
      }
    });
  }
  if (by === "strict" && "compare" in value)
    out.push({
      path: ["match", "compare"],
      at: "key",
      message: "`match.compare` goes with `by: conversation`: `strict` already compares every field",
      hint: "remove `compare:`, or use `by: conversation`",
    });
}

/** Every check of the agent keys; `resolves` looks up `allow_egress` host names. */
export function checkAgentKeys(keys: Obj, resolves: (host: string) => boolean = hostResolves): ArgumentProblem[] {
  const out: ArgumentProblem[] = [];
  if ("agent" in keys) checkAgent(keys["agent"], out, resolves);
  if ("tools" in keys) checkTools(keys["tools"], ["tools"], out);
  if ("strict" in keys && typeof keys["strict"] !== "boolean") out.push({ path: ["strict"], message: "`strict:` must be true or false", hint: "strict: true" });
  if ("mcp" in keys) checkMcp(keys["mcp"], keys, out);
  if ("match" in keys) checkMatch(keys["match"], out);
  return out;
}

/** The `agent_run` arguments of a flow's (or a block's) agent steps: the agent, the steps, tools, MCP servers, strictness and the bound. */
export function executionArgs(keys: Obj, steps: readonly unknown[]): Obj {
  const written = isObj(keys["agent"]) ? keys["agent"] : {};
  // Environment and header values are text, whatever YAML made of them.
  const text = (v: unknown) => (isObj(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : v);
  const agent: Record<string, unknown> = {
    ...written,
    ...("env" in written ? { env: text(written["env"]) } : {}),
    ...("headers" in written ? { headers: text(written["headers"]) } : {}),
  };
  const tools = Array.isArray(keys["tools"]) ? keys["tools"] : [];
  const mcp = Array.isArray(keys["mcp"]) ? keys["mcp"] : [];
  const seconds = typeof agent["timeout_seconds"] === "number" ? agent["timeout_seconds"] : DEFAULT_AGENT_TIMEOUT_SECONDS;
  return {
    agent,
    steps,
    ...(tools.length > 0 ? { tools } : {}),
    ...(mcp.length > 0 ? { mcp } : {}),
    ...(keys["strict"] === true ? { strict: true } : {}),
    ...(keys["match"] !== undefined ? { match: keys["match"] } : {}),
    timeout_ms: seconds * 1000,
  };
}

export const AGENT_KEYS: AdapterKeys<Obj> = {
  schema: AGENT_KEYS_SCHEMA,
  check: (keys) => checkAgentKeys(keys),
  refuse: {
    url: {
      message: "an agent flow has no start page: `url:` belongs to web flows",
      hint: "remove `url:`; a running agent service is `agent: {url: …, proxy_port: …}`",
    },
  },
};
