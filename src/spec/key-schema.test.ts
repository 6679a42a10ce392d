import { describe, expect, test } from "bun:test";
import { checkSchema } from "./key-schema.ts";

const VIEWPORT = {
  type: "object",
  additionalProperties: false,
  required: ["width"],
  properties: { width: { type: "integer", minimum: 1, maximum: 100, examples: ["10"] }, mobile: { type: "boolean" } },
};
const KEYS = {
  type: "object",
  properties: {
    viewport: VIEWPORT,
    name: { type: "string", minLength: 1 },
    method: { type: "string", enum: ["GET", "POST"] },
    scale: { type: "number", exclusiveMinimum: 0, maximum: 10 },
    args: { type: "array", items: { type: "string", pattern: "^--" } },
    rule: { type: "object", title: "a mock rule", additionalProperties: false, properties: { a: { type: "string" } } },
    value: { anyOf: [{ type: "string" }, { type: "object", additionalProperties: false, required: ["k"], properties: { k: { type: "string" } } }] },
    env: { type: "object", additionalProperties: { type: "string" } },
  },
};
const words = (value: unknown) => checkSchema(value, KEYS, "the flow").map((p) => `${p.code} ${p.path.join(".")} ${p.message}`);

describe("checkSchema", () => {
  test.each<[string, unknown, string[]]>([
    ["a value that fits", { viewport: { width: 5, mobile: true }, name: "x", args: ["--a"], value: { k: "v" }, env: { A: "1" } }, []],
    ["a number out of range", { viewport: { width: 0 } }, ["bad-value viewport.width `width` must be a whole number from 1 to 100"]],
    ["an unknown key with a suggestion", { viewport: { width: 1, mobil: true } }, ["unknown-key viewport.mobil unknown key `mobil` in `viewport`"]],
    ["a missing key", { viewport: {} }, ["missing-key viewport `viewport` needs `width`"]],
    ["a boolean", { viewport: { width: 1, mobile: "yes" } }, ["bad-value viewport.mobile `mobile` must be true or false"]],
    ["an empty string", { name: " " }, ["bad-value name `name` must be a non-empty string"]],
    ["an enum", { method: "PUT" }, ["bad-value method `method` must be one of GET, POST"]],
    ["an exclusive minimum", { scale: 0 }, ["bad-value scale `scale` must be a number above 0 and at most 10"]],
    ["a list item", { args: ["-x"] }, ["bad-value args.0 `args` must match /^--/"]],
    ["a titled mapping", { rule: { b: 1 } }, ["unknown-key rule.b unknown key `b` in a mock rule"]],
    ["a union's fitting branch", { value: { j: 1 } }, ["unknown-key value.j unknown key `j` in `value`", "missing-key value `value` needs `k`"]],
    ["a union no branch fits", { value: 3 }, ["bad-value value `value` must be a string or a mapping"]],
    ["a record's values", { env: { A: 1 } }, ["bad-value env.A `A` must be a string"]],
  ])("%s", (_what, value, expected) => {
    expect(words(value)).toEqual(expected);
  });

  test("names the root as given, and hints with the first example", () => {
    const [p] = checkSchema(
      {},
      { type: "object", required: ["agent"], properties: { agent: { type: "object", examples: ["{command: node a.js}"] } } },
      "surface `bot`",
    );
    expect(p).toEqual({
      path: [],
      at: "value",
      code: "missing-key",
      message: "surface `bot` needs `agent`",
      hint: "agent: {command: node a.js}",
      missing: "agent",
    });
  });
});
