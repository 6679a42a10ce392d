import { describe, expect, test } from "bun:test";
import {
  describeEffect,
  EFFECT_MIN_BOUND_MS,
  hasEffect,
  judgeEffect,
  observesEffect,
  reportSent,
  signatureOf,
  stepsWithEffects,
  withEffect,
} from "./effects.ts";
import type { EffectKind, EffectWatch, ObservedEffect } from "../plugins/api.ts";
import { effectRequest, observingNothing } from "../plugins/api.ts";
import type { StepEffect, TraceStep } from "../trace/schema.ts";
import type { ExecutionContext } from "./context.ts";

const ALL: EffectKind[] = ["navigation", "request", "dialog", "download", "target", "focus", "dom"];
const rec = (e: Omit<StepEffect, "observes">, observes: EffectKind[] = ALL): StepEffect => ({ observes, ...e });
const INTENT = 'Press the "Place order" button';

describe("judgeEffect", () => {
  test("a missing write and navigation fail, naming both sides", () => {
    const j = judgeEffect(INTENT, rec({ requests: ["POST /api/orders"], navigated: "/orders/confirm" }), {}, ALL, false);
    expect(j.failure).toBe(`${INTENT}: at record it sent POST /api/orders and navigated to /orders/confirm; at replay it did neither`);
    expect(j.warning).toBeUndefined();
  });

  test("a write to another path is named as what replay did instead", () => {
    const j = judgeEffect(INTENT, rec({ requests: ["POST /api/subscribe"] }), { requests: ["POST /api/subscribe-v2"] }, ALL, false);
    expect(j.failure).toBe(`${INTENT}: at record it sent POST /api/subscribe; at replay it sent POST /api/subscribe-v2 instead`);
  });

  test("extras never fail; the same effect passes", () => {
    const recorded = rec({ requests: ["POST /api/orders"], navigated: "/orders/confirm", dom: "near", focus: true });
    const j = judgeEffect(
      INTENT,
      recorded,
      { requests: ["POST /api/analytics", "POST /api/orders"], navigated: "/orders/confirm", dom: "near", focus: true, dialog: "alert" },
      ALL,
      true,
    );
    expect(j).toEqual({});
  });

  test("DOM, focus and GET effects warn, and fail only under strict", () => {
    const recorded = rec({ dom: "near", requests: ["GET /api/items"] });
    const lenient = judgeEffect('Click "Load"', recorded, { dom: "page" }, ALL, false);
    expect(lenient.failure).toBeUndefined();
    expect(lenient.warning).toBe('Click "Load": at record it sent GET /api/items and changed the page near the target; at replay it did neither');
    const strict = judgeEffect('Click "Load"', recorded, { dom: "page" }, ALL, true);
    expect(strict.failure).toContain("at replay it changed the page instead");
  });

  test("a dialog, a download and a target change are hard effects", () => {
    expect(judgeEffect("x", rec({ dialog: "confirm" }), {}, ALL, false).failure).toBe("x: at record it opened a confirm dialog; at replay it did not");
    expect(judgeEffect("x", rec({ download: true }), {}, ALL, false).failure).toBe("x: at record it started a download; at replay it did not");
    expect(judgeEffect("x", rec({ target: ["checked"] }), { target: ["value"] }, ALL, false).failure).toBe(
      "x: at record it changed the target's checked state; at replay it changed the target's value state instead",
    );
  });

  test("kinds not observed at record or at replay are never judged", () => {
    expect(judgeEffect("x", rec({ navigated: "/a" }, ["request"]), {}, ALL, true)).toEqual({});
    expect(judgeEffect("x", rec({ navigated: "/a" }), {}, ["request", "dom"], true)).toEqual({});
  });
});

describe("signatureOf", () => {
  test("GETs are kept only when nothing else was sent and nothing navigated; secrets become references", () => {
    const secrets = new Map([["TOKEN", "hunter22"]]);
    expect(signatureOf({ requests: ["GET /api/items", "POST /u/hunter22"] }, secrets)).toEqual({ requests: ["POST /u/${TOKEN}"] });
    expect(signatureOf({ requests: ["GET /api/items"] }, secrets)).toEqual({ requests: ["GET /api/items"] });
    expect(signatureOf({ requests: ["GET /api/items"], navigated: "/next" }, secrets)).toEqual({ navigated: "/next" });
  });

  test("describeEffect and hasEffect", () => {
    expect(describeEffect({})).toBe("changed nothing");
    expect(hasEffect({})).toBe(false);
    expect(describeEffect({ target: ["checked"], focus: true })).toBe("changed the target's checked state and moved focus");
  });
});

const clickStep = (effect?: StepEffect): TraceStep => ({
  id: "s0001",
  intent: INTENT,
  action: { type: "click", params: {} },
  selectors: [{ tier: "text_anchor", provenance: "rules", payload: { text: "Place order" } }],
  sync: { pre: [{ kind: "element_exists", selector_ref: 0, timeout_ms: 50 }], post: [] },
  artifacts: {},
  ...(effect ? { effect } : {}),
});

/** A watch answering a fixed effect: the engine's side of the contract, no page involved. */
function fixedWatch(effect: ObservedEffect): EffectWatch {
  return { kinds: ALL, read: async () => ({ effect, idleMs: 1_000 }), stop: async () => undefined };
}

function context(mode: "record" | "replay", effect: ObservedEffect, policy: "on" | "strict" | "off" = "on"): ExecutionContext {
  return {
    driver: { observeEffect: async () => fixedWatch(effect) } as unknown as ExecutionContext["driver"],
    env: {},
    captures: new Map(),
    secrets: new Map(),
    baseUrl: "http://x/",
    navigationTimeoutMs: 1_000,
    clock: { now: () => performance.now(), sleep: (ms) => Bun.sleep(ms) },
    effects: { mode, policy },
  };
}

describe("withEffect", () => {
  const passed = async () => ({ status: "passed" as const });

  test("record reports the signature; stepsWithEffects writes it with the kinds observed", async () => {
    const step = clickStep();
    const r = await withEffect(step, context("record", { requests: ["POST /api/orders"] }), passed);
    expect(r.effect?.report).toEqual({ check: "on", observes: ALL, seen: { requests: ["POST /api/orders"] } });
    const [written] = stepsWithEffects([step], new Map([["s0001", r.effect!.report]]));
    expect(written!.effect).toEqual({ observes: ALL, requests: ["POST /api/orders"] });
  });

  test("replay fails a missing effect and passes it when it happens again", async () => {
    const step = clickStep(rec({ requests: ["POST /api/orders"] }));
    expect((await withEffect(step, context("replay", {}), passed)).effect?.failure).toContain("at replay it did not");
    const ok = await withEffect(step, context("replay", { requests: ["POST /api/orders"] }), passed);
    expect(ok.effect?.failure).toBeUndefined();
    expect(ok.effect?.report.check).toBe("on");
  });

  test("off, a step's off, an empty recorded effect and a trace without effects are not judged", () => {
    expect(observesEffect(clickStep(rec({ requests: ["POST /a"] })), { mode: "replay", policy: "off" })).toBe(false);
    expect(observesEffect(clickStep({ observes: [], off: true }), { mode: "record", policy: "on" })).toBe(false);
    expect(observesEffect(clickStep(rec({})), { mode: "replay", policy: "on" })).toBe(false);
    expect(observesEffect(clickStep(), { mode: "replay", policy: "on" })).toBe(false);
    expect(observesEffect(clickStep(), { mode: "record", policy: "on" })).toBe(true);
  });
});

const apiStep = (effect?: StepEffect): TraceStep => ({
  id: "s0001",
  intent: "assert_api",
  action: { type: "assert", params: { kind: "structured", key: "assert_api", args: { request: "POST ${API}/orders/${captured.action}" } } },
  selectors: [],
  sync: { pre: [], post: [] },
  artifacts: {},
  ...(effect ? { effect } : {}),
});

/** A surface's watch that takes the requests its steps report (as the api surface's does). */
function sentWatch(stopped: string[] = []): EffectWatch {
  const requests: string[] = [];
  return {
    kinds: ["request"],
    sent: (m, u) => void requests.push(effectRequest(m, u)),
    read: async () => ({ effect: requests.length > 0 ? { requests: [...requests] } : {}, idleMs: Number.POSITIVE_INFINITY, final: true }),
    stop: async () => void stopped.push("stopped"),
  };
}

function surface(mode: "record" | "replay", watch: () => EffectWatch | undefined, secrets = new Map<string, string>()): ExecutionContext {
  return { ...context(mode, {}), secrets, driver: { observeEffect: async () => watch() } as unknown as ExecutionContext["driver"] };
}

describe("structured steps: a surface that observes its own requests", () => {
  const sends =
    (url: string, method = "POST") =>
    async () => {
      reportSent(method, url);
      return { status: "passed" as const };
    };

  test("record writes the write the step reported, as method and normalised path, with the surface's kinds", async () => {
    const step = apiStep();
    const r = await withEffect(
      step,
      surface("record", () => sentWatch()),
      sends("http://127.0.0.1:9/api/orders/approve?card=zq-canary-7731"),
    );
    expect(r.effect?.report).toEqual({ check: "on", observes: ["request"], seen: { requests: ["POST /api/orders/approve"] } });
    expect(stepsWithEffects([step], new Map([["s0001", r.effect!.report]]))[0]!.effect).toEqual({
      observes: ["request"],
      requests: ["POST /api/orders/approve"],
    });
    expect(JSON.stringify(r)).not.toContain("canary");
  });

  test("a ${VAR} value in the path is written as its reference", async () => {
    const r = await withEffect(
      apiStep(),
      surface("record", () => sentWatch(), new Map([["TENANT", "acme-tenant"]])),
      sends("http://127.0.0.1:9/t/acme-tenant/orders"),
    );
    expect(r.effect?.report.seen).toEqual({ requests: ["POST /t/${TENANT}/orders"] });
  });

  test("replay fails a write to another path at once, naming both sides; the same write passes; an extra one too", async () => {
    const step = apiStep(rec({ requests: ["POST /api/orders/approve"] }, ["request"]));
    const started = performance.now();
    const r = await withEffect(
      step,
      surface("replay", () => sentWatch()),
      sends("http://127.0.0.1:9/api/orders/archive"),
    );
    expect(r.effect?.failure).toBe("assert_api: at record it sent POST /api/orders/approve; at replay it sent POST /api/orders/archive instead");
    expect(performance.now() - started).toBeLessThan(EFFECT_MIN_BOUND_MS);
    expect(
      (
        await withEffect(
          step,
          surface("replay", () => sentWatch()),
          sends("http://127.0.0.1:9/api/orders/approve"),
        )
      ).effect?.failure,
    ).toBeUndefined();
    const extra = async () => {
      reportSent("POST", "http://127.0.0.1:9/api/audit");
      reportSent("POST", "http://127.0.0.1:9/api/orders/approve");
      return { status: "passed" as const };
    };
    expect(
      (
        await withEffect(
          step,
          surface("replay", () => sentWatch()),
          extra,
        )
      ).effect?.failure,
    ).toBeUndefined();
    const none = await withEffect(
      step,
      surface("replay", () => sentWatch()),
      async () => ({ status: "passed" as const }),
    );
    expect(none.effect?.failure).toBe("assert_api: at record it sent POST /api/orders/approve; at replay it did not");
  });

  test("a failing step is not judged: its own failure says more", async () => {
    const step = apiStep(rec({ requests: ["POST /api/orders/approve"] }, ["request"]));
    const r = await withEffect(
      step,
      surface("replay", () => sentWatch()),
      async () => ({ status: "failed" as const }),
    );
    expect(r.effect).toBeUndefined();
  });

  test("a surface whose watch takes no reports (a web page) does not observe structured steps", async () => {
    const stopped: string[] = [];
    const page: EffectWatch = { ...fixedWatch({ dom: "page" }), stop: async () => void stopped.push("stopped") };
    const r = await withEffect(
      apiStep(),
      surface("record", () => page),
      sends("http://127.0.0.1:9/api/orders"),
    );
    expect(r.effect).toBeUndefined();
    expect(stopped).toEqual(["stopped"]);
  });

  test("a request reported outside any observed step goes nowhere: the next step's watch never sees it", async () => {
    reportSent("POST", "http://127.0.0.1:9/api/stray");
    const r = await withEffect(
      apiStep(),
      surface("record", () => sentWatch()),
      sends("http://127.0.0.1:9/api/orders"),
    );
    expect(r.effect?.report.seen).toEqual({ requests: ["POST /api/orders"] });
    // And one reported after the step ended reaches no watch either.
    const watch = sentWatch();
    await withEffect(
      apiStep(),
      surface("record", () => watch),
      async () => ({ status: "passed" as const }),
    );
    reportSent("POST", "http://127.0.0.1:9/api/late");
    expect((await watch.read()).effect).toEqual({});
  });
});

describe("a surface observing nothing (the desktop adapters)", () => {
  test("records observes: [] and is never judged, whatever its trace claims", async () => {
    const step = clickStep();
    const r = await withEffect(step, surface("record", observingNothing), async () => ({ status: "passed" as const }));
    expect(r.effect?.report).toEqual({ check: "unjudged", observes: [], seen: {} });
    expect(stepsWithEffects([step], new Map([["s0001", r.effect!.report]]))[0]!.effect).toEqual({ observes: [] });
    expect(observesEffect(clickStep({ observes: [] }), { mode: "replay", policy: "strict" })).toBe(false);
    // Even a trace claiming every kind is judged only on the kinds the surface observes now: none.
    const claimed = clickStep(rec({ requests: ["POST /api/orders"], navigated: "/done", target: ["value"], dom: "near" }));
    const started = performance.now();
    const replayed = await withEffect(claimed, { ...surface("replay", observingNothing), effects: { mode: "replay", policy: "strict" } }, async () => ({
      status: "passed" as const,
    }));
    expect(replayed.effect?.failure).toBeUndefined();
    expect(replayed.effect?.report.warning).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(EFFECT_MIN_BOUND_MS);
  });

  test("its replay report says the surface observes nothing, so the report can say so", async () => {
    const replayed = await withEffect(clickStep({ observes: [] }), surface("replay", observingNothing), async () => ({ status: "passed" as const }));
    expect(replayed.effect?.report).toEqual({ check: "unjudged", observes: [], recorded: {} });
  });
});
