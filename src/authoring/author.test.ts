import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, type EngineHarness } from "../../test/support/engine.ts";
import type { AppDriver } from "../plugins/api.ts";
import type { ExecutionContext } from "../engine/context.ts";
import type { FlowStep } from "../spec/flow.ts";
import { createAuthoring, stableScene } from "./author.ts";
import { executeSteps } from "../engine/loop.ts";
import { stepId } from "../engine/plan.ts";
import type { ChatMessage, ModelClient } from "./provider.ts";

let harness: EngineHarness;
let driver: AppDriver;
let ctx: ExecutionContext;

beforeAll(async () => {
  harness = await engineHarness();
  driver = harness.driver;
});
afterAll(async () => {
  await harness.close();
});

/** A recorded model client: canned replies in order, every conversation kept. */
function recordedClient(replies: string[]): ModelClient & { calls: ChatMessage[][] } {
  const calls: ChatMessage[][] = [];
  return {
    backend: "openai-compatible",
    model: "recorded",
    calls,
    complete: async (_system, messages) => {
      calls.push([...messages]);
      return replies.shift() ?? "[]";
    },
  };
}

const step = (text: string): FlowStep => ({
  index: 0,
  form: "plain",
  text,
  span: { file: "f", line: 1, column: 1, length: 1, lineText: text },
  ast: { kind: "intent", text },
});

async function fresh(secrets = new Map<string, string>()): Promise<void> {
  ctx = { ...(await harness.context("vehicle.html")), secrets };
}

describe("stableScene (web scene inventory)", () => {
  test("lists interactive elements first with labels, required state and a dropdown's exact options", async () => {
    await fresh();
    const scene = await stableScene(ctx);
    expect(scene.loaded).toBe(true);
    expect(scene.entries.slice(0, 5).map((e) => e.target)).toEqual(["css:#make", "css:#model", "css:#year", "css:#pin", "css:#next"]);
    expect(scene.entries[0]).toMatchObject({ tag: "input", actionable: true, label: "Make", required: true });
    expect(scene.entries[1]!.options).toEqual(["Choose…", "Sedan", "Coupe", "Van"]);
    expect(scene.entries.find((e) => e.target === "css:body > h1")).toMatchObject({ actionable: false, text: "Vehicle data" });
  });
  test("never reports a password field's value", async () => {
    await fresh();
    expect((await driver.fill([{ tier: "native_id", provenance: "test", payload: { css: "#pin" } }], "hunter22")).ok).toBe(true);
    const scene = await stableScene(ctx);
    expect(JSON.stringify(scene)).not.toContain("hunter22");
    expect(scene.entries.find((e) => e.target === "css:#pin")!.value).toBeUndefined();
  });
});

describe("stableScene of a driver without a scene", () => {
  test("is an unsupported step with the rules grammar as the way out", async () => {
    await fresh();
    // The live driver, but one that lists no scene (as a driver without the capability).
    const driver: AppDriver = Object.create(ctx.driver, { scene: { value: undefined } });
    const sceneless: ExecutionContext = { ...ctx, driver };
    await expect(stableScene(sceneless)).rejects.toMatchObject({
      code: "unsupported-step",
      diagnostics: [{ hint: "record with --author rules, or write the step as a `rules:` step" }],
    });
  });
});

describe("scene tokens of frames and tables", () => {
  test("same-origin frame elements are framed: tokens that ground to working framed targets", async () => {
    ctx = await harness.context("frames.html");
    const scene = await stableScene(ctx);
    expect(scene.entries.find((e) => e.target === 'framed:"checkout" > css:#holder')).toMatchObject({ actionable: true, label: "Card holder" });
    const client = recordedClient([JSON.stringify([{ action: "type_text", target: 'framed:"checkout" > css:#holder', text: "Ada" }])]);
    const authoring = createAuthoring({ client, ctx, flowName: "F", app: "web", stepTimeoutMs: 2000, completed: () => [], nextStepNumber: () => 1 });
    const r = await authoring.author(step("Enter Ada as the card holder"), 0);
    if (!r.ok) throw new Error(r.error);
    expect(r.steps[0]!.selectors[0]!.payload).toEqual({ kind: "framed", frame_text: "checkout", inner_css: "#holder" });
    const ran = await executeSteps(
      r.steps.map((s, i) => ({ id: stepId(i + 1), ...s })),
      ctx,
    );
    expect(ran.map((x) => x.status)).toEqual(["passed"]);
  });
  test("a control lists the page's own rule for it and whether the page marks it invalid", async () => {
    ctx = await harness.context("constraints.html");
    const scene = await stableScene(ctx);
    expect(scene.entries.find((e) => e.target === "css:#age")).toMatchObject({ rule: "Enter an age between 18 and 99", invalid: true, value: "12" });
    expect(scene.entries.find((e) => e.target === "css:#mail")).toMatchObject({ invalid: true });
  });
  test("a number outside the page's stated range is challenged once; repeating it is accepted", async () => {
    ctx = await harness.context("constraints.html");
    const typeTwelve = JSON.stringify([{ action: "type_text", target: "css:#age", text: "12" }]);
    const client = recordedClient([typeTwelve, typeTwelve]);
    const authoring = createAuthoring({ client, ctx, flowName: "F", app: "web", stepTimeoutMs: 2000, completed: () => [], nextStepNumber: () => 1 });
    const r = await authoring.author(step("Enter 12 as the age"), 0);
    expect(r.ok).toBe(true);
    expect(authoring.requests()).toBe(2);
    expect(client.calls[1]!.at(-1)!.content).toContain('Action 1 types "12" into "css:#age", but the page says: "Enter an age between 18 and 99"');
  });
  test("a table is offered as a row collection with its count", async () => {
    ctx = await harness.context("grid.html");
    const scene = await stableScene(ctx);
    const rows = scene.entries.find((e) => e.tag === "tr" && e.count !== undefined);
    expect(rows?.target).toMatch(/^css:.* tr$/);
    expect(rows!.count).toBeGreaterThan(1);
  });
});

describe("createAuthoring", () => {
  test("asks once, grounds the whole sequence and keeps secrets out of the prompt", async () => {
    await fresh(new Map([["OWNER", "Volvo-Owner-Secret"]]));
    const client = recordedClient([
      JSON.stringify([
        { action: "type_text", target: "css:#year", text: "2020" },
        { action: "click", target: "css:#next" },
      ]),
    ]);
    await driver.fill([{ tier: "native_id", provenance: "test", payload: { css: "#make" } }], "Volvo-Owner-Secret");
    const authoring = createAuthoring({
      client,
      ctx,
      flowName: "F",
      app: "web",
      stepTimeoutMs: 1000,
      completed: () => [],
      nextStepNumber: () => 1,
      today: "2026-01-01",
    });
    const r = await authoring.author(step("Fill in the make and go on"), 0);
    expect(r.ok && r.steps.map((s) => s.action.type)).toEqual(["type_text", "click"]);
    expect(authoring.requests()).toBe(1);
    expect(JSON.stringify(client.calls)).not.toContain("Volvo-Owner-Secret");
    expect(JSON.stringify(client.calls)).toContain("${OWNER}");
  });
  test("an ambiguous pronoun stops before any request, with the candidates", async () => {
    await fresh();
    ctx.captures.set("order_id", "1");
    ctx.captures.set("customer_id", "2");
    const client = recordedClient([]);
    const authoring = createAuthoring({ client, ctx, flowName: "F", app: "web", stepTimeoutMs: 1000, completed: () => ["a", "b"], nextStepNumber: () => 3 });
    const r = await authoring.author(step('Enter it in the "Confirmation" field'), 0);
    expect(r.ok).toBe(false);
    expect(authoring.requests()).toBe(0);
    expect(authoring.clarification()).toMatchObject({
      step_index: 3,
      capture_reference: "it",
      capture_candidates: ["order_id", "customer_id"],
      completed_steps: ["a", "b"],
    });
  });
  test("a continuing step is asked again with what was performed", async () => {
    await fresh();
    const client = recordedClient([JSON.stringify([{ action: "click", target: "css:#next" }, { action: "step_continues" }]), '[{"action":"step_complete"}]']);
    const authoring = createAuthoring({ client, ctx, flowName: "F", app: "web", stepTimeoutMs: 1000, completed: () => [], nextStepNumber: () => 1 });
    const first = await authoring.author(step("Submit and confirm"), 0);
    expect(first.ok && first.continues).toBe(true);
    const second = await authoring.author(step("Submit and confirm"), 1);
    expect(second).toEqual({ ok: true, steps: [], continues: false });
    expect(client.calls[1]![0]!.content).toContain("Already performed for this step: click css:#next");
  });
});
