// Flows past a bound of docs/flow-format.md "Limits" are refused at load with limit-exceeded and
// the file:line:col of what is too large; and no flow text makes loading super-linear.
import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { adversarialInputs, slowInputs } from "../../test/support/fuzz.ts";
import { LIMITS } from "../diagnostics/limits.ts";

const head = "name: Bounds\napp: web\nurl: http://127.0.0.1/\nsteps:\n";
const problems = (text: string) => {
  const r = loadFlowText("b.flow.yaml", text);
  return r.ok ? [] : r.diagnostics.map((d) => ({ code: d.code, message: d.message, at: d.span ? `${d.span.line}:${d.span.column}` : undefined }));
};

describe("flow limits", () => {
  test("nesting deeper than the bound is refused at the first node past it, in time linear in the depth", () => {
    const depth = 8_000;
    const started = performance.now();
    const found = problems(`${head}  - Click "A"\nextra: ${"[".repeat(depth)}${"]".repeat(depth)}\n`);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(found).toEqual([
      {
        code: "limit-exceeded",
        message: `mappings and lists are nested more than ${LIMITS.yamlDepth.value} levels deep here`,
        at: `6:${8 + LIMITS.yamlDepth.value}`,
      },
    ]);
    const block = Array.from({ length: 100 }, (_, i) => `${" ".repeat(2 * i + 2)}k:`).join("\n");
    expect(problems(`${head}  - Click "A"\nextra:\n${block} v\n`)[0]?.code).toBe("limit-exceeded");
  });

  test("a file larger than the bound is refused unparsed", () => {
    const found = problems(`${head}  - Click "A"\n# ${"x".repeat(LIMITS.flowFileChars.value)}\n`);
    expect(found).toEqual([
      {
        code: "limit-exceeded",
        message: `the file holds ${LIMITS.flowFileChars.value + head.length + 17} characters, more than the ${LIMITS.flowFileChars.value} a flow or suite file may hold`,
        at: "1:1",
      },
    ]);
  });

  test("a foreach expanding past the step bound is refused at its key before it is expanded", () => {
    const values = Array.from({ length: 10_000 }, (_, i) => i).join(", ");
    const steps = Array.from({ length: 50 }, (_, i) => `        - Click "B${i}"`).join("\n");
    const started = performance.now();
    const found = problems(`${head}  - foreach:\n      values: [${values}]\n      steps:\n${steps}\n`);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(found).toEqual([
      {
        code: "limit-exceeded",
        message: `this \`foreach:\` expands to 10000 values × 50 steps = 500000 steps, more than the ${LIMITS.flowSteps.value} a flow may have`,
        at: "5:5",
      },
    ]);
  });

  test("more concrete steps than the bound are refused at the first step past it", () => {
    const steps = Array.from({ length: LIMITS.flowSteps.value + 1 }, (_, i) => `  - Click "S${i}"`).join("\n");
    const found = problems(`${head}${steps}\n`);
    expect(found).toEqual([
      {
        code: "limit-exceeded",
        message: `the flow has ${LIMITS.flowSteps.value + 1} steps, more than the ${LIMITS.flowSteps.value} a flow may have; step ${LIMITS.flowSteps.value + 1} is here`,
        at: `${5 + LIMITS.flowSteps.value}:5`,
      },
    ]);
  });

  test("repeat max, a scroll offset and a count past their bounds are refused where they are written", () => {
    const found = problems(
      `${head}  - repeat:\n      until: page shows Done\n      max: 99999999999999999999\n      steps:\n        - Click "Next"\n  - rules: Scroll "css:.list" to ${"1" + "0".repeat(23)}px\n  - assert: the "css:.row" appears 100000000000000000000 times\n  - assert: page shows Done 2000000 times\n  - rules: Click the 10000000th "Row"\n`,
    );
    expect(found.map((f) => [f.code, f.at])).toEqual([
      ["limit-exceeded", "7:12"],
      ["limit-exceeded", "10:34"],
      ["limit-exceeded", "11:36"],
      ["limit-exceeded", "12:29"],
      ["limit-exceeded", "13:22"],
    ]);
    expect(found[0]!.message).toBe(`\`max: 99999999999999999999\` is more passes than a \`repeat:\` may take, ${LIMITS.repeatMax.value}`);
    expect(found[1]!.message).toBe(`${"1" + "0".repeat(23)} is larger than a scroll offset in pixels may be, ${LIMITS.scrollPx.value}.`);
  });
});

describe("loading answers 10^5 characters of adversarial flow text in time", () => {
  const inputs = adversarialInputs([`${head}  - `]);
  test("steps and files", async () => {
    // The yaml package spends about 20 µs on each syntax error it composes: 10^5 stray brackets,
    // each an error, take 2 s — linear, but over the bound the other parsers keep. A super-linear
    // parse of 10^5 characters would take minutes: 5 s still tells the two apart.
    expect(await slowInputs(inputs, (t) => loadFlowText("f.flow.yaml", t), 5_000)).toEqual([]);
    expect(await slowInputs(inputs, (t) => loadFlowText("f.flow.yaml", `${head}  - rules: ${JSON.stringify(t)}\n  - assert: ${JSON.stringify(t)}\n`))).toEqual(
      [],
    );
  }, 600_000);
});
