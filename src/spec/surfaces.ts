// Multi-surface flows: the `apps:` map of named surfaces and the `in: <surface>` blocks that run
// steps on one of them. Surfaces of kind `web` (with an optional `browser:`), `sap` (with its own
// `connection:` and `login:`), `api` (no UI: structured steps only), Windows apps (`notepad`,
// `calc`, `{command, window_title}` with an optional `window:`) and `agent` run in this version;
// other kinds are refused by name. Pure: YAML nodes in, typed surfaces and diagnostics out.
import { parseTemplate } from "../grammar/index.ts";
import type { Template } from "../grammar/ast.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, isSeq, keyName, spanOf, type Node, type YAMLMap, type YamlSource } from "./yaml.ts";
import type { BlockLoader, FlowNode, Scope } from "./block.ts";
import { loadBrowser, type FlowBrowser } from "./browser-keys.ts";
import { loadSapKeys, SAP_APP, type KeyPair, type SapKeys } from "./sap-keys.ts";
import { isAgentEntry, loadAgentBlock, loadAgentSurface, type AgentSurfaceSpec } from "./agent-surface.ts";
import { isWindowsApp, loadDesktopCommand, loadWindowGeometry, requiresWindows, type DesktopCommand, type WindowGeometry, type WindowsAppKind } from "./desktop.ts";

/** A web surface of a multi-surface flow: a page in its own browser context. */
export interface WebSurfaceSpec {
  readonly app: "web";
  /** Start URL template (`${VAR}` resolved at the surface's first activation). */
  readonly url: Template;
  /** The surface's own `browser:` shape, as written (copied into the trace header's `apps` entry). */
  readonly browser?: FlowBrowser;
}

/** An api surface: no UI, no start page; its blocks hold structured steps only. */
export interface ApiSurfaceSpec {
  readonly app: "api";
}

/** A SAP GUI surface: its own connection and login (a clerk and an approver on one system). */
export interface SapSurfaceSpec extends SapKeys {
  readonly app: "sap";
}

/**
 * A Windows app surface: `notepad`, `calc`, or any program (`app: {command, window_title}`, whose
 * `${captured.x}` references resolve when the surface starts at its first block).
 */
export interface WindowsSurfaceSpec {
  readonly app: WindowsAppKind;
  readonly desktop?: DesktopCommand;
  readonly window?: WindowGeometry;
}

/** One named surface of a multi-surface flow. */
export type SurfaceSpec = AgentSurfaceSpec | WebSurfaceSpec | ApiSurfaceSpec | SapSurfaceSpec | WindowsSurfaceSpec;

export const SURFACE_NAME = /^[a-z][a-z0-9_-]*$/;
const LATER_SURFACE_KINDS = ["vision", "agent"];
const SURFACE_KINDS_HINT = "surfaces of kind `web`, `sap`, `api`, `notepad`, `calc` and `{command, window_title}` run in this version";
const EXAMPLE = "apps:\n  shop:  { app: web, url: http://127.0.0.1:3000/ }\n  admin: { app: web, url: http://127.0.0.1:4000/ }\n  backend: { app: api }";

/** `platform`: the OS the flow would run on; a Windows app surface elsewhere is refused (absent: not checked). */
export function loadApps(source: YamlSource, node: Node | null, problems: Diagnostic[], platform?: string): Record<string, SurfaceSpec> | undefined {
  if (!isMap(node) || node.items.length === 0) {
    problems.push(diagnostic("bad-value", "`apps` must map surface names to `{ app, url }`", { span: spanOf(source, node), hint: EXAMPLE }));
    return undefined;
  }
  const out: Record<string, SurfaceSpec> = {};
  let ok = true;
  for (const pair of node.items) {
    const name = keyName(pair);
    const value = pair.value as Node | null;
    if (!SURFACE_NAME.test(name)) {
      problems.push(diagnostic("bad-value", `surface name ${JSON.stringify(name)} must match [a-z][a-z0-9_-]*`, { span: spanOf(source, pair.key as Node), hint: "shop:" }));
      ok = false;
      continue;
    }
    const surface = loadSurface(source, name, value, problems, platform);
    if (surface) out[name] = surface;
    else ok = false;
  }
  return ok ? out : undefined;
}

function loadSurface(source: YamlSource, name: string, node: Node | null, problems: Diagnostic[], platform: string | undefined): SurfaceSpec | undefined {
  if (!isMap(node)) {
    problems.push(diagnostic("bad-value", `surface \`${name}\` must be a mapping \`{ app, url }\``, { span: spanOf(source, node), hint: EXAMPLE }));
    return undefined;
  }
  if (isAgentEntry(node)) return loadAgentSurface(source, name, node, problems);
  let app: "web" | "api" | "sap" | WindowsAppKind | undefined;
  let desktop: DesktopCommand | undefined;
  let windowPair: { key: Node; value: Node | null } | undefined;
  let connection: KeyPair | undefined;
  let login: KeyPair | undefined;
  let url: Template | undefined;
  let urlKey: Node | undefined;
  let browser: FlowBrowser | undefined;
  let browserKey: Node | undefined;
  let ok = true;
  for (const pair of node.items) {
    const key = keyName(pair);
    const value = pair.value as Node | null;
    if (key === "app" && isMap(value)) {
      // `app: {command, window_title}`: any Windows program.
      app = "windows";
      desktop = loadDesktopCommand(source, value, problems, true, `apps.${name}.app`);
      if (!desktop) ok = false;
      if (platform !== undefined && platform !== "win32") {
        problems.push(requiresWindows(source, value, "windows", platform, `apps.${name}.app`));
        ok = false;
      }
    } else if (key === "app") {
      if (!isScalar(value) || typeof value.value !== "string") {
        problems.push(diagnostic("bad-value", `\`apps.${name}.app\` must be an app kind`, { span: spanOf(source, value ?? (pair.key as Node)), hint: "app: web" }));
        ok = false;
      } else if (value.value === "web" || value.value === "api" || value.value === SAP_APP) app = value.value;
      else if (value.value === "notepad" || value.value === "calc") {
        app = value.value;
        if (platform !== undefined && platform !== "win32") {
          problems.push(requiresWindows(source, value, value.value, platform, `apps.${name}.app`));
          ok = false;
        }
      } else if (value.value === "windows") {
        problems.push(diagnostic("bad-value", `surface \`${name}\`: a Windows program is written as its command and window title`, { span: spanOf(source, value), hint: "app: {command: '\"C:\\Apps\\app.exe\" --flag', window_title: \"My App\"}" }));
        ok = false;
      } else {
        const later = LATER_SURFACE_KINDS.includes(value.value);
        problems.push(diagnostic(later ? "unsupported-feature" : "bad-value", later
          ? `surface \`${name}\`: app \`${value.value}\` is not available as a surface in this version of flowproof`
          : `surface \`${name}\`: unknown app \`${value.value}\``, { span: spanOf(source, value), hint: SURFACE_KINDS_HINT }));
        ok = false;
      }
    } else if (key === "url") {
      urlKey = pair.key as Node;
      if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "") {
        problems.push(diagnostic("bad-value", `\`apps.${name}.url\` must be a URL string`, { span: spanOf(source, value ?? (pair.key as Node)), hint: "url: http://127.0.0.1:3000/" }));
        ok = false;
      } else {
        const parsed = parseTemplate(value.value);
        if (parsed.ok && parsed.value.parts.some((p) => p.kind === "captured")) {
          problems.push(diagnostic("bad-reference", `a web surface's url cannot use \${captured.…}: it opens at its first block`, { span: spanOf(source, value), hint: "use a `${VAR}` reference, or `Go to ${captured.x}` as a step inside the block" }));
          ok = false;
        } else if (parsed.ok) url = parsed.value;
        else {
          problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(source, value), hint: parsed.error.hint }));
          ok = false;
        }
      }
    } else if (key === "browser") {
      browserKey = pair.key as Node;
      const before = problems.length;
      browser = loadBrowser(source, value, problems);
      if (problems.length > before) ok = false;
    } else if (key === "connection") {
      connection = { key: pair.key as Node, value };
    } else if (key === "login") {
      login = { key: pair.key as Node, value };
    } else if (key === "window") {
      windowPair = { key: pair.key as Node, value };
    } else if (["session", "mock", "redact"].includes(key)) {
      problems.push(diagnostic("unsupported-feature", `\`apps.${name}.${key}\` is part of the flow format but this version of flowproof does not run it on a surface yet`, { span: spanOf(source, pair.key as Node), hint: `remove \`${key}:\` from the surface for now` }));
      ok = false;
    } else {
      problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in surface \`${name}\``, { span: spanOf(source, pair.key as Node), hint: "a web surface has `app`, `url` and `browser`; a sap surface `app`, `connection` and `login`; a Windows app surface `app` and `window`; an api surface has only `app`" }));
      ok = false;
    }
  }
  if (ok && app === undefined) problems.push(diagnostic("missing-key", `surface \`${name}\` needs \`app\``, { span: spanOf(source, node), hint: "app: web" }));
  // `connection:`/`login:` belong to sap surfaces; any other kind refuses them by name.
  const before = problems.length;
  const sap = connection || login || app === SAP_APP ? loadSapKeys(source, connection, login, app ?? SAP_APP, `surface \`${name}\``, problems) : {};
  if (problems.length > before) ok = false;
  let window: WindowGeometry | undefined;
  if (windowPair && isWindowsApp(app)) {
    window = loadWindowGeometry(source, windowPair.key, windowPair.value, app, problems, `apps.${name}.window`);
    if (!window) ok = false;
  } else if (windowPair && app !== undefined) {
    problems.push(diagnostic("unsupported-feature", `\`apps.${name}.window\` sizes a desktop window; an \`app: ${app}\` surface has none`, { span: spanOf(source, windowPair.key), hint: "remove `window:` from the surface" }));
    ok = false;
  }
  if (isWindowsApp(app)) return windowsSurface(source, name, app, desktop, window, urlKey, browserKey, problems, ok);
  if (app === SAP_APP) {
    // SAP GUI has no start page and no browser: a surface is its connection and login.
    if (urlKey) problems.push(diagnostic("bad-value", `sap surface \`${name}\` has no start page, so it takes no \`url\``, { span: spanOf(source, urlKey), hint: "remove `url:`; write `Go to VA01` as the block's first step" }));
    if (browserKey) problems.push(diagnostic("unsupported-feature", `sap surface \`${name}\` has no browser to shape`, { span: spanOf(source, browserKey), hint: "remove `browser:` from the sap surface" }));
    return ok && !urlKey && !browserKey ? { app: SAP_APP, ...sap } : undefined;
  }
  if (app === "api") {
    // No UI and no start page: an api block's steps carry their own full URLs.
    if (urlKey) problems.push(diagnostic("bad-value", `api surface \`${name}\` has no start page, so it takes no \`url\``, { span: spanOf(source, urlKey), hint: "remove `url:`; write the full URL in each `assert_api:` step" }));
    if (browserKey) problems.push(diagnostic("unsupported-feature", `api surface \`${name}\` has no browser to shape`, { span: spanOf(source, browserKey), hint: "remove `browser:` from the api surface" }));
    return ok && !urlKey && !browserKey ? { app: "api" } : undefined;
  }
  if (ok && app === "web" && url === undefined) problems.push(diagnostic("missing-key", `web surface \`${name}\` needs a \`url\``, { span: spanOf(source, node), hint: "url: http://127.0.0.1:3000/" }));
  return ok && app === "web" && url ? { app: "web", url, ...(browser && Object.keys(browser).length > 0 ? { browser } : {}) } : undefined;
}

/** A Windows app surface: no start page and no browser; its window found by its title. */
function windowsSurface(source: YamlSource, name: string, app: WindowsAppKind, desktop: DesktopCommand | undefined, window: WindowGeometry | undefined, urlKey: Node | undefined, browserKey: Node | undefined, problems: Diagnostic[], ok: boolean): WindowsSurfaceSpec | undefined {
  if (urlKey) problems.push(diagnostic("bad-value", `Windows app surface \`${name}\` has no start page, so it takes no \`url\``, { span: spanOf(source, urlKey), hint: "remove `url:`; the program is started from `app:`" }));
  if (browserKey) problems.push(diagnostic("unsupported-feature", `Windows app surface \`${name}\` has no browser to shape`, { span: spanOf(source, browserKey), hint: "remove `browser:`; size the window with `window: {width, height, x, y}`" }));
  if (!ok || urlKey || browserKey || (app === "windows" && !desktop)) return undefined;
  return { app, ...(desktop ? { desktop } : {}), ...(window ? { window } : {}) };
}

/**
 * `- in: <surface>` + `steps: [...]`: the steps run on that surface. Blocks sit at the top level
 * of `steps:` only and hold plain, `rules:`, `assert:` and structured steps and `repeat:`,
 * `when:` and `foreach:` blocks; an api surface's blocks hold structured steps only (refused by
 * the step loader, which knows the surface).
 */
export function loadIn(loader: BlockLoader, item: YAMLMap, scope: Scope, surfaces: Readonly<Record<string, SurfaceSpec>> | undefined): FlowNode[] {
  const { source, problems } = loader;
  const inPair = item.items.find((p) => keyName(p) === "in")!;
  const inNode = inPair.value as Node | null;
  const at = spanOf(source, inPair.key as Node);
  if (!surfaces) {
    problems.push(diagnostic("bad-value", "`in:` blocks need the flow's surfaces declared under `apps:`", { span: at, hint: EXAMPLE }));
    return [];
  }
  if (!scope.top || scope.surface !== undefined) {
    problems.push(diagnostic("bad-value", "`in:` blocks sit at the top level of `steps:`, one after another; they do not nest", { span: at, hint: "end the block, then start the next `- in: <surface>` block" }));
    return [];
  }
  const extra = item.items.map(keyName).filter((k) => k !== "in" && k !== "steps");
  if (extra.length > 0 || item.items.length !== 2) {
    problems.push(diagnostic("bad-value", "an `in:` block is a two-key mapping: `in: <surface>` and `steps:`", { span: spanOf(source, item), hint: "- in: shop\n  steps:\n    - rules: Click \"Buy\"" }));
    return [];
  }
  const name = isScalar(inNode) && typeof inNode.value === "string" ? inNode.value : undefined;
  if (name === undefined || !(name in surfaces)) {
    problems.push(diagnostic("bad-value", name === undefined ? "`in:` names a surface of `apps:`" : `no surface \`${name}\` in \`apps:\``, { span: spanOf(source, inNode ?? (inPair.key as Node)), hint: `declared surfaces: ${Object.keys(surfaces).join(", ")}` }));
    return [];
  }
  const stepsNode = item.items.find((p) => keyName(p) === "steps")!.value as Node | null;
  if (!isSeq(stepsNode) || stepsNode.items.length === 0) {
    problems.push(diagnostic("bad-value", "an `in:` block's `steps` must be a non-empty list", { span: spanOf(source, stepsNode), hint: "steps:\n  - rules: Click \"Buy\"" }));
    return [];
  }
  const own = surfaces[name]!;
  if (own.app === "agent") return loadAgentBlock(loader, loader.steps ?? [], stepsNode.items as Node[], name, own);
  // Steps, `repeat:`/`when:` (their conditions read on this surface) and `foreach:` all run here.
  const nodes = loader.loadList(stepsNode.items as Node[], { top: false, surface: name, blockTop: true });
  const block = surfaces[name]!.app === "api" ? nodes.find((n) => n.kind !== "step") : undefined;
  if (block) {
    problems.push(diagnostic("unsupported-step", `surface \`${name}\` is \`app: api\`: it has no screen, and a \`${block.kind}:\` condition reads the screen`, {
      span: block.span,
      hint: "check the backend with `assert_api:` steps here, or move the block into a web surface's `in:` block",
    }));
    return [];
  }
  return nodes;
}
