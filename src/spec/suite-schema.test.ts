import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { suiteSchemaDocument } from "./suite-schema.ts";
import { builtinCatalog } from "../../test/support/surfaces.ts";

const validate = new Ajv({ allErrors: true, strict: false }).compile(suiteSchemaDocument());

describe("suiteSchemaDocument", () => {
  test("accepts a full suite and refuses unknown keys", () => {
    expect(validate({ env: { A: "1" }, order: ["a.flow.yaml"], server: { command: "npm start", url: "http://127.0.0.1:3000" } })).toBe(true);
    expect(validate({ envv: {} })).toBe(false);
    expect(validate({ server: { command: "x", url: "u", port: 3 } })).toBe(false);
  });
});

describe("the adapters' declared suite keys", () => {
  test("are in the document with their adapter's schema", () => {
    const withWeb = new Ajv({ allErrors: true, strict: false }).compile(suiteSchemaDocument(builtinCatalog()));
    expect(withWeb({ browser: { viewport: { width: 390, height: 844 } }, identities: { admin: { cookies: [{ name: "sid", value: "x" }] } } })).toBe(true);
    expect(withWeb({ browser: { viewport: { width: 0, height: 844 } } })).toBe(false);
    expect(validate({ browser: {} })).toBe(false);
  });
});
