import { describe, expect, test } from "bun:test";
import { declarationsProblem, grammarProblem, keysProblem } from "./adapter-check.ts";
import { BUILTIN_ADAPTERS } from "./builtin.ts";

describe("declarationsProblem", () => {
  test.each(BUILTIN_ADAPTERS.map((a) => [a.kind, a] as const))("accepts what the built-in %s adapter declares", (_kind, adapter) => {
    expect(declarationsProblem(adapter as unknown as Record<string, unknown>)).toBeUndefined();
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["a blank title", { title: " " }, "`title` must be a non-empty string"],
    ["an unknown steps kind", { steps: "gui" }, '`steps` is "ui", "structured" or "agent_steps"'],
    ["executionArgs without agent steps", { executionArgs: () => ({}) }, "`executionArgs` is a function, for an adapter with `steps: \"agent_steps\"`"],
    ["platforms without a hint", { platforms: { os: ["win32"], name: "Windows" } }, "`platforms` is { os: [process.platform values], name, why?, hint }"],
  ])("refuses %s", (_what, declared, message) => {
    expect(declarationsProblem(declared)?.message).toBe(message);
  });
});

describe("keysProblem", () => {
  const schema = (props: Record<string, unknown>) => ({ schema: { type: "object", properties: props } });
  test.each<[string, unknown, string]>([
    ["a schema that is no object schema", { schema: { type: "string" } }, "`keys.schema` must be a JSON Schema object of type \"object\" with `properties`"],
    ["an unknown member", { ...schema({}), defaults: {} }, "unknown key `defaults` in `keys`"],
    ["an unknown role field", schema({ a: { type: "string", flowproof: { stored: true } } }), "the role of key `a` has unknown field `stored`"],
    ["a recorded secret", schema({ pw: { type: "string", flowproof: { secret: true, recorded: true } } }), "key `pw` is both a secret and recorded: a secret is never stored"],
    ["a pin without a record", schema({ login: { type: "object", properties: { user: { type: "string", flowproof: { pinned: true } } } } }), "key `login.user` is pinned but not recorded"],
    ["a top field the header does not have", schema({ columns: { type: "integer", flowproof: { recorded: { top: true } } } }), "key `columns` is recorded with `top`, but the trace header has no field `columns` beside `app`"],
    ["inApp naming no key", { ...schema({ command: { type: "string" } }), inApp: ["program"] }, "`keys.inApp` must list keys of `keys.schema`"],
  ])("refuses %s", (_what, keys, message) => {
    expect(keysProblem(keys)?.message).toBe(message);
  });

  test("accepts roles on nested keys", () => {
    expect(keysProblem(schema({ login: { type: "object", properties: { user: { type: "string", flowproof: { recorded: { as: "login_user" }, pinned: true } } } } }))).toBeUndefined();
  });
});

describe("grammarProblem", () => {
  test.each<[string, unknown, string]>([
    ["an unknown form", { lacks: ["mouse"] }, "`grammar.lacks` names general forms"],
    ["an unknown verb", { refusedVerbs: { verbs: ["Fly"], message: "m", hint: "h" } }, "`grammar.refusedVerbs` is { verbs, message, hint }"],
    ["a key word that maps to no key", { keys: { words: { plus: 1 } } }, "`grammar.keys` is"],
    ["sugar without a target", { sugar: [{ phrase: "display shows", value: "number", compare: "numeric_equals", example: "x", elsewhere: { what: "w", hint: "h" } }] }, "`grammar.sugar` is a list of"],
    ["an unknown member", { vocabulary: [] }, "unknown key `vocabulary` in `grammar`"],
  ])("refuses %s", (_what, grammar, message) => {
    expect(grammarProblem(grammar)?.message).toStartWith(message);
  });
});
