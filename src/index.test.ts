// The library face through the package name, as a user imports it, in real Chromium.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Flow, Lifecycle, SpecError, TraceError, diagnosticsOf, errorToJson, type ModelClient } from "flowproof";
import { startServer, type TestServer } from "../test/support/server.ts";
import { requireChromium } from "../test/support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../test/support/tmp-project.ts";

let server: TestServer;
let project: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  project.remove();
});

describe("Flow", () => {
  test("records, replays to a passing result and reads its trace", async () => {
    const flow = new Flow(
      project.write(
        "greet.flow.yaml",
        flowYaml("Greet", `${server.url}/greeter.html`, [
          'rules: Type Ada into the "Your name" field',
          'rules: Press the "Greet" button',
          "assert: page shows Hello, Ada!",
        ]),
      ),
    );
    const recorded = await flow.record({ author: "rules" });
    expect(recorded.ok).toBe(true);
    expect(recorded.steps).toBe(3);
    const trace = await flow.getTrace();
    expect(trace.trace_path).toBe(recorded.trace_path!);
    expect(trace.steps.map((s) => s.action.type)).toEqual(["type_text", "click", "assert"]);
    const result = await flow.run();
    expect(result.report.passed).toBe(true);
    expect(result.report.steps.map((s) => s.status)).toEqual(["passed", "passed", "passed"]);
  }, 60_000);

  test("a lifecycle the caller passes stops the run: stopped before it starts, the flow is interrupted and opens no browser", async () => {
    const flow = new Flow(project.write("stopped.flow.yaml", flowYaml("Stopped", `${server.url}/greeter.html`, ['rules: Press the "Greet" button'])));
    expect((await flow.record({ author: "rules" })).ok).toBe(true);
    const lifecycle = new Lifecycle();
    lifecycle.requestStop({ reason: "the caller stopped it" });
    const result = await flow.run({ lifecycle });
    expect(result.report.outcome).toBe("interrupted");
    expect(result.report.error).toContain("the run was interrupted (the caller stopped it) before this flow started");
    expect(lifecycle.ownedCount).toBe(0);
    // Heal re-records under the same lifecycle: stopped, it opens nothing either.
    const healed = await flow.heal({ lifecycle }).then(
      (r) => (r.ok ? "healed" : r.error),
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(healed).toContain("the run was interrupted (the caller stopped it) before this flow started");
  }, 60_000);

  test("a failing flow is a result, not an exception", async () => {
    const flow = new Flow(project.write("fails.flow.yaml", flowYaml("Fails", `${server.url}/greeter.html`, ["assert: page shows Goodbye within 1s"])));
    const recorded = await flow.record({ author: "rules" });
    expect(recorded.ok).toBe(false);
    expect(recorded.trace_path).toBeNull();
    expect(recorded.error).toContain("no trace was written");
  }, 30_000);

  test("records plain steps with a model client and heals, with the route of every step", async () => {
    const prompts: string[] = [];
    const model: ModelClient = {
      backend: "openai-compatible",
      model: "in-process",
      complete: async (_system, messages) => {
        prompts.push(messages[0]!.content);
        return JSON.stringify([
          { action: "type_text", target: "css:#name", text: "Ada" },
          { action: "click", target: "css:#greet" },
        ]);
      },
    };
    const flow = new Flow(project.write("model.flow.yaml", flowYaml("Model", `${server.url}/greeter.html`, ["Greet Ada", "assert: page shows Hello, Ada!"])));
    const recorded = await flow.record({ model, env: {} });
    expect(recorded.ok).toBe(true);
    expect(recorded.routing.map((r) => r.route)).toEqual(["llm", "llm", "rules"]);
    expect(recorded.agent).toEqual({ backend: "openai-compatible", model: "in-process" });
    expect(prompts[0]).toContain("STEP: Greet Ada");
    const healed = await flow.heal({ model, env: {} });
    expect(healed.ok && healed.report.changed).toBe(false);
    expect(healed.ok && healed.applied).toBe(false);
  }, 60_000);

  test("a bad flow throws a SpecError; a missing trace a TraceError", async () => {
    const bad = new Flow(project.write("bad.flow.yaml", 'name: Bad\napp: web\nurl: http://x/\nsteps:\n  - rules: Blur the "Email" field\n'));
    await expect(bad.validate()).rejects.toBeInstanceOf(SpecError);
    await expect(bad.record()).rejects.toBeInstanceOf(SpecError);
    const unrecorded = new Flow(project.write("never.flow.yaml", flowYaml("Never", `${server.url}/greeter.html`, ["assert: page shows Greeter"])));
    await expect(unrecorded.getTrace()).rejects.toBeInstanceOf(TraceError);
    expect((await unrecorded.validate()).steps).toBe(1);
  });

  test("an error converts to the diagnostics and JSON the CLI and the MCP server print", async () => {
    const error = await new Flow(project.write("bad2.flow.yaml", 'name: Bad\napp: web\nurl: http://x/\nsteps:\n  - rules: Blur the "Email" field\n'))
      .validate()
      .catch((e: unknown) => e);
    const diagnostics = diagnosticsOf(error);
    expect(diagnostics[0]?.code).toBe("refused-step");
    expect(errorToJson(error)).toMatchObject({ code: "refused-step", diagnostics: [{ code: "refused-step", line: 5 }] });
  });
});
