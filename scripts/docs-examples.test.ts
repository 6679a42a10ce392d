// The examples in docs/flow-format.md and docs/trace-format.md are checked against the code
// that loads flows and writes traces, so the docs cannot drift from what this version does.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { builtinCatalog, loadFlowText } from "../test/support/surfaces.ts";
import { planFlow } from "../src/engine/plan.ts";
import { serializeTrace } from "../src/trace/write.ts";
import { parseTrace } from "../src/trace/read.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../src/engine/compile.ts";
import type { TraceHeader } from "../src/trace/schema.ts";
import { BUILTIN_ASSERTIONS } from "../src/plugins/builtin.ts";
import type { StructuredKind } from "../src/spec/structured.ts";

const STRUCTURED = new Map<string, StructuredKind>(BUILTIN_ASSERTIONS.map((a) => [a.key, a as StructuredKind]));
import { loadSuiteText } from "../src/spec/suite.ts";

const DOCS = resolve(import.meta.dir, "..", "docs");

/** Bodies of the fenced blocks with info string `lang`, each ending in a newline. */
function fenced(file: string, lang: string): string[] {
  const blocks: string[] = [];
  let current: string[] | undefined;
  let inFence = false;
  for (const line of readFileSync(`${DOCS}/${file}`, "utf8").split("\n")) {
    const fence = /^```\s*(\S*)\s*$/.exec(line);
    if (fence) {
      if (inFence && current) blocks.push(`${current.join("\n")}\n`);
      current = !inFence && fence[1] === lang ? [] : undefined;
      inFence = !inFence;
    } else current?.push(line);
  }
  return blocks;
}

function plan(text: string) {
  const loaded = loadFlowText("checkout.flow.yaml", text, { plainStepsAreRules: true, structuredKinds: STRUCTURED });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics, null, 2));
  const planned = planFlow(loaded.flow, DEFAULT_STEP_TIMEOUT_MS);
  if (!planned.ok) throw new Error(JSON.stringify(planned.diagnostics, null, 2));
  return { flow: loaded.flow, steps: planned.steps };
}

describe("docs/flow-format.md", () => {
  const flows = fenced("flow-format.md", "yaml");

  test("has a complete example", () => {
    expect(flows.length).toBeGreaterThan(0);
  });

  test.each(flows.map((f, i) => [i + 1, f]))("yaml example %d loads and plans", (_, text) => {
    expect(plan(text).steps.length).toBeGreaterThan(0);
  });
});

describe("docs/codegen.md", () => {
  const flows = fenced("codegen.md", "yaml");
  test.each(flows.map((f, i) => [i + 1, f]))("yaml example %d (a flow codegen writes) loads and plans", (_, text) => {
    expect(plan(text).steps.length).toBeGreaterThan(0);
  });
});

describe("docs/trace-format.md", () => {
  const [example] = fenced("trace-format.md", "jsonl");
  const lines = (example ?? "").trimEnd().split("\n");

  test("the annotated example is what record writes for the flow-format.md example", () => {
    const { flow, steps } = plan(fenced("flow-format.md", "yaml")[0]!);
    const header = JSON.parse(lines[0]!) as TraceHeader;
    expect(header.spec?.hash).toBe(flow.hash);
    const written = serializeTrace(header, steps).trimEnd().split("\n");
    expect(lines[0]).toBe(written[0]);
    for (const line of lines.slice(1)) {
      const id = (JSON.parse(line) as { id: string }).id;
      expect(written.find((w) => w.includes(`"id":"${id}"`)) ?? `no step ${id} written`).toBe(line);
    }
  });

  test("the annotated example's lines each match the trace format", () => {
    // An excerpt: its header is sealed for all the flow's steps (checked above), so the seal is left out here.
    const { integrity: _seal, ...header } = JSON.parse(lines[0]!) as TraceHeader;
    expect(parseTrace(`${[JSON.stringify(header), ...lines.slice(1)].join("\n")}\n`, "example.trace.jsonl").steps).toHaveLength(2);
  });
});

describe("docs/suites.md", () => {
  test.each(fenced("suites.md", "yaml").map((f, i) => [i + 1, f]))("yaml example %d loads as a suite.yaml or a flow", (_, text) => {
    if (text.startsWith("# suite.yaml")) {
      // With the built-in adapters, whose keys (the web's `browser`, `browsers`, `identities`) a suite may hold.
      expect(loadSuiteText("suite.yaml", text, builtinCatalog())).toMatchObject({ ok: true });
    } else if (text.includes("steps:")) {
      expect(plan(text).steps.length).toBeGreaterThan(0);
    } else {
      // A fragment (a flow's `control:` block): it must load as part of a flow.
      expect(plan(`name: x\napp: web\nurl: http://127.0.0.1/\nsteps:\n  - rules: Click "Go"\n${text}`).steps.length).toBe(1);
    }
  });
});
