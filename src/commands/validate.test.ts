import { afterEach, describe, expect, test } from "bun:test";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { validate } from "./validate.ts";

function specError(run: () => unknown): SpecError {
  try {
    run();
  } catch (error) {
    if (error instanceof SpecError) return error;
    throw error;
  }
  throw new Error("expected a SpecError");
}

describe("validate", () => {
  let project: TmpProject | undefined;
  afterEach(() => {
    project?.remove();
    project = undefined;
  });

  const write = (steps: string[]) => {
    project = tmpProject();
    return project.write("demo.flow.yaml", flowYaml("Demo", "http://127.0.0.1:9/", steps));
  };

  test("returns the name, app and number of trace steps of a good flow", () => {
    const spec = write(['rules: Type Ada into the "Name" field', 'Click "Save"', "assert: page shows Saved"]);
    expect(validate({ spec, env: {} })).toEqual({ name: "Demo", app: "web", steps: 3 });
  });

  test("throws a SpecError with every unsupported form and its span", () => {
    const spec = write(['Click "Save"', 'Upload a.png into the "Avatar" field', 'assert: cookie "sid" exists', "assert: display shows 8", "assert: document contains x"]);
    const e = specError(() => validate({ spec, env: {} }));
    expect(e.diagnostics.map((d) => [d.code, d.span?.line, d.span?.column])).toEqual([
      ["unsupported-step", 8, 13],
      ["unsupported-step", 9, 13],
    ]);
    expect(e.diagnostics.map((d) => d.message)).toEqual(["`display shows` is calculator sugar (app: calc).", "`document contains` is Notepad sugar (app: notepad)."]);
  });

  test("throws the grammar's diagnostics for a step that does not parse", () => {
    const spec = write(['rules: Blur the "Email" field']);
    expect(specError(() => validate({ spec, env: {} })).code).toBe("refused-step");
  });

  test("refuses a malformed FLOWPROOF_STEP_TIMEOUT_MS", () => {
    const spec = write(['Click "Save"']);
    expect(specError(() => validate({ spec, env: { FLOWPROOF_STEP_TIMEOUT_MS: "soon" } })).code).toBe("bad-value");
  });

  test("refuses a missing file", () => {
    expect(specError(() => validate({ spec: "/nonexistent/flowproof/x.flow.yaml", env: {} })).code).toBe("io-error");
  });
});
