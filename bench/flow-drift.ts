// The benchmarks refuse to run when bench/flows/bench.flow.yaml and the Playwright script of the
// same 30 steps (playwright-steps.ts) have drifted apart.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { STEPS } from "./playwright-steps.ts";

/** Refuses to run when the flow file and the Playwright steps above have drifted apart. */
export function checkFlowMatchesSteps(flowFile: string): void {
  const doc = parseYaml(readFileSync(flowFile, "utf8")) as { steps?: unknown };
  const steps: unknown[] = Array.isArray(doc.steps) ? doc.steps : [];
  // A step is a plain string, `rules: …` or `assert: …`.
  const texts = steps.map((s) => {
    if (typeof s === "string") return s;
    const [key, value] = Object.entries((s ?? {}) as Record<string, unknown>)[0] ?? ["", ""];
    return key === "assert" ? `assert: ${String(value)}` : String(value);
  });
  const problems: string[] = [];
  if (STEPS.length !== 30) problems.push(`the Playwright script has ${STEPS.length} steps, not 30`);
  if (texts.length !== STEPS.length) problems.push(`${flowFile} has ${texts.length} steps, the Playwright script ${STEPS.length}`);
  texts.forEach((t, i) => {
    if (STEPS[i] && STEPS[i].text !== t)
      problems.push(`step ${i + 1}: flow says ${JSON.stringify(t)}, Playwright script says ${JSON.stringify(STEPS[i].text)}`);
  });
  if (problems.length > 0) {
    console.error(`bench: the flow and the Playwright script differ:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
}
