// A real web driver on a fixture page plus an execution context, for handler and loop tests.
import { at } from "./surfaces.ts";
import type { AdapterSession, AppDriver } from "../../src/plugins/api.ts";
import type { ExecutionContext } from "../../src/engine/context.ts";
import { systemClock } from "../../src/engine/context.ts";
import type { Selector, TraceStep } from "../../src/trace/schema.ts";
import { compileStep } from "../../src/engine/compile.ts";
import { stepId } from "../../src/engine/plan.ts";
import { parseAssertion, parseStep } from "../../src/grammar/index.ts";
import { plugin } from "../../plugins/web/index.ts";
import { startServer, type TestServer } from "./server.ts";
import { requireChromium } from "./chromium.ts";

export interface EngineHarness {
  readonly server: TestServer;
  readonly driver: AppDriver;
  /** A fresh context on `page` (navigated), with the given env and captures. */
  context(page: string, env?: Record<string, string>): Promise<ExecutionContext>;
  close(): Promise<void>;
}

export async function engineHarness(): Promise<EngineHarness> {
  requireChromium();
  const server = await startServer();
  const session: AdapterSession = await plugin.open();
  const driver = await session.launch({}, { baseDir: process.cwd(), log: () => undefined });
  return {
    server,
    driver,
    async context(page, env = {}) {
      const url = `${server.url}/${page}`;
      const r = await driver.navigate(url, 10_000);
      if (!r.ok) throw new Error(r.detail);
      return { driver, env, captures: new Map(), clock: systemClock, baseUrl: url, secrets: new Map(), navigationTimeoutMs: 10_000 };
    },
    async close() {
      await driver.close();
      await session.close();
      server.stop();
    },
  };
}

/** Compiles one rules step (or `assert: …` text) into a trace step, as record does. */
export function traceStep(text: string, options: { assert?: boolean; stepTimeoutMs?: number } = {}): TraceStep {
  const parsed = options.assert
    ? (() => {
        const a = parseAssertion(text, at("web"));
        return a.ok ? ({ ok: true, value: { kind: "assert", assertion: a.value } } as const) : a;
      })()
    : parseStep(text, at("web"));
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.message}`);
  const compiled = compileStep(text, parsed.value, { stepTimeoutMs: options.stepTimeoutMs ?? 2_000 });
  if (!compiled.ok) throw new Error(`${text}: ${compiled.reason}`);
  return { id: stepId(1), ...compiled.steps[0]! };
}

/** One-rung ladders for direct driver calls in tests. */
export const byId = (id: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id } }];
export const byText = (text: string): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text } }];
