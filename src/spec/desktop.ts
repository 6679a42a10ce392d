// Windows desktop apps in a flow: `app: notepad | calc`, `app: {command, window_title}` (any
// program, app kind `windows`) and the `window:` geometry key, for a flow and for an `apps:`
// surface. Pure: YAML nodes in, typed values and diagnostics out; the platform is passed in.
import { parseTemplate } from "../grammar/index.ts";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { isMap, isScalar, keyName, spanOf, type Node, type YAMLMap, type YamlSource } from "./yaml.ts";
import { nearest } from "./suggest.ts";

/** App kinds a Windows desktop adapter drives. */
export const WINDOWS_APP_KINDS = ["windows", "calc", "notepad"] as const;
export type WindowsAppKind = (typeof WINDOWS_APP_KINDS)[number];
export const isWindowsApp = (kind: string | undefined): kind is WindowsAppKind => (WINDOWS_APP_KINDS as readonly string[]).includes(kind ?? "");

/** `app: {command, window_title}` as written (`${…}` kept raw; resolved when the program starts). */
export interface DesktopCommand {
  readonly command: string;
  readonly window_title: string;
}

/** `window:` geometry as written: literal integers, size with an optional position. */
export interface WindowGeometry {
  readonly width: number;
  readonly height: number;
  readonly x?: number;
  readonly y?: number;
}

const APP_EXAMPLE = "app: {command: \"\\\"C:\\\\Program Files\\\\App\\\\app.exe\\\" --flag\", window_title: \"My App\"}";
const APP_KEYS = ["command", "window_title"] as const;
const WINDOW_KEYS = ["width", "height", "x", "y", "title"] as const;

/**
 * `app:` as a mapping: `command` (the program path, quoted when it has spaces, and its arguments)
 * and `window_title` (a part of its main window's title). `allowCaptures`: a surface of `apps:`
 * starts at its first block, so `${captured.x}` from earlier blocks may appear.
 */
export function loadDesktopCommand(source: YamlSource, node: Node, problems: Diagnostic[], allowCaptures: boolean, where = "app"): DesktopCommand | undefined {
  if (!isMap(node)) {
    problems.push(diagnostic("bad-value", `\`${where}\` must be an app kind or a mapping \`{command, window_title}\``, { span: spanOf(source, node), hint: APP_EXAMPLE }));
    return undefined;
  }
  const values: Partial<Record<(typeof APP_KEYS)[number], string>> = {};
  let ok = true;
  for (const pair of node.items) {
    const key = keyName(pair);
    const value = pair.value as Node | null;
    if (!(APP_KEYS as readonly string[]).includes(key)) {
      const guess = nearest(key, [...APP_KEYS]);
      problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in \`${where}\`: a Windows program is \`{command, window_title}\``, {
        span: spanOf(source, pair.key as Node),
        hint: guess ? `did you mean \`${guess}\`?` : APP_EXAMPLE,
      }));
      ok = false;
      continue;
    }
    if (!isScalar(value) || typeof value.value !== "string" || value.value.trim() === "") {
      problems.push(diagnostic("bad-value", `\`${where}.${key}\` must be a non-empty string`, {
        span: spanOf(source, value ?? (pair.key as Node)),
        hint: key === "command" ? "command: \"\\\"C:\\\\Program Files\\\\App\\\\app.exe\\\" --flag\"" : "window_title: My App",
      }));
      ok = false;
      continue;
    }
    const parsed = parseTemplate(value.value);
    if (!parsed.ok) {
      problems.push(diagnostic(parsed.error.code, parsed.error.message, { span: spanOf(source, value), hint: parsed.error.hint }));
      ok = false;
      continue;
    }
    if (!allowCaptures && parsed.value.parts.some((p) => p.kind === "captured")) {
      problems.push(diagnostic("bad-reference", `\`${where}.${key}\` cannot use \${captured.…}: the program starts before any step has run`, {
        span: spanOf(source, value),
        hint: "use a `${VAR}` environment reference, or make this a surface of `apps:` that starts after the block that remembers the value",
      }));
      ok = false;
      continue;
    }
    values[key as (typeof APP_KEYS)[number]] = value.value;
  }
  for (const key of APP_KEYS) {
    if (values[key] === undefined && ok) {
      problems.push(diagnostic("missing-key", `\`${where}\` needs \`${key}\``, { span: spanOf(source, node), hint: APP_EXAMPLE }));
      ok = false;
    }
  }
  return ok && values.command !== undefined && values.window_title !== undefined ? { command: values.command, window_title: values.window_title } : undefined;
}

/**
 * `window:` for an app of `kind`: size (`width` and `height` together) and position (`x` and `y`
 * together, only with a size), literal integers. Only Windows apps take it here: a web flow sizes
 * its viewport with `browser:`, an api or agent flow has no window.
 */
export function loadWindowGeometry(source: YamlSource, keyNode: Node, node: Node | null, kind: string | undefined, problems: Diagnostic[], where = "window"): WindowGeometry | undefined {
  if (kind === "web") {
    problems.push(diagnostic("unsupported-feature", `\`${where}:\` sizes a desktop window; a web flow sizes its page with the browser's viewport`, {
      span: spanOf(source, keyNode), hint: "browser: {viewport: {width: 1280, height: 800}}",
    }));
    return undefined;
  }
  if (!isWindowsApp(kind)) {
    if (kind !== undefined) {
      problems.push(diagnostic("unsupported-feature", `\`${where}:\` sizes a desktop window; an \`app: ${kind}\` flow has none`, {
        span: spanOf(source, keyNode), hint: `remove \`${where}:\``,
      }));
    }
    return undefined;
  }
  if (!isMap(node)) {
    problems.push(diagnostic("bad-value", `\`${where}\` must be a mapping \`{width, height, x?, y?}\``, { span: spanOf(source, node ?? keyNode), hint: "window: {width: 800, height: 600, x: 0, y: 0}" }));
    return undefined;
  }
  const nums: Partial<Record<"width" | "height" | "x" | "y", number>> = {};
  let ok = true;
  for (const pair of node.items) {
    const key = keyName(pair);
    const value = pair.value as Node | null;
    if (key === "title") {
      problems.push(diagnostic("bad-value", `\`${where}.title\` is for vision apps; a Windows app's window is found by \`app.window_title\``, {
        span: spanOf(source, pair.key as Node),
        hint: "remove `title:` here and write `app: {command: …, window_title: \"My App\"}`",
      }));
      ok = false;
      continue;
    }
    if (!(WINDOW_KEYS as readonly string[]).includes(key)) {
      const guess = nearest(key, [...WINDOW_KEYS]);
      problems.push(diagnostic("unknown-key", `unknown key \`${key}\` in \`${where}\``, {
        span: spanOf(source, pair.key as Node),
        hint: guess ? `did you mean \`${guess}\`? \`${where}\` takes width, height, x, y` : `\`${where}\` takes width, height, x, y`,
      }));
      ok = false;
      continue;
    }
    const n = isScalar(value) ? value.value : undefined;
    const min = key === "width" || key === "height" ? 1 : -32768;
    if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > 32767) {
      problems.push(diagnostic("bad-value", `\`${where}.${key}\` must be a literal integer${min === 1 ? " of at least 1" : ""}`, {
        span: spanOf(source, value ?? (pair.key as Node)),
        hint: `${key}: ${key === "width" ? 800 : key === "height" ? 600 : 0}`,
      }));
      ok = false;
      continue;
    }
    nums[key as "width" | "height" | "x" | "y"] = n;
  }
  if (!ok) return undefined;
  const has = (k: "width" | "height" | "x" | "y") => nums[k] !== undefined;
  if (has("width") !== has("height")) {
    problems.push(diagnostic("bad-value", `\`${where}\` gives ${has("width") ? "`width` without `height`" : "`height` without `width`"}; a size needs both`, { span: spanOf(source, node), hint: "window: {width: 800, height: 600}" }));
    return undefined;
  }
  if (has("x") !== has("y")) {
    problems.push(diagnostic("bad-value", `\`${where}\` gives ${has("x") ? "`x` without `y`" : "`y` without `x`"}; a position needs both`, { span: spanOf(source, node), hint: "window: {width: 800, height: 600, x: 0, y: 0}" }));
    return undefined;
  }
  if (!has("width")) {
    problems.push(diagnostic("bad-value", `\`${where}\` ${has("x") ? "gives a position without a size" : "is empty"}; give the window's \`width\` and \`height\``, { span: spanOf(source, node), hint: "window: {width: 800, height: 600, x: 0, y: 0}" }));
    return undefined;
  }
  return { width: nums.width!, height: nums.height!, ...(has("x") ? { x: nums.x!, y: nums.y! } : {}) };
}

/** A flow's Windows app keys, as written. */
export interface DesktopKeys {
  /** `app: {command, window_title}` (app kind `windows`). */
  readonly desktop?: DesktopCommand;
  /** `window:` geometry. */
  readonly window?: WindowGeometry;
}

/**
 * The Windows app keys of a flow whose app is `kind`: the `app:` mapping, `window:`, no `url:`,
 * and (given the `platform` the flow would run on) the capability error on another OS.
 */
export function loadDesktopKeys(source: YamlSource, root: YAMLMap, values: ReadonlyMap<string, Node | null>, kind: string | undefined, platform: string | undefined, problems: Diagnostic[]): DesktopKeys {
  const keyOf = (key: string) => root.items.find((p) => keyName(p) === key)?.key as Node | undefined;
  const appNode = values.get("app") ?? undefined;
  const desktop = kind === "windows" && appNode ? loadDesktopCommand(source, appNode, problems, false) : undefined;
  if (isWindowsApp(kind) && platform !== undefined && platform !== "win32") problems.push(requiresWindows(source, appNode, kind, platform));
  const windowNode = values.get("window");
  const window = windowNode === undefined ? undefined : loadWindowGeometry(source, keyOf("window")!, windowNode, kind, problems);
  if (isWindowsApp(kind) && values.has("url")) {
    problems.push(diagnostic("unknown-key", "a Windows app has no start page: `url:` belongs to web flows", { span: spanOf(source, keyOf("url")), hint: "remove `url:`; the program is started from `app:`" }));
  }
  return { ...(desktop ? { desktop } : {}), ...(window ? { window } : {}) };
}

/** The load-time capability error of a Windows app on another OS. */
export function requiresWindows(source: YamlSource, node: Node | undefined, kind: WindowsAppKind, platform: string, where = "app"): Diagnostic {
  return diagnostic("unsupported-platform", `\`${where}: ${kind === "windows" ? "{command, window_title}" : kind}\` requires Windows; this machine runs ${platform}`, {
    span: spanOf(source, node),
    hint: "run this flow on a Windows machine (the flowproof executable for windows-x64), or drive a web or api surface here",
  });
}
