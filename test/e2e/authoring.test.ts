// Model authoring end to end: the real CLI in real Chromium against a local page, with a scripted
// OpenAI-compatible model on 127.0.0.1. Covers grounding, the correction round, the invalid-JSON
// retry, pronoun clarification, the trace it writes, and replay with zero model requests.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { startScriptedModel, type ScriptedModel } from "../support/model-server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";

let server: TestServer;
let model: ScriptedModel;
let project: TmpProject;

const PIN = "pin-4711-secret";
const FILL = "Fill out all the vehicle data and click next";
const REMEMBER = "Remember the order number";
const REMEMBER_CUSTOMER = "Remember the customer number";
const ENTER_IT = 'Enter it in the "Confirmation" field';
const ORDER_TOKEN = 'scoped:css:div.row containing "Order number" > css:.val';
const CUSTOMER_TOKEN = 'scoped:css:div.row containing "Customer number" > css:.val';

const fullSequence = JSON.stringify([
  { action: "type_text", target: "css:#make", text: "Volvo" },
  { action: "select_option", target: "css:#model", text: "Van" },
  { action: "type_text", target: "css:#year", text: "2021" },
  { action: "type_text", target: "css:#pin", text: "${OWNER_PIN}" },
  { action: "click", target: "css:#next" },
]);

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  model = await startScriptedModel();
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  model.stop();
  project.remove();
});

const traceLines = (path: string) => {
  const { header, steps } = readTrace(path);
  return [header, ...steps];
};

describe("model authoring (record --author auto with a configured model)", () => {
  test("grounds a multi-action step after one correction, retries invalid JSON, and replays with zero model requests", async () => {
    // A half-valid sequence: actions 1-2 ground, action 3 names a token that is not listed.
    model.script(
      FILL,
      JSON.stringify([
        { action: "type_text", target: "css:#make", text: "Volvo" },
        { action: "select_option", target: "css:#model", text: "Van" },
        { action: "type_text", target: "css:#vehicle-year", text: "2021" },
        { action: "click", target: "css:#next" },
      ]),
      `\`\`\`json\n${fullSequence}\n\`\`\``,
    );
    model.script(REMEMBER, "Sure! The order number is in the summary.", JSON.stringify({ action: "capture_text", target: ORDER_TOKEN, name: "order_number" }));
    model.script(ENTER_IT, JSON.stringify({ actions: [{ action: "type_captured", target: "css:#confirm", capture: "order_number" }] }));
    const spec = project.write(
      "vehicle.flow.yaml",
      flowYaml("Vehicle", `${server.url}/vehicle.html`, [FILL, REMEMBER, JSON.stringify(ENTER_IT), 'assert: "page shows Saved: Volvo Van 2021 (PIN set)"']),
    );
    const env = model.env({ OWNER_PIN: PIN });

    const rec = await runCli(["record", spec, "--json"], { cwd: project.dir, env });
    expect(rec.stderr).not.toContain("WARNING: no authoring model");
    expect(rec.code).toBe(0);
    const out = JSON.parse(rec.stdout) as {
      trace_path: string;
      steps: number;
      routing: Array<{ step: number; route: string; intent: string }>;
      agent: unknown;
    };
    expect(out.routing.map((r) => r.route)).toEqual(["llm", "llm", "llm", "llm", "llm", "llm", "llm", "rules"]);
    expect(out.routing[0]).toEqual({ step: 1, intent: FILL, route: "llm" });
    expect(out.agent).toEqual({ backend: "openai-compatible", model: "scripted-model" });
    expect(rec.stderr).toContain(`[AUTHOR llm] 1: ${FILL}`);

    // The correction names the failing action and how many before it were right, in the same conversation.
    const fillRequests = model.requests.filter((r) => r.step === FILL);
    expect(fillRequests.length).toBe(2);
    const correction = fillRequests[1]!.body.messages.at(-1)!;
    expect(correction.role).toBe("user");
    expect(correction.content).toContain("Action 3 of 4 was rejected");
    expect(correction.content).toContain('"css:#vehicle-year" is not in the scene list');
    expect(correction.content).toContain("The first 2 actions were correct and must be repeated unchanged");
    expect(fillRequests[1]!.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    // The scene the model saw: whole page, tokens, field state and the dropdown's exact options.
    const scene = fillRequests[0]!.body.messages[1]!.content;
    expect(scene).toContain('"target":"css:#model"');
    expect(scene).toContain('"options":["Choose…","Sedan","Coupe","Van"]');
    expect(scene).toContain('"target":"css:#make","tag":"input","actionable":true,"label":"Make","required":true');

    // Invalid JSON got exactly one retry, asking for JSON only.
    const rememberRequests = model.requests.filter((r) => r.step === REMEMBER);
    expect(rememberRequests.length).toBe(2);
    expect(rememberRequests[1]!.body.messages.at(-1)!.content).toContain("Answer again with JSON only");
    // The capture name (never its value) is in scope for the next step.
    const enterRequest = model.requests.find((r) => r.step === ENTER_IT)!;
    expect(enterRequest.body.messages[1]!.content).toContain("Captures in scope (names only): order_number");
    expect(enterRequest.raw).not.toMatch(/A-\d{4}"?[^,]*Captures/);

    // Password values never reach a model request, even after the PIN was typed.
    for (const r of model.requests) expect(r.raw).not.toContain(PIN);
    expect(enterRequest.body.messages[1]!.content).toContain('"target":"css:#pin","tag":"input","actionable":true,"type":"password"');

    // The trace holds the same step types the rules grammar writes, with references only.
    const tracePath = join(project.dir, "vehicle.trace.jsonl");
    expectValidTrace(tracePath);
    const [header, ...steps] = traceLines(tracePath);
    expect(header!["agent"]).toEqual({ backend: "openai-compatible", model: "scripted-model" });
    expect(steps.map((s) => (s["action"] as { type: string }).type)).toEqual([
      "type_text",
      "type_text",
      "type_text",
      "type_text",
      "click",
      "capture",
      "type_text",
      "assert",
    ]);
    expect(steps.slice(0, 5).every((s) => s["intent"] === FILL)).toBe(true);
    expect(steps[1]!["action"]).toEqual({ type: "type_text", params: { text: "Van", select: true, chosen: ["Van"] } });
    expect(steps[3]!["action"]).toEqual({ type: "type_text", params: { text: "${OWNER_PIN}" } });
    expect(steps[0]!["selectors"]).toEqual([{ tier: "native_id", provenance: "llm", payload: { css: "#make" } }]);
    expect(steps[5]!["selectors"]).toEqual([
      { tier: "structural", provenance: "llm", payload: { kind: "scoped", container: "css:div.row", container_anchor: "Order number", inner_css: ".val" } },
    ]);
    expect(steps[6]!["action"]).toEqual({ type: "type_text", params: { text: "${captured.order_number}" } });
    expect(readFileSync(tracePath, "utf8")).not.toContain(PIN);

    // Replay never calls the model: not even with the model configured.
    const before = model.requests.length;
    const res = await runCli(["run", spec], { cwd: project.dir, env });
    expect(res.stdout).toContain("PASS: Vehicle");
    expect(res.code).toBe(0);
    expect(model.requests.length).toBe(before);
  });

  test("a sequence that still does not ground after the correction writes nothing and asks for clarification", async () => {
    const step = "Fill out all the vehicle data and go on";
    const halfValid = JSON.stringify([
      { action: "type_text", target: "css:#make", text: "Volvo" },
      { action: "click", target: "css:#continue" },
    ]);
    model.script(step, halfValid);
    const spec = project.write("never.flow.yaml", flowYaml("Never", `${server.url}/vehicle.html`, [step]));
    const before = model.requests.length;
    const rec = await runCli(["record", spec, "--json"], { cwd: project.dir, env: model.env() });
    expect(rec.code).toBe(2);
    const out = JSON.parse(rec.stdout) as {
      needs_clarification: {
        step: string;
        step_index: number;
        stage: string;
        reason: string;
        scene: Array<{ target: string }>;
        completed_steps: string[];
        hint: string;
      };
    };
    expect(out.needs_clarification).toMatchObject({ step, step_index: 1, stage: "model", completed_steps: [] });
    expect(out.needs_clarification.reason).toContain("action 2 of 2");
    expect(out.needs_clarification.scene.map((e) => e.target)).toContain("css:#next");
    expect(model.requests.length - before).toBe(2);
    expect(existsSync(join(project.dir, "never.trace.jsonl"))).toBe(false);
  });

  test("an ambiguous `it` stops with a clarification listing the candidates", async () => {
    model.script(FILL, fullSequence);
    model.script(REMEMBER, JSON.stringify({ action: "capture_text", target: ORDER_TOKEN, name: "order_number" }));
    model.script(REMEMBER_CUSTOMER, JSON.stringify({ action: "capture_text", target: CUSTOMER_TOKEN, name: "customer_number" }));
    const spec = project.write(
      "ambiguous.flow.yaml",
      flowYaml("Ambiguous", `${server.url}/vehicle.html`, [FILL, REMEMBER, REMEMBER_CUSTOMER, JSON.stringify(ENTER_IT)]),
    );
    const rec = await runCli(["record", spec, "--json"], { cwd: project.dir, env: model.env({ OWNER_PIN: PIN }) });
    expect(rec.code).toBe(2);
    const { needs_clarification: c } = JSON.parse(rec.stdout) as { needs_clarification: Record<string, unknown> };
    expect(c["step"]).toBe(ENTER_IT);
    expect(c["step_index"]).toBe(8);
    expect(c["capture_reference"]).toBe("it");
    expect(c["capture_candidates"]).toEqual(["order_number", "customer_number"]);
    expect(c["completed_steps"]).toEqual([FILL, REMEMBER, REMEMBER_CUSTOMER]);
    expect(existsSync(join(project.dir, "ambiguous.trace.jsonl"))).toBe(false);
    // Human output says the same thing on stderr.
    const human = await runCli(["record", spec], { cwd: project.dir, env: model.env({ OWNER_PIN: PIN }) });
    expect(human.code).toBe(2);
    expect(human.stderr).toContain("NEEDS CLARIFICATION: step 8");
    expect(human.stderr).toContain("candidates: order_number, customer_number");
  });

  test("a provider error is quoted with the key redacted, and exits 2", async () => {
    const step = "Click next";
    model.script(step, { status: 401, body: JSON.stringify({ error: { message: "invalid key sk-test-key-123456" } }) });
    const spec = project.write("denied.flow.yaml", flowYaml("Denied", `${server.url}/vehicle.html`, [step]));
    const rec = await runCli(["record", spec], { cwd: project.dir, env: model.env() });
    expect(rec.code).toBe(2);
    expect(rec.stderr).toContain("answered HTTP 401");
    expect(rec.stderr).toContain("invalid key [redacted]");
    expect(rec.stderr).not.toContain("sk-test-key-123456");
  });

  test("record --reuse re-authors only new steps; --verify replays the fresh trace", async () => {
    model.script(FILL, fullSequence);
    const spec = project.write("reuse.flow.yaml", flowYaml("Reuse", `${server.url}/vehicle.html`, [FILL]));
    const env = model.env({ OWNER_PIN: PIN });
    expect((await runCli(["record", spec], { cwd: project.dir, env })).code).toBe(0);
    model.script(REMEMBER, JSON.stringify({ action: "capture_text", target: ORDER_TOKEN, name: "order_number" }));
    project.write("reuse.flow.yaml", flowYaml("Reuse", `${server.url}/vehicle.html`, [FILL, REMEMBER]));
    const before = model.requests.length;
    const rec = await runCli(["record", spec, "--reuse", "--verify", "--json"], { cwd: project.dir, env });
    expect(rec.code).toBe(0);
    const out = JSON.parse(rec.stdout) as { steps: number; reused_steps: number; verified: boolean; routing: Array<{ route: string }> };
    expect(out).toMatchObject({ steps: 6, reused_steps: 5, verified: true });
    expect(out.routing.map((r) => r.route)).toEqual(["reused", "reused", "reused", "reused", "reused", "llm"]);
    expect(model.requests.slice(before).map((r) => r.step)).toEqual([REMEMBER]);
  });

  test("record --verify exits 2 when the fresh trace does not replay, and keeps it as evidence", async () => {
    let served = 0;
    server.setRoute("/once.html", () => {
      served++;
      const button = served === 1 ? '<button id="claim" onclick="document.body.append(\'Claimed\')">Claim</button>' : "<p>Already claimed</p>";
      return new Response(`<!doctype html><html><head><title>Once</title></head><body>${button}</body></html>`, { headers: { "content-type": "text/html" } });
    });
    const spec = project.write("once.flow.yaml", flowYaml("Once", `${server.url}/once.html`, ['rules: Press the "Claim" button']));
    const rec = await runCli(["record", spec, "--verify", "--json"], { cwd: project.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "500" } });
    expect(rec.code).toBe(2);
    const out = JSON.parse(rec.stdout) as { trace_path: string; verified: boolean; error: string };
    expect(out.verified).toBe(false);
    expect(out.error).toContain("recording not reproducible");
    expect(existsSync(join(project.dir, "once.trace.jsonl"))).toBe(true);
  });

  test("--author llm without a model is an error; a misconfigured provider is an error, not a fallback", async () => {
    const spec = project.write("nomodel.flow.yaml", flowYaml("NoModel", `${server.url}/vehicle.html`, ['Press the "Next" button']));
    const clean = {
      FLOWPROOF_AI_BASE_URL: "",
      FLOWPROOF_AI_MODEL: "",
      FLOWPROOF_AI_API_KEY: "",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      ANTHROPIC_API_KEY: "",
      FLOWPROOF_AI_PROVIDER: "",
    };
    const llm = await runCli(["record", spec, "--author", "llm"], { cwd: project.dir, env: clean });
    expect(llm.code).toBe(2);
    expect(llm.stderr).toContain("--author llm needs an authoring model");
    const typo = await runCli(["record", spec], { cwd: project.dir, env: { ...clean, FLOWPROOF_AI_PROVIDER: "antropic" } });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("FLOWPROOF_AI_PROVIDER must be openai-compatible or anthropic");
  });
});
