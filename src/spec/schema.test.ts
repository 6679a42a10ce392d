import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import Ajv from "ajv";
import { parse } from "yaml";
import { FlowFileSchema, flowSchemaDocument } from "./schema.ts";
import { SUPPORTED_KEYS } from "./flow.ts";

const ROOT = resolve(import.meta.dir, "../..");
const validate = new Ajv({ allErrors: true, strict: false }).compile(flowSchemaDocument());

describe("flowSchemaDocument", () => {
  test("names exactly the top-level keys the flow loader runs", () => {
    expect(Object.keys(FlowFileSchema.properties)).toEqual([...SUPPORTED_KEYS]);
  });

  test.each([
    "examples/demo/flows/greet.flow.yaml",
    "examples/demo/flows/new-order.flow.yaml",
    "examples/demo/flows/orders.flow.yaml",
    "examples/demo/flows/navigation.flow.yaml",
    "examples/plugins/notes/add-note.flow.yaml",
    "examples/plugins/stock/check-stock.flow.yaml",
  ])("accepts %s", (file) => {
    const ok = validate(parse(readFileSync(resolve(ROOT, file), "utf8")));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  test.each([
    ["an unknown key", { name: "x", app: "web", url: "u", steps: ["a"], colour: "red" }],
    ["a web flow without url", { name: "x", app: "web", steps: ["a"] }],
    ["an empty step list", { name: "x", app: "web", url: "u", steps: [] }],
    ["a step mapping with two keys", { name: "x", app: "web", url: "u", steps: [{ rules: "a", assert: "b" }] }],
    ["two structured keys in one step", { name: "x", app: "api", steps: [{ assert_api: {}, assert_sql: {} }] }],
    ["an app kind that is not a name", { name: "x", app: "Web App", url: "u", steps: ["a"] }],
  ])("refuses %s", (_, value) => {
    expect(validate(value)).toBe(false);
  });

  test("accepts a plugin app kind without url", () => {
    expect(validate({ name: "x", app: "notes", steps: [{ assert: "page shows Notes" }] })).toBe(true);
  });
});

describe("flowSchemaDocument and multi-surface flows", () => {
  test("accepts apps: with in: blocks and refuses app: together with apps:", () => {
    const multi = { name: "m", apps: { shop: { app: "web", url: "http://x/" } }, steps: [{ in: "shop", steps: [{ rules: "Click \"Buy\"" }] }] };
    expect(validate(multi)).toBe(true);
    expect(validate({ ...multi, app: "web", url: "http://x/" })).toBe(false);
  });
});
