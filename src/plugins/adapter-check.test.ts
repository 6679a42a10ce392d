import { describe, expect, test } from "bun:test";
import { credentialsProblem, declarationsProblem, grammarProblem, keysProblem } from "./adapter-check.ts";
import { BUILTIN_ADAPTERS } from "./builtin.ts";

describe("declarationsProblem", () => {
  test.each(BUILTIN_ADAPTERS.map((a) => [a.kind, a] as const))("accepts what the built-in %s adapter declares", (_kind, adapter) => {
    expect(declarationsProblem(adapter as unknown as Record<string, unknown>)).toBeUndefined();
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["the kind `multi`", { kind: "multi" }, 'the app kind "multi" is reserved: a trace header\'s `app.adapter: multi` marks a multi-surface flow'],
    [
      "an error code with a namespace of its own",
      { kind: "inv", errors: { "inv/x": { meaning: "m" } } },
      'error code name "inv/x" must be lowercase letters, digits and dashes (the kind is added: `inv/<name>`)',
    ],
    [
      "an error code without a meaning",
      { kind: "inv", errors: { "not-signed-on": { hint: "h" } } },
      "error code `inv/not-signed-on` must be `{ meaning, hint? }` with a one-sentence meaning",
    ],
    ["a blank title", { title: " " }, "`title` must be a non-empty string"],
    ["facts that are no object schema", { facts: { type: "string" } }, '`facts` must be a JSON Schema object of type "object" with `properties`'],
    [
      "facts naming a core field",
      { facts: { type: "object", properties: { url: { type: "string" } } } },
      "`facts` names `url`, which the core writes in the app entry",
    ],
    ["an unknown steps kind", { steps: "gui" }, '`steps` is "ui", "structured" or "agent_steps"'],
    ["executionArgs without agent steps", { executionArgs: () => ({}) }, '`executionArgs` is a function, for an adapter with `steps: "agent_steps"`'],
    ["platforms without a hint", { platforms: { os: ["win32"], name: "Windows" } }, "`platforms` is { os: [process.platform values], name, why?, hint }"],
  ])("refuses %s", (_what, declared, message) => {
    expect(declarationsProblem(declared)?.message).toBe(message);
  });
});

describe("keysProblem", () => {
  const schema = (props: Record<string, unknown>) => ({ schema: { type: "object", properties: props } });
  test.each<[string, unknown, string]>([
    ["a schema that is no object schema", { schema: { type: "string" } }, '`keys.schema` must be a JSON Schema object of type "object" with `properties`'],
    ["an unknown member", { ...schema({}), defaults: {} }, "unknown key `defaults` in `keys`"],
    ["an unknown role field", schema({ a: { type: "string", flowproof: { stored: true } } }), "the role of key `a` has unknown field `stored`"],
    [
      "a recorded secret",
      schema({ pw: { type: "string", flowproof: { secret: true, recorded: true } } }),
      "key `pw` is both a secret and recorded: a secret is never stored",
    ],
    [
      "a matrix without the variable a run of one entry sets",
      schema({ engine: { type: "object", flowproof: { matrix: { key: "engines", field: "name", values: ["a"] } } } }),
      "key `engine`: `matrix` is { key, field, values, env }: the suite key of the list, the field an entry stands for, the entries it may hold and the variable a run of one sets",
    ],
    [
      "a pin without a record",
      schema({ login: { type: "object", properties: { user: { type: "string", flowproof: { pinned: true } } } } }),
      "key `login.user` is pinned but not recorded",
    ],
    [
      "a top block named like a field of the format",
      schema({ spec: { type: "integer", flowproof: { recorded: { top: true } } } }),
      "key `spec` is recorded with `top`, but `spec` is a field of the trace format itself",
    ],
    [
      "a recorded key named like a core field of the app entry",
      schema({ where: { type: "string", flowproof: { recorded: { as: "url" } } } }),
      "key `where` is recorded as `url`, a field the core writes in the app entry",
    ],
    [
      "a role below `not`",
      schema({ sign_on: { not: { type: "object", properties: { pw: { type: "string", flowproof: { secret: true } } } } } }),
      "key `sign_on.pw` has a role inside `not`, where no value is ever resolved through it",
    ],
    [
      "a role in `$defs`",
      { schema: { type: "object", properties: {}, $defs: { pw: { type: "string", flowproof: { secret: true } } } } },
      "key `(at the schema's top)` has a role inside `$defs`, where no value is ever resolved through it",
    ],
    [
      "a role field that is wrong inside a union",
      schema({
        sign_on: { anyOf: [{ type: "string" }, { type: "object", properties: { pw: { type: "string", flowproof: { secret: true, recorded: true } } } }] },
      }),
      "key `sign_on.pw` is both a secret and recorded: a secret is never stored",
    ],
    [
      "a recorded key inside a record",
      schema({ hosts: { type: "object", additionalProperties: { type: "string", flowproof: { recorded: true } } } }),
      "key `hosts.*` is inside a list or a record, so its role cannot have `recorded`: that names one key of the flow by its path",
    ],
    ["inApp naming no key", { ...schema({ command: { type: "string" } }), inApp: ["program"] }, "`keys.inApp` must list keys of `keys.schema`"],
  ])("refuses %s", (_what, keys, message) => {
    expect(keysProblem(keys)?.message).toBe(message);
  });

  test("accepts roles on nested keys", () => {
    expect(
      keysProblem(schema({ login: { type: "object", properties: { user: { type: "string", flowproof: { recorded: { as: "login_user" }, pinned: true } } } } })),
    ).toBeUndefined();
  });
});

describe("grammarProblem", () => {
  test.each<[string, unknown, string]>([
    ["an unknown form", { lacks: ["mouse"] }, "`grammar.lacks` names general forms"],
    ["an unknown verb", { refusedVerbs: { verbs: ["Fly"], message: "m", hint: "h" } }, "`grammar.refusedVerbs` is { verbs, message, hint }"],
    ["a key word that maps to no key", { keys: { words: { plus: 1 } } }, "`grammar.keys` is"],
    [
      "sugar without a target",
      { sugar: [{ phrase: "display shows", value: "number", compare: "numeric_equals", example: "x", elsewhere: { what: "w", hint: "h" } }] },
      "`grammar.sugar` is a list of",
    ],
    ["an unknown member", { vocabulary: [] }, "unknown key `vocabulary` in `grammar`"],
  ])("refuses %s", (_what, grammar, message) => {
    expect(grammarProblem(grammar)?.message).toStartWith(message);
  });
});

describe("credentialsProblem", () => {
  const ok = {
    name: "Vault",
    where: "the keychain",
    usedBy: "vault flows use them",
    fields: [{ name: "tenant", placeholder: "id", description: "The tenant." }],
    read: async () => undefined,
    store: async () => undefined,
    delete: async () => undefined,
  };

  test("a complete declaration (the built-in sap's too) has none", () => {
    expect(credentialsProblem(ok)).toBeUndefined();
    expect(credentialsProblem({ ...ok, fields: undefined })).toBeUndefined();
    expect(credentialsProblem(BUILTIN_ADAPTERS.find((a) => a.credentials)?.credentials)).toBeUndefined();
  });

  test("credentials the core keeps declare no where, read, store or delete, and may name the key they fill", () => {
    const core = { name: "Vault", usedBy: "vault flows use them", key: "sign_on", fields: ok.fields };
    expect(credentialsProblem(core)).toBeUndefined();
    expect(credentialsProblem({ ...core, key: " " })?.message).toBe("`credentials.key` must be a non-empty string");
    expect(credentialsProblem({ ...core, read: ok.read })?.message).toBe("`credentials.where` must be a non-empty string");
    expect(credentialsProblem({ ...ok, key: "sign_on" })?.message).toBe(
      "`credentials.key` is filled only from the core's store: drop it, or drop `where`, `read`, `store` and `delete`",
    );
  });

  test.each<[string, unknown, string]>([
    ["not an object", "keychain", "`credentials` must be an object"],
    ["an unknown key", { ...ok, password: "x" }, "unknown key `password` in `credentials`"],
    ["no where", { ...ok, where: " " }, "`credentials.where` must be a non-empty string"],
    ["no store function", { ...ok, store: "file" }, "`credentials.store` must be a function"],
    [
      "a platform check that is not a function",
      { ...ok, checkPlatform: true },
      "`credentials.checkPlatform` must be a function that throws on a platform that cannot keep them",
    ],
    ["a malformed field", { ...ok, fields: [{ name: "tenant" }] }, "`credentials.fields` is a list of { name, placeholder, description }"],
    [
      "a field named like the command's own flag",
      { ...ok, fields: [{ name: "show", placeholder: "x", description: "x" }] },
      'credential field "show" cannot be a flag of `flowproof config`: a field is lowercase letters, digits and dashes, and not user, password, show, delete, forget, json, help',
    ],
    [
      "a field that is no flag name",
      { ...ok, fields: [{ name: "Tenant ID", placeholder: "x", description: "x" }] },
      'credential field "Tenant ID" cannot be a flag of `flowproof config`: a field is lowercase letters, digits and dashes, and not user, password, show, delete, forget, json, help',
    ],
    ["a field declared twice", { ...ok, fields: [ok.fields[0], ok.fields[0]] }, 'credential field "tenant" is declared twice'],
  ])("refuses %s", (_name, credentials, message) => {
    expect(credentialsProblem(credentials)?.message).toBe(message);
    expect(declarationsProblem({ credentials })?.message).toBe(message);
  });
});
