import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import Ajv from "ajv";
import { parse } from "yaml";
import { flowSchemaDocument } from "./schema.ts";
import { CORE_KEYS } from "./flow.ts";
import { keyNamesOf } from "./surface-kinds.ts";
import { builtinCatalog } from "../../test/support/surfaces.ts";

const ROOT = resolve(import.meta.dir, "../..");
const kinds = [...builtinCatalog().kinds.values()];
const document = flowSchemaDocument(kinds);
const validate = new Ajv({ allErrors: true, strict: false }).compile(document);

describe("flowSchemaDocument", () => {
  test("names exactly the core keys and the built-in adapters' top-level keys", () => {
    const adapterKeys = new Set(kinds.flatMap((k) => keyNamesOf(k).filter((key) => key !== "url" && !(k.keys?.inApp ?? []).includes(key))));
    expect(Object.keys(document["properties"] as object).sort()).toEqual([...new Set([...CORE_KEYS, ...adapterKeys])].sort());
  });

  test("a Windows program is `app:` written as its keys, and only a kind whose keys require `url` needs one", () => {
    expect(validate({ name: "x", app: { command: "a.exe", window_title: "A" }, steps: ["a"] })).toBe(true);
    expect(validate({ name: "x", app: { command: "a.exe" }, steps: ["a"] })).toBe(false);
    expect(validate({ name: "x", app: "sap", connection: "TS3", steps: ["Go to VA01"] })).toBe(true);
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
    const multi = { name: "m", apps: { shop: { app: "web", url: "http://x/" } }, steps: [{ in: "shop", steps: [{ rules: 'Click "Buy"' }] }] };
    expect(validate(multi)).toBe(true);
    expect(validate({ ...multi, app: "web", url: "http://x/" })).toBe(false);
  });
});
