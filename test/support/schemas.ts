// Validates what the suite writes against the committed JSON Schemas in schema/.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { expect } from "bun:test";
import { REPO_ROOT } from "./cli.ts";

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const load = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, "schema", name), "utf8")) as Record<string, unknown>;
const traceSchema = load("trace-v1.schema.json");
const validateHeader = ajv.compile({ ...traceSchema, anyOf: undefined, $ref: "#/definitions/header" });
const validateStep = ajv.compile({ ...traceSchema, anyOf: undefined, $id: `${String(traceSchema["$id"])}#step`, $ref: "#/definitions/step" });
const validateResult = ajv.compile(load("result.schema.json"));

/** Line 1 against the header definition, every further non-empty line against the step definition. */
export function expectValidTrace(path: string): void {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  expect(lines.length).toBeGreaterThan(1);
  const [header, ...steps] = lines.map((l) => JSON.parse(l) as unknown);
  if (!validateHeader(header)) throw new Error(`trace header invalid: ${ajv.errorsText(validateHeader.errors)}`);
  for (const step of steps) if (!validateStep(step)) throw new Error(`trace step invalid: ${ajv.errorsText(validateStep.errors)}\n${JSON.stringify(step)}`);
}

export function expectValidResult(path: string): void {
  const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
  if (!validateResult(value)) throw new Error(`result.json invalid: ${ajv.errorsText(validateResult.errors)}`);
}
