import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { defaultTracePath, displayPath, loadFlowFile, loadFlowForReplay, readFlowFile, resolveStartUrl, stepTimeoutFromEnv } from "./common.ts";

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

describe("defaultTracePath", () => {
  test.each([
    ["/p/calc.flow.yaml", "/p/calc.trace.jsonl"],
    ["/p/calc.flow.yml", "/p/calc.trace.jsonl"],
    ["/p/calc.yaml", "/p/calc.trace.jsonl"],
    ["/p/calc.yml", "/p/calc.trace.jsonl"],
    ["/p/Calc.Flow.YAML", "/p/Calc.trace.jsonl"],
    ["flows/sign-in.flow.yaml", "flows/sign-in.trace.jsonl"],
    ["sign.in.flow.yaml", "sign.in.trace.jsonl"],
    ["/p/notes.txt", "/p/notes.txt.trace.jsonl"],
  ])("puts the trace of %s at %s", (spec, trace) => {
    expect(defaultTracePath(spec)).toBe(trace);
  });
});

describe("resolveStartUrl", () => {
  const flowPath = "/projects/demo/flows/login.flow.yaml";

  test.each([
    ["http://127.0.0.1:3000/login", "http://127.0.0.1:3000/login"],
    ["https://example.test/a?b=c", "https://example.test/a?b=c"],
    ["file:///srv/page.html", "file:///srv/page.html"],
    ["about:blank", "about:blank"],
  ])("keeps the absolute URL %s", (raw, url) => {
    expect(resolveStartUrl(raw, flowPath, {}, new Map())).toBe(url);
  });

  test.each([
    ["pages/login.html", "/projects/demo/flows/pages/login.html"],
    ["../site/index.html", "/projects/demo/site/index.html"],
    ["/abs/page.html", "/abs/page.html"],
    ["my page.html", "/projects/demo/flows/my page.html"],
  ])("makes the path %s a file URL next to the flow", (raw, path) => {
    expect(resolveStartUrl(raw, flowPath, {}, new Map())).toBe(pathToFileURL(path).href);
  });

  test("resolves ${VAR} and records its value as a secret", () => {
    const secrets = new Map<string, string>();
    expect(resolveStartUrl("${APP_URL}/login", flowPath, { APP_URL: "http://127.0.0.1:4000" }, secrets)).toBe("http://127.0.0.1:4000/login");
    expect([...secrets]).toEqual([["APP_URL", "http://127.0.0.1:4000"]]);
  });

  test("resolves ${VAR} to a relative path against the flow", () => {
    expect(resolveStartUrl("${PAGE}", flowPath, { PAGE: "p.html" }, new Map())).toBe(pathToFileURL("/projects/demo/flows/p.html").href);
  });

  test("refuses an unset variable", () => {
    expect(() => resolveStartUrl("${APP_URL}/login", flowPath, {}, new Map())).toThrow(UnresolvedReferenceError);
  });
});

describe("stepTimeoutFromEnv", () => {
  test.each<[Record<string, string | undefined>, number]>([
    [{}, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "" }, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: undefined }, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "250" }, 250],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "120000" }, 120_000],
  ])("reads %j as %d ms", (env, ms) => {
    expect(stepTimeoutFromEnv(env)).toBe(ms);
  });

  test("defaults to 5 s", () => {
    expect(DEFAULT_STEP_TIMEOUT_MS).toBe(5_000);
  });

  test.each(["abc", "0", "-5", "1.5", "5s"])("refuses %p as bad-value with an example", (raw) => {
    const e = specError(() => stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: raw }));
    expect(e.code).toBe("bad-value");
    expect(e.message).toBe(`FLOWPROOF_STEP_TIMEOUT_MS must be a whole number of milliseconds, not ${JSON.stringify(raw)}`);
    expect(e.diagnostics[0]!.hint).toBe("FLOWPROOF_STEP_TIMEOUT_MS=5000");
  });
});

describe("displayPath", () => {
  test("shows a path inside the working directory relative to it", () => {
    expect(displayPath(join(process.cwd(), "flows", "a.flow.yaml"))).toBe(join("flows", "a.flow.yaml"));
  });

  test("keeps a path outside the working directory as it is", () => {
    expect(displayPath("/elsewhere/a.flow.yaml")).toBe("/elsewhere/a.flow.yaml");
  });
});

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
    const path = project.write("mix.flow.yaml", flowYaml("Mix", "x.html", ["assert: display shows 8", "assert: page shows Moved", 'rules: Blur the "Email" field', 'Drag "css:#a" onto "css:#b"']));
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

describe("resolveStartUrl without a scheme", () => {
  test.each(["localhost:3000/login", "127.0.0.1:3000/login"])("refuses %s and suggests http://", (raw) => {
    expect(() => resolveStartUrl(raw, "/tmp/a.flow.yaml", {}, new Map())).toThrow(SpecError);
  });
  test.each(["1e3", " 250 ", "0x10"])("refuses FLOWPROOF_STEP_TIMEOUT_MS=%p", (raw) => {
    expect(() => stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: raw })).toThrow(SpecError);
  });
});

describe("loadFlowForReplay", () => {
  test("reads plain steps as intent and knows the project's assertion plugins", async () => {
    const p = tmpProject();
    try {
      p.write("package.json", "{}");
      p.write(".flowproof/plugins/m.ts", 'import { defineAssertion } from "flowproof";\nexport const plugin = defineAssertion<{ v: string }>({ key: "assert_m", schema: { type: "object" }, run: async () => ({ pass: true }) });\n');
      const spec = p.write("f.flow.yaml", `${flowYaml("F", "http://127.0.0.1:9/", ["Greet Ada politely"])}  - assert_m:\n      v: x\n`);
      expect(() => loadFlowFile(spec)).toThrow(SpecError);
      const { flow, plugins } = await loadFlowForReplay(spec, {});
      expect(flow.steps.map((s) => s.form)).toEqual(["plain", "structured"]);
      expect(plugins.assertions.map((a) => a.key)).toEqual(["assert_m"]);
    } finally {
      p.remove();
    }
  });
});
