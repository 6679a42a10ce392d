import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { record } from "./record.ts";
import { authoringClient, modelConfigured } from "./record-model.ts";

// Nothing here opens the app: each case ends before the browser would start.
const url = "http://127.0.0.1:9/greeter.html";
let project: TmpProject;
beforeAll(() => {
  project = tmpProject();
});
afterAll(() => {
  project.remove();
});

describe("the authoring model of record", () => {
  test("refuses --author llm without a configured model, with a hint", async () => {
    const spec = project.write("c.flow.yaml", flowYaml("C", url, ['rules: Click "Greet"']));
    await expect(record({ spec, author: "llm", env: {} })).rejects.toBeInstanceOf(SpecError);
    expect(() => authoringClient("llm", undefined, {})).toThrow(SpecError);
    expect(authoringClient("auto", undefined, {})).toBeUndefined();
    expect(authoringClient("rules", undefined, { FLOWPROOF_AI_MODEL: "m", FLOWPROOF_AI_BASE_URL: "http://127.0.0.1:1/v1" })).toBeUndefined();
  });
  test("auto with no model: a plain step the rules grammar cannot read is a no_model clarification", async () => {
    const spec = project.write("d.flow.yaml", flowYaml("D", url, ['rules: Press the "Greet" button', "Fill out the whole form"]));
    const r = await record({ spec, env: {} });
    expect(r.ok).toBe(false);
    expect(r.clarification).toMatchObject({
      step: "Fill out the whole form",
      step_index: 2,
      stage: "no_model",
      completed_steps: ['Press the "Greet" button'],
      scene: [],
    });
    expect(r.clarification?.rules_error).toContain("matches no rules step");
    // Under --author rules the same step is a plain rules error.
    await expect(record({ spec, env: {}, author: "rules" })).rejects.toBeInstanceOf(SpecError);
  });
  test("knows when a model is configured, and refuses a half-configured one", () => {
    expect(modelConfigured({})).toBe(false);
    expect(modelConfigured({ FLOWPROOF_AI_MODEL: "m", FLOWPROOF_AI_BASE_URL: "http://127.0.0.1:1/v1" })).toBe(true);
    expect(() => modelConfigured({ FLOWPROOF_AI_MODEL: "m" })).toThrow(SpecError);
  });
});
