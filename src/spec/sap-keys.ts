// `connection:` and `login:` of a SAP flow or of a sap surface under `apps:`: the SAP Logon entry
// to open and the user to log on with. Values are literals or `${VAR}` references, kept as
// templates (resolved at launch, never stored). Pure: YAML nodes in, typed keys and diagnostics out.
import { parseTemplate } from "../grammar/index.ts";
import type { Template } from "../grammar/ast.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, keyName, spanOf, type Node, type YamlSource } from "./yaml.ts";

/** `login: {user, password, client?, language?}` as written. */
export interface SapLoginSpec {
  readonly user: Template;
  readonly password: Template;
  readonly client?: Template;
  readonly language?: Template;
}

export interface SapKeys {
  /** The SAP Logon entry (description); absent = attach to a session already logged on. */
  readonly connection?: Template;
  readonly login?: SapLoginSpec;
}

/** A key node and its value, as found in the mapping. */
export interface KeyPair {
  readonly key: Node;
  readonly value: Node | null;
}

export const SAP_APP = "sap";
const LOGIN_KEYS = ["user", "password", "client", "language"] as const;
const LOGIN_EXAMPLE = "login: {user: ${SAP_USER}, password: ${SAP_PASSWORD}, client: \"100\"}";

/**
 * Loads `connection:`/`login:`; `app` is the flow's (or surface's) app kind, `where` how messages
 * name the place ("the flow", "surface `clerk`").
 */
export function loadSapKeys(source: YamlSource, connection: KeyPair | undefined, login: KeyPair | undefined, app: string | undefined, where: string, problems: Diagnostic[]): SapKeys {
  if (app !== undefined && app !== SAP_APP) {
    for (const [name, pair] of [["connection", connection], ["login", login]] as const) {
      if (!pair) continue;
      problems.push(diagnostic("unsupported-feature", `\`${name}:\` belongs to SAP GUI (\`app: sap\`); ${where} is \`app: ${app}\``, {
        span: spanOf(source, pair.key), hint: `remove \`${name}:\`, or make it \`app: sap\``,
      }));
    }
    return {};
  }
  const out: { connection?: Template; login?: SapLoginSpec } = {};
  if (connection) {
    const t = templateOf(source, connection.value, "connection", problems, "connection: \"TS3 - Test System\"");
    if (t) out.connection = t;
  }
  if (login) {
    if (!connection) {
      problems.push(diagnostic("missing-key", "`login:` needs `connection:`: flowproof logs on only in a connection it opens itself, never in someone else's session", {
        span: spanOf(source, login.key), hint: "add `connection: <SAP Logon entry>`, or remove `login:` to attach to a session that is already logged on",
      }));
    }
    const l = loadLogin(source, login, problems);
    if (l && connection) out.login = l;
  }
  return out;
}

function loadLogin(source: YamlSource, pair: KeyPair, problems: Diagnostic[]): SapLoginSpec | undefined {
  const node = pair.value;
  if (!isMap(node)) {
    problems.push(diagnostic("bad-value", "`login` must be a mapping with `user` and `password`", { span: spanOf(source, node ?? pair.key), hint: LOGIN_EXAMPLE }));
    return undefined;
  }
  const found: Partial<Record<(typeof LOGIN_KEYS)[number], Template>> = {};
  let ok = true;
  for (const item of node.items) {
    const key = keyName(item);
    if (!(LOGIN_KEYS as readonly string[]).includes(key)) {
      problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in \`login\``, { span: spanOf(source, item.key as Node), hint: `\`login\` takes ${LOGIN_KEYS.join(", ")}` }));
      ok = false;
      continue;
    }
    const t = templateOf(source, item.value as Node | null, `login.${key}`, problems, key === "password" ? "password: ${SAP_PASSWORD}" : `${key}: \${SAP_${key.toUpperCase()}}`);
    if (t) found[key as (typeof LOGIN_KEYS)[number]] = t;
    else ok = false;
  }
  for (const key of ["user", "password"] as const) {
    if (found[key] === undefined && ok) {
      problems.push(diagnostic("missing-key", `\`login\` needs a non-empty \`${key}\``, { span: spanOf(source, pair.key), hint: LOGIN_EXAMPLE }));
      ok = false;
    }
  }
  if (!ok || !found.user || !found.password) return undefined;
  return { user: found.user, password: found.password, ...(found.client ? { client: found.client } : {}), ...(found.language ? { language: found.language } : {}) };
}

/** A non-empty literal or `${VAR}` template; `${captured.…}` and `${each}` are refused (a login is known before any step). */
function templateOf(source: YamlSource, node: Node | null, name: string, problems: Diagnostic[], example: string): Template | undefined {
  const text = isScalar(node) && (typeof node.value === "string" || typeof node.value === "number") ? String(node.value).trim() : undefined;
  if (text === undefined || text === "") {
    problems.push(diagnostic("bad-value", `\`${name}\` must be a non-empty string`, { span: spanOf(source, node), hint: example }));
    return undefined;
  }
  const parsed = parseTemplate(text);
  if (!parsed.ok) {
    problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(source, node), hint: parsed.error.hint }));
    return undefined;
  }
  if (parsed.value.parts.some((p) => p.kind === "captured") || /\$\{\s*each\b/.test(text)) {
    problems.push(diagnostic("bad-reference", `\`${name}\` is needed before any step runs, so it cannot use \${captured.…} or \${each}`, { span: spanOf(source, node), hint: example }));
    return undefined;
  }
  return parsed.value;
}

/**
 * The load-time capability errors of SAP GUI on another OS than Windows: one for `app: sap`
 * (`appNode`, its value) and one per sap surface of `apps:` (`appsNode`). SAP GUI Scripting runs
 * only with SAP GUI for Windows, so such a flow stops before anything starts, `validate` included.
 */
export function sapRequiresWindows(source: YamlSource, appNode: Node | undefined, appsNode: Node | undefined, platform: string): Diagnostic[] {
  const problem = (node: Node | undefined, where: string): Diagnostic => diagnostic("unsupported-platform", `\`${where}: sap\` requires Windows: SAP GUI Scripting runs only with SAP GUI for Windows; this machine runs ${platform}`, {
    span: spanOf(source, node),
    hint: "run this flow on a Windows machine with SAP GUI and scripting enabled (the flowproof executable for windows-x64; docs/sap.md)",
  });
  const out: Diagnostic[] = [];
  if (appNode !== undefined) out.push(problem(appNode, "app"));
  if (isMap(appsNode)) {
    for (const pair of appsNode.items) {
      const surface = pair.value as Node | null;
      if (!isMap(surface)) continue;
      const app = surface.items.find((p) => keyName(p) === "app")?.value as Node | null | undefined;
      if (isScalar(app) && app.value === SAP_APP) out.push(problem(app, `apps.${keyName(pair)}.app`));
    }
  }
  return out;
}
