import { afterEach, describe, expect, test } from "bun:test";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { validate, validateFlow } from "./validate.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";

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
    const spec = write([
      'Click "Save"',
      'Upload a.png into the "Avatar" field',
      'assert: cookie "sid" exists',
      "assert: display shows 8",
      "assert: document contains x",
    ]);
    const e = specError(() => validate({ spec, env: {} }));
    expect(e.diagnostics.map((d) => [d.code, d.span?.line, d.span?.column])).toEqual([
      ["unsupported-step", 8, 13],
      ["unsupported-step", 9, 13],
    ]);
    expect(e.diagnostics.map((d) => d.message)).toEqual([
      "`display shows` is calculator sugar (app: calc).",
      "`document contains` is Notepad sugar (app: notepad).",
    ]);
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

describe("unsetVariables", () => {
  test("lists each unset ${VAR} once with its place, skipping set ones, captures and comment lines", () => {
    const p = tmpProject();
    try {
      const spec = p.write(
        "v.flow.yaml",
        "# uses ${IN_COMMENT}\n" +
          flowYaml("V", "${BASE_U}/x.html", [
            'rules: Type ${USER_U} into the "A" field',
            'rules: Type ${USER_U} into the "B" field',
            'rules: Type ${SET_U} into the "C" field',
            'rules: Type ${captured.x} into the "D" field',
          ]),
      );
      const w = validate({ spec, env: { SET_U: "1" } }).warnings ?? [];
      expect(w.map((x) => [x.variable, x.line, x.column])).toEqual([
        ["BASE_U", 4, 6],
        ["USER_U", 6, 17],
      ]);
      expect(w[0]!.message).toContain("${BASE_U} is not set");
    } finally {
      p.remove();
    }
  });

  test("a variable the governing suite's env: sets is not reported", () => {
    const p = tmpProject();
    try {
      p.write("suite.yaml", "env:\n  FROM_SUITE: hello\n");
      const spec = p.write("v.flow.yaml", flowYaml("V", "http://127.0.0.1:9/", ['rules: Type ${FROM_SUITE} into the "A" field']));
      expect(validate({ spec, env: {} }).warnings).toBeUndefined();
    } finally {
      p.remove();
    }
  });
});

describe("validate in a suite", () => {
  test("refuses a suite that needs a newer flowproof, and runs nothing of it", () => {
    const p = tmpProject();
    try {
      p.write("suite.yaml", `min_version: "99.0.0"\nenv_from: touch ${p.dir}/ran\n`);
      const spec = p.write("v.flow.yaml", flowYaml("V", "http://127.0.0.1:9/", ['rules: Click "Go"']));
      const e = specError(() => validate({ spec, env: {} }));
      expect(e.code).toBe("bad-value");
      expect(e.message).toMatch(/suite\.yaml needs flowproof 99\.0\.0 or newer/);
      p.write("suite.yaml", `env_from: touch ${p.dir}/ran\n`);
      expect(validate({ spec, env: {} }).name).toBe("V");
      expect(existsSync(join(p.dir, "ran"))).toBe(false);
    } finally {
      p.remove();
    }
  });

  test("validateFlow loads the project's plugins (here from FLOWPROOF_PLUGINS), so a plugin's app kind validates", async () => {
    const p = tmpProject();
    try {
      const env = { FLOWPROOF_PLUGINS: join(import.meta.dir, "..", "..", "test", "fixtures", "plugins", "good", "echo-adapter.ts") };
      const spec = p.write("n.flow.yaml", "name: N\napp: echo\nsteps:\n  - rules: Press Enter\n");
      expect(specError(() => validate({ spec, env })).message).toContain("echo");
      expect(await validateFlow({ spec, env })).toMatchObject({ name: "N", app: "echo", steps: 1 });
    } finally {
      p.remove();
    }
  });
});
