import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { suiteSchemaDocument } from "./suite-schema.ts";

const validate = new Ajv({ allErrors: true, strict: false }).compile(suiteSchemaDocument());

describe("suiteSchemaDocument", () => {
  test("accepts a full suite and refuses unknown keys", () => {
    expect(validate({ env: { A: "1" }, order: ["a.flow.yaml"], server: { command: "npm start", url: "http://127.0.0.1:3000" } })).toBe(true);
    expect(validate({ envv: {} })).toBe(false);
    expect(validate({ server: { command: "x", url: "u", port: 3 } })).toBe(false);
  });
});
