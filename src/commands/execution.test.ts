import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FlowproofError, SpecError } from "../diagnostics/diagnostic.ts";
import { defineAdapter, keyRole, Type } from "../plugins/api.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { loadFlowText } from "../../test/support/surfaces.ts";
import type { TraceHeader } from "../trace/schema.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { flowLoadOptions, viewOf } from "./flow-load.ts";
import { releaseSurface } from "./surface.ts";
import { navigationTimeoutFromEnv, openExecution, stepTimeoutFromEnv, targetOfFlow, targetOfTrace, watchedStart } from "./execution.ts";
import { createRunContext } from "./project-plugins.ts";
import { NO_PLUGINS } from "../plugins/loader.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";

/** The run context these executions open through: the built-in adapters, a lifecycle of the test's own. */
const context = createRunContext(NO_PLUGINS, new Lifecycle());

/** The SpecError a call throws. */
function specError(run: () => unknown): SpecError {
  try {
    run();
  } catch (error) {
    if (error instanceof SpecError) return error;
    throw error;
  }
  throw new Error("expected a SpecError");
}

describe("stepTimeoutFromEnv", () => {
  test.each<[Record<string, string | undefined>, number]>([
    [{}, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "" }, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: undefined }, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "250" }, 250],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "120000" }, 120_000],
  ])("reads %j as %d ms", (env, ms) => {
    expect(stepTimeoutFromEnv(env)).toBe(ms);
  });

  test("defaults to 5 s", () => {
    expect(DEFAULT_STEP_TIMEOUT_MS).toBe(5_000);
  });

  test.each(["abc", "0", "-5", "1.5", "5s"])("refuses %p as bad-value with an example", (raw) => {
    const e = specError(() => stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: raw }));
    expect(e.code).toBe("bad-value");
    expect(e.message).toBe(`FLOWPROOF_STEP_TIMEOUT_MS must be a positive whole number of milliseconds, not ${JSON.stringify(raw)}`);
    expect(e.diagnostics[0]!.hint).toBe("FLOWPROOF_STEP_TIMEOUT_MS=5000");
  });

  test("refuses a bound longer than a day, which a timer could not hold", () => {
    expect(stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: "86400000" })).toBe(86_400_000);
    const e = specError(() => stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: "2200000000" }));
    expect(e.message).toBe("FLOWPROOF_STEP_TIMEOUT_MS=2200000000 is longer than the longest bound flowproof can wait, 86400000 ms (24 h)");
  });
});

describe("stepTimeoutFromEnv refusals", () => {
  test.each(["1e3", " 250 ", "0x10"])("refuses FLOWPROOF_STEP_TIMEOUT_MS=%p", (raw) => {
    expect(() => stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: raw })).toThrow(SpecError);
  });
});

describe("an execution's target: what record writes is what replay opens from", () => {
  const load = (yaml: string) => {
    const r = loadFlowText("t.flow.yaml", yaml, flowLoadOptions(viewOf(), true));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("; "));
    return { ...r.flow, file: "/tmp/t.flow.yaml" };
  };

  test("a web flow: the start URL and the browser shaping as written, read back unchanged from the header", () => {
    const flow = load(
      `name: t\napp: web\nurl: "\${BASE}/greeter.html"\nsession:\n  cookies:\n    - { name: sid, value: "\${SID}", domain: 127.0.0.1 }\nsteps:\n  - Press the "Greet" button\n`,
    );
    const target = targetOfFlow(flow);
    expect(target.app).toEqual({ name: "web", adapter: "web", url: "${BASE}/greeter.html" });
    expect(target.top).toEqual({ session: { cookies: [{ name: "sid", value: "${SID}", domain: "127.0.0.1" }] } });
    expect(target.apps).toBeUndefined();
    const header = { app: { ...target.app, version: "1" }, ...target.top, trace_id: "x", redaction: [] } as unknown as TraceHeader;
    expect(targetOfTrace(header)).toEqual({ app: { ...target.app, version: "1" }, top: target.top });
  });

  test("a multi-surface flow: its surfaces are the header's apps, read back only for a multi app", () => {
    const flow = load(
      `name: t\napps:\n  shop: { app: web, url: "\${SHOP}/counter.html" }\n  admin: { app: web, url: "\${ADMIN}/greeter.html" }\nsteps:\n  - in: shop\n    steps:\n      - Press the "Add" button\n`,
    );
    const target = targetOfFlow(flow);
    expect(target.app).toEqual({ name: "multi", adapter: "multi" });
    expect(target.apps).toEqual({
      shop: { name: "shop", adapter: "web", url: "${SHOP}/counter.html" },
      admin: { name: "admin", adapter: "web", url: "${ADMIN}/greeter.html" },
    });
    expect(targetOfTrace({ app: target.app, apps: target.apps } as unknown as TraceHeader)).toEqual({ app: target.app, apps: target.apps!, top: {} });
    // A single-app header's stray apps map is not a surface set.
    expect(targetOfTrace({ app: { name: "web", adapter: "web" }, apps: target.apps } as unknown as TraceHeader).apps).toBeUndefined();
  });
});

describe("openExecution through real Chromium", () => {
  let server: TestServer;
  beforeAll(async () => {
    requireChromium();
    server = await startServer();
  });
  afterAll(() => server.stop());

  test("opens the start page, resolving its ${VAR} into the secrets, and runs steps relative to it", async () => {
    const secrets = new Map<string, string>();
    const flow = { file: "/tmp/t.flow.yaml" };
    const execution = await openExecution({
      flow,
      target: { app: { name: "web", adapter: "web", url: "${BASE}/greeter.html" }, top: {} },
      env: { BASE: server.url },
      secrets,
      log: () => undefined,
      context,
      headed: false,
    });
    try {
      expect(execution.startUrl).toBe(`${server.url}/greeter.html`);
      expect([...secrets.values()]).toContain(server.url);
      expect((await execution.start(undefined)).ok).toBe(true);
      expect((await execution.surface.driver.check([], { kind: "title", op: "equals", value: "Greeter" })).pass).toBe(true);
      const { ctx, structured } = execution.begin({
        mode: "replay",
        artifactDir: "/tmp/none",
        controls: { recordingDetail: "off" },
        redaction: [],
        steps: [],
        effects: "strict",
      });
      expect(ctx.baseUrl).toBe(`${server.url}/greeter.html`);
      expect(ctx.effects).toEqual({ mode: "replay", policy: "strict" });
      expect(ctx.secrets).toBe(secrets);
      expect(structured.mode).toBe("replay");
      expect(structured.flowStem).toBe("t");
    } finally {
      await releaseSurface(execution.surface, undefined);
    }
  });

  test("a multi-surface execution opens each surface at its first activation and follows the active one's start URL", async () => {
    const secrets = new Map<string, string>();
    const apps = { shop: { name: "shop", adapter: "web", url: "${BASE}/counter.html" }, admin: { name: "admin", adapter: "web", url: "${BASE}/greeter.html" } };
    const execution = await openExecution({
      flow: { file: "/tmp/t.flow.yaml" },
      target: { app: { name: "multi", adapter: "multi" }, apps, top: {} },
      env: { BASE: server.url },
      secrets,
      log: () => undefined,
      context,
      headed: false,
    });
    try {
      expect(await execution.start("shop")).toEqual({ ok: true });
      expect(execution.baseUrl).toBe(`${server.url}/counter.html`);
      expect((await execution.surface.driver.check([], { kind: "title", op: "equals", value: "Counter" })).pass).toBe(true);
      await execution.activate("admin");
      expect(execution.baseUrl).toBe(`${server.url}/greeter.html`);
      expect((await execution.surface.driver.check([], { kind: "title", op: "equals", value: "Greeter" })).pass).toBe(true);
      // A step with no surface leaves the active one in front.
      await execution.activate(undefined);
      expect(execution.baseUrl).toBe(`${server.url}/greeter.html`);
      expect(await execution.start(undefined)).toEqual({ ok: false, detail: "the flow has no step" });
    } finally {
      await releaseSurface(execution.surface, undefined);
    }
  });
});

describe("openExecution's launch errors", () => {
  // An adapter that cannot start its program quotes the command it was given and the program's
  // stderr, as the Windows adapter does.
  const failing = defineAdapter({
    kind: "probe-desktop",
    capabilities: [],
    // Its program is recorded as written and resolved at launch, as the Windows adapter's is.
    keys: {
      schema: Type.Object({
        command: Type.Optional(Type.String(keyRole({ references: "env", recorded: true }))),
        window_title: Type.Optional(Type.String(keyRole({ recorded: true }))),
      }),
    },
    open: async () => ({
      launch: async (config) => {
        throw new FlowproofError({
          code: "app-launch",
          message: `\`${String(config["command"])}\` exited with code 3; its stderr: token tok-4711-canary refused`,
          hint: `run ${String(config["command"])} by hand`,
        });
      },
      close: async () => undefined,
    }),
  });

  test("leave with every resolved value redacted: the command reads as written and the echoed stderr is redacted", async () => {
    const secrets = new Map<string, string>();
    const app = { name: "probe-desktop", adapter: "probe-desktop", command: "C:\\nope\\missing.exe --token ${SECRET_TOKEN}", window_title: "Nope" };
    const error = await openExecution({
      flow: { file: "/tmp/t.flow.yaml" },
      target: { app, top: {} },
      env: { SECRET_TOKEN: "tok-4711-canary" },
      secrets,
      log: () => undefined,
      context: createRunContext({ adapters: [failing], assertions: [], files: [] }, new Lifecycle()),
      headed: false,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FlowproofError);
    const e = error as FlowproofError;
    expect(e.code).toBe("app-launch");
    expect(e.message).toBe("`C:\\nope\\missing.exe --token ${SECRET_TOKEN}` exited with code 3; its stderr: token ${SECRET_TOKEN} refused");
    expect(JSON.stringify(e.diagnostics)).not.toContain("canary");
  });

  test("of a multi-surface flow's program leave redacted too", async () => {
    const secrets = new Map<string, string>();
    // The surface's start URL holds the secret; the adapter's error quotes it.
    const apps = { gui: { name: "gui", adapter: "probe-desktop", url: "http://127.0.0.1:9/${SECRET_TOKEN}" } };
    const execution = await openExecution({
      flow: { file: "/tmp/t.flow.yaml" },
      target: { app: { name: "multi", adapter: "multi" }, apps, top: {} },
      env: { SECRET_TOKEN: "tok-4711-canary" },
      secrets,
      log: () => undefined,
      context: createRunContext({ adapters: [failing], assertions: [], files: [] }, new Lifecycle()),
      headed: false,
    });
    try {
      const started = await execution
        .start("gui")
        .catch((error: unknown) => ({ ok: false as const, detail: error instanceof Error ? error.message : String(error) }));
      expect(started.ok).toBe(false);
      expect(JSON.stringify(started)).toContain("${SECRET_TOKEN}");
      expect(JSON.stringify(started)).not.toContain("canary");
    } finally {
      await releaseSurface(execution.surface, undefined);
    }
  });
});

describe("a start page that is slow to load", () => {
  test("FLOWPROOF_NAVIGATION_TIMEOUT_MS sets the navigation bound (default 30000); a malformed value names the variable", () => {
    expect(navigationTimeoutFromEnv({})).toBe(30_000);
    expect(navigationTimeoutFromEnv({ FLOWPROOF_NAVIGATION_TIMEOUT_MS: "2500" })).toBe(2_500);
    expect(() => navigationTimeoutFromEnv({ FLOWPROOF_NAVIGATION_TIMEOUT_MS: "5s" })).toThrow(
      'FLOWPROOF_NAVIGATION_TIMEOUT_MS must be a positive whole number of milliseconds, not "5s"',
    );
  });

  test("after a few seconds the URL waited for is named (its secrets shown by name); a stop request ends the wait at once", async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const never = new Promise<{ ok: true }>(() => undefined);
    const waiting = watchedStart(never, {
      url: "http://127.0.0.1:9/?token=hunter22",
      boundMs: 30_000,
      log: (l) => lines.push(l),
      secrets: new Map([["TOKEN", "hunter22"]]),
      stop: stop.signal,
    });
    const until = Date.now() + 20_000;
    while (lines.length === 0 && Date.now() < until) await Bun.sleep(50);
    expect(lines[0]).toMatch(
      /^waiting for http:\/\/127\.0\.0\.1:9\/\?token=\$\{TOKEN\} to load \(\d+ s so far; the bound is 30000 ms, FLOWPROOF_NAVIGATION_TIMEOUT_MS\)$/,
    );
    stop.abort({ reason: "SIGTERM", signal: "SIGTERM" });
    expect(await waiting).toEqual({ ok: false, detail: "the run was stopped (SIGTERM) while http://127.0.0.1:9/?token=${TOKEN} was loading" });
  }, 30_000);
});
