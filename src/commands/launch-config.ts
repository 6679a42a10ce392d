// A flow's browser shaping (`mock:`, `session:`, `browser:`) on its way to the adapter: copied as
// written into the trace header at record, and turned into the adapter's launch config from the
// header alone (record and replay alike), resolving `${VAR}`s only then. Never prints.
import { isAbsolute, resolve, dirname } from "node:path";
import type { Flow } from "../spec/flow.ts";
import type { AppInfo, TraceHeader } from "../trace/schema.ts";
import { resolveText } from "../engine/templates.ts";

/** The header fields that shape the browser. */
export type Shaping = Pick<TraceHeader, "mock" | "session" | "browser">;

/** What record copies into the trace header: the flow's blocks as written (never resolved). */
export function shapingOf(flow: Flow): Shaping {
  const session = flow.session
    ? {
      ...(flow.session.cookies ? { cookies: flow.session.cookies.map((c) => ({ ...c })) } : {}),
      ...(flow.session.local_storage ? { local_storage: { ...flow.session.local_storage } } : {}),
    }
    : undefined;
  return {
    ...(flow.mock && flow.mock.length > 0 ? { mock: flow.mock.map((m) => ({ ...m })) } : {}),
    ...(session ? { session } : {}),
    ...(flow.browser && Object.keys(flow.browser).length > 0 ? { browser: structuredClone(flow.browser) as NonNullable<TraceHeader["browser"]> } : {}),
  };
}

/**
 * The adapter's launch config for this shaping: session values and the endpoint resolved now
 * (each resolved value joins `secrets`, so every message redacts it), `downloads_dir` made
 * absolute against the flow file. The result is handed to the adapter and never persisted.
 */
export function launchConfig(shaping: Shaping, flowPath: string, env: Readonly<Record<string, string | undefined>>, secrets: Map<string, string>): Record<string, unknown> {
  const ctx = { env, captures: new Map<string, string>(), secrets };
  const config: Record<string, unknown> = {};
  const browser = shaping.browser;
  if (browser) {
    const { downloads_dir: dir, endpoint, ...rest } = browser;
    Object.assign(config, structuredClone(rest));
    if (dir !== undefined) config["downloads_dir"] = isAbsolute(dir) ? dir : resolve(dirname(flowPath), dir);
    if (endpoint !== undefined) config["endpoint"] = resolveText(endpoint, ctx).value;
  }
  if (shaping.mock && shaping.mock.length > 0) config["mock"] = structuredClone(shaping.mock);
  const session = shaping.session;
  if (session) {
    config["session"] = {
      ...(session.cookies ? { cookies: session.cookies.map((c) => ({ ...c, value: resolveText(c.value, ctx).value })) } : {}),
      ...(session.local_storage
        ? { local_storage: Object.fromEntries(Object.entries(session.local_storage).map(([k, v]) => [k, resolveText(v, ctx).value])) }
        : {}),
    };
  }
  return config;
}

/** A Windows app's header facts as written in the flow: command and window title raw, `window:` as the geometry to apply. */
export function desktopAppInfo(flow: Pick<Flow, "desktop" | "window">): Pick<AppInfo, "command" | "window_title" | "geometry"> {
  return {
    ...(flow.desktop ? { command: flow.desktop.command, window_title: flow.desktop.window_title } : {}),
    ...(flow.window ? { geometry: { ...flow.window } } : {}),
  };
}

/**
 * A Windows app's launch config from its header facts: `${VAR}`s in the command and window title
 * resolved now (each value joining `secrets`), the geometry and backend as recorded.
 */
export function desktopConfig(app: Pick<AppInfo, "command" | "window_title" | "geometry" | "backend">, env: Readonly<Record<string, string | undefined>>, secrets: Map<string, string>): Record<string, unknown> {
  const ctx = { env, captures: new Map<string, string>(), secrets };
  return {
    ...(app.command !== undefined ? { command: resolveText(app.command, ctx).value } : {}),
    ...(app.window_title !== undefined ? { window_title: resolveText(app.window_title, ctx).value } : {}),
    ...(app.geometry ? { window: { ...app.geometry } } : {}),
    ...(app.backend !== undefined ? { backend: app.backend } : {}),
  };
}
