import { afterEach, describe, expect, test } from "bun:test";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { findSuiteFile, loadFlowFile, loadFlowForReplay, readFlowFile } from "./flow-load.ts";
import { confinedTo } from "../plugins/file-paths.ts";
import { join } from "node:path";
import { runContextsOf } from "./project-plugins.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";

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

describe("loadFlowFile", () => {
  let project: TmpProject | undefined;
  afterEach(() => {
    project?.remove();
    project = undefined;
  });

  test("loads a flow and records its absolute path", () => {
    project = tmpProject();
    const path = project.write("a.flow.yaml", flowYaml("A", "page.html", ['Click "Save"']));
    const flow = loadFlowFile(path);
    expect(flow.file).toBe(path);
    expect(flow.name).toBe("A");
    expect(flow.steps).toHaveLength(1);
  });

  test("refuses a missing file as io-error naming the path", () => {
    const e = specError(() => loadFlowFile("/nonexistent/flowproof/a.flow.yaml"));
    expect(e.code).toBe("io-error");
    expect(e.message).toBe("no flow file at /nonexistent/flowproof/a.flow.yaml");
    expect(e.diagnostics[0]!.hint).toContain("*.flow.yaml");
  });

  test("reports refused and unsupported steps together, in file order", () => {
    project = tmpProject();
    const path = project.write(
      "mix.flow.yaml",
      flowYaml("Mix", "x.html", ["assert: display shows 8", "assert: page shows Moved", 'rules: Blur the "Email" field', 'Drag "css:#a" onto "css:#b"']),
    );
    const e = specError(() => loadFlowFile(path));
    expect(e.diagnostics.map((d) => [d.code, d.span?.line])).toEqual([
      ["unsupported-step", 5],
      ["refused-step", 7],
      ["unverified-drag", 8],
    ]);
  });

  test("throws every problem of a bad flow as one SpecError", () => {
    project = tmpProject();
    const path = project.write("bad.flow.yaml", "name: Bad\napp: web\nurl: x\nconnection: x\nsteps:\n  - Fill in the form\n");
    const e = specError(() => loadFlowFile(path));
    expect(e.diagnostics.map((d) => d.code)).toEqual(["unsupported-feature", "unknown-step"]);
    expect(e.diagnostics[1]!.span).toMatchObject({ line: 6, column: 5 });
  });
});

describe("readFlowFile", () => {
  test("reads the text and resolves the path", () => {
    const project = tmpProject();
    try {
      const path = project.write("x.flow.yaml", "name: X\n");
      expect(readFlowFile(path)).toEqual({ path, text: "name: X\n" });
    } finally {
      project.remove();
    }
  });
});

describe("loadFlowForReplay", () => {
  test("reads plain steps as intent and knows the project's assertion plugins", async () => {
    const p = tmpProject();
    try {
      p.write("package.json", "{}");
      p.write(
        ".flowproof/plugins/m.ts",
        'import { defineAssertion } from "flowproof";\nexport const plugin = defineAssertion<{ v: string }>({ key: "assert_m", schema: { type: "object" }, run: async () => ({ pass: true }) });\n',
      );
      const spec = p.write("f.flow.yaml", `${flowYaml("F", "http://127.0.0.1:9/", ["Greet Ada politely"])}  - assert_m:\n      v: x\n`);
      expect(() => loadFlowFile(spec)).toThrow(SpecError);
      const { flow, context } = await loadFlowForReplay(spec, runContextsOf({}, new Lifecycle()));
      expect(flow.steps.map((s) => s.form)).toEqual(["plain", "structured"]);
      expect(context.plugins.assertions.map((a) => a.key)).toEqual(["assert_m"]);
      expect(context.assertions.has("assert_m")).toBe(true);
    } finally {
      p.remove();
    }
  });
});

describe("findSuiteFile", () => {
  test("finds the nearest suite.yaml upward; a confined run looks no higher than its root", async () => {
    const project = tmpProject();
    try {
      project.write("suite.yaml", "env: {}\n");
      project.write("app/flows/a.flow.yaml", flowYaml("A", "page.html", ['Click "Save"']));
      const flows = join(project.dir, "app", "flows");
      expect(findSuiteFile(flows)).toBe(join(project.dir, "suite.yaml"));
      await confinedTo(join(project.dir, "app"), async () => expect(findSuiteFile(flows)).toBeUndefined());
    } finally {
      project.remove();
    }
  });
});
