// Tests of flow-step.ts: loading one item of a flow's step list (through loadFlowText, which
// hands each item to loadItem).
import { describe, expect, test } from "bun:test";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Flow } from "./flow.ts";
import { loadFlowText } from "../../test/support/surfaces.ts";

function loaded(text: string, file = "a.flow.yaml"): Flow {
  const r = loadFlowText(file, text);
  if (!r.ok) throw new Error(`expected the flow to load, got ${JSON.stringify(r.diagnostics)}`);
  return r.flow;
}

function problems(text: string, options?: { plainStepsAreRules: boolean }): readonly Diagnostic[] {
  const r = loadFlowText("a.flow.yaml", text, options);
  if (r.ok) throw new Error("expected the flow to be refused");
  return r.diagnostics;
}

const flowWith = (head: string, steps = ['  - rules: Click "Save"']) => `${head}\nsteps:\n${steps.join("\n")}\n`;
const HEAD = "name: Demo\napp: web\nurl: http://x/";

describe("loadItem", () => {
  test("refuses a UI step in an `app: api` flow", () => {
    const d = problems("name: Api\napp: api\nurl: http://x/\nsteps:\n  - assert: page shows X\n");
    expect(d.map((x) => [x.code, x.message])).toEqual([["unsupported-step", "an `app: api` flow has no UI, so it runs only structured steps"]]);
  });

  test("numbers steps by their position among the loaded steps", () => {
    const flow = loaded(flowWith(HEAD, ['  - Click "A"', '  - Click "B"', "  - assert: page shows C"]));
    expect(flow.steps.map((s) => s.index)).toEqual([0, 1, 2]);
  });

  describe("with plainStepsAreRules: false", () => {
    test("loads a plain step as intent for the authoring model, even when the rules grammar cannot read it", () => {
      const r = loadFlowText("a.flow.yaml", flowWith(HEAD, ["  - Fill out all the vehicle data and click next"]), { plainStepsAreRules: false });
      expect(r.ok).toBe(true);
      if (r.ok)
        expect(r.flow.steps[0]).toMatchObject({
          form: "plain",
          ast: { kind: "intent", text: "Fill out all the vehicle data and click next" },
          span: { line: 5, column: 5 },
        });
    });

    test("a plain step the grammar refuses on purpose stays refused: it is never handed to the model", () => {
      const d = problems(flowWith(HEAD, ['  - Blur the "Email" field']), { plainStepsAreRules: false });
      expect(d.map((x) => x.code)).toEqual(["refused-step"]);
    });

    test("still loads rules: and assert: steps", () => {
      const r = loadFlowText("a.flow.yaml", flowWith(HEAD, ['  - rules: Click "Save"', "  - assert: page shows Saved"]), { plainStepsAreRules: false });
      expect(r.ok).toBe(true);
    });
  });
});
