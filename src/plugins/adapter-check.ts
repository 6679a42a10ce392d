// The loader's boundary for what an adapter declares beside driving a surface: its keys (a JSON
// Schema object whose key roles make sense), its grammar (known forms, verbs and sugar), its
// steps, platforms and title. Each problem is one sentence with what to write instead; the
// caller names the plugin's file. Pure.
import type Ajv from "ajv";
import { GRAMMAR_FORMS, GRAMMAR_VERBS } from "../grammar/vocabulary.ts";
import { ADAPTER_BLOCK_NAME, AppInfo, TraceHeader } from "../trace/schema.ts";
import { KEY_ROLE, type KeyRole } from "./adapter-api.ts";

/** A problem in a plugin's declarations: what is wrong, and what to write instead. */
export interface DeclarationProblem {
  readonly message: string;
  readonly hint: string;
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
const problem = (message: string, hint: string): DeclarationProblem => ({ message, hint });

/** The trace header's own fields: a key recorded with `top` becomes an adapter block beside them, never one of them. */
const FORMAT_FIELDS: readonly string[] = Object.keys(TraceHeader.properties);
/** The app entry's core fields: an adapter's recorded key or fact is never one of them. */
export const CORE_ENTRY_FIELDS: readonly string[] = Object.keys(AppInfo.properties);

const ROLE_KEYS = ["references", "recorded", "secret", "pinned", "path", "suiteDefault", "named", "shared", "surface", "matrix"];

/** The first problem of one key's role (`path` names the key), or undefined. */
function roleProblem(role: unknown, path: string): DeclarationProblem | undefined {
  const hint = 'keyRole({ recorded: true, references: "env" }) — see docs/plugins.md, "Keys"';
  if (!isObj(role)) return problem(`the role of key \`${path}\` must be an object`, hint);
  const extra = Object.keys(role).filter((k) => !ROLE_KEYS.includes(k));
  if (extra.length > 0)
    return problem(
      `the role of key \`${path}\` has unknown field${extra.length > 1 ? "s" : ""} ${extra.map((k) => `\`${k}\``).join(", ")}`,
      `a key role has: ${ROLE_KEYS.join(", ")}`,
    );
  const r = role as KeyRole;
  if (r.references !== undefined && r.references !== "env" && r.references !== "captured")
    return problem(`key \`${path}\`: \`references\` is "env" or "captured", not ${JSON.stringify(r.references)}`, hint);
  const rec = r.recorded;
  if (
    rec !== undefined &&
    rec !== true &&
    !(
      isObj(rec) &&
      Object.keys(rec).every((k) => k === "as" || k === "top") &&
      (rec["as"] === undefined || typeof rec["as"] === "string") &&
      (rec["top"] === undefined || rec["top"] === true)
    )
  ) {
    return problem(`key \`${path}\`: \`recorded\` is true or { as?: "<header field>", top?: true }`, hint);
  }
  if (isObj(rec) && rec["top"] === true && (FORMAT_FIELDS.includes(path) || !new RegExp(ADAPTER_BLOCK_NAME).test(path))) {
    return problem(
      FORMAT_FIELDS.includes(path)
        ? `key \`${path}\` is recorded with \`top\`, but \`${path}\` is a field of the trace format itself`
        : `key \`${path}\` is recorded with \`top\`, but a header block's name is lowercase letters, digits and \`_\``,
      `name the key after what it holds, or record it in the app entry (\`recorded: true\`); the format's own fields are ${FORMAT_FIELDS.join(", ")}`,
    );
  }
  const entryName = isObj(rec) && typeof rec["as"] === "string" ? rec["as"] : path.split(".").pop()!;
  // (A key inside a list or a record is refused for its `recorded` below, by where it is.)
  if (rec !== undefined && !(isObj(rec) && rec["top"] === true) && !/\[\]|\.\*/.test(path) && CORE_ENTRY_FIELDS.includes(entryName))
    return problem(
      `key \`${path}\` is recorded as \`${entryName}\`, a field the core writes in the app entry`,
      `record it under another name with \`recorded: { as: "<name>" }\`; the core's fields are ${CORE_ENTRY_FIELDS.join(", ")}`,
    );
  if (r.secret !== undefined && r.secret !== true) return problem(`key \`${path}\`: \`secret\` is true or absent`, hint);
  if (r.secret && rec !== undefined)
    return problem(
      `key \`${path}\` is both a secret and recorded: a secret is never stored`,
      "drop `recorded`; a secret is read from the flow at every record and replay",
    );
  if (r.pinned && rec === undefined)
    return problem(`key \`${path}\` is pinned but not recorded`, "add `recorded`: a pinned key compares the spec's value with the recorded one");
  if (r.path !== undefined && r.path !== "flow-relative") return problem(`key \`${path}\`: \`path\` is "flow-relative" or absent`, hint);
  if (r.named !== undefined && typeof r.named !== "string") return problem(`key \`${path}\`: \`named\` names a map of the suite, e.g. "identities"`, hint);
  if (r.surface !== undefined && r.surface !== false) return problem(`key \`${path}\`: \`surface\` is false or absent`, hint);
  if (r.matrix !== undefined && !matrixShape(r.matrix))
    return problem(
      `key \`${path}\`: \`matrix\` is { key, field, values, env }: the suite key of the list, the field an entry stands for, the entries it may hold and the variable a run of one sets`,
      'matrix: { key: "browsers", field: "name", values: ["chromium", "firefox"], env: "FLOWPROOF_BROWSER" }',
    );
  return undefined;
}

const matrixShape = (m: unknown): boolean =>
  isObj(m) &&
  Object.keys(m).every((k) => ["key", "field", "values", "env"].includes(k)) &&
  typeof m["key"] === "string" &&
  /^[a-z][a-z0-9_]*$/.test(m["key"]) &&
  typeof m["field"] === "string" &&
  typeof m["env"] === "string" &&
  /^[A-Z][A-Z0-9_]*$/.test(m["env"]) &&
  Array.isArray(m["values"]) &&
  m["values"].length > 0 &&
  m["values"].every((v) => typeof v === "string" && v !== "");

/** Schema words whose subschemas a value is resolved through: a role below them holds. */
const FOLLOWED = ["properties", "anyOf", "oneOf", "allOf", "items", "additionalProperties", "patternProperties"];
/** Role fields that name a key of the flow by its path, so never hold inside a list's items or a record's values. */
const PATH_ROLES = ["recorded", "pinned", "suiteDefault", "named", "shared", "surface", "matrix"] as const;

/**
 * The first problem of the roles anywhere in a keys schema: a role's own fields, a role where it
 * could never apply (below `not`, `if`, `$defs`, a tuple's `items`, …), or a role that names its
 * key by path inside a list or a record. Every role a value can meet is one the launch follows.
 */
export function schemaRolesProblem(schema: Obj): DeclarationProblem | undefined {
  const walk = (node: Obj, path: string, inCollection: boolean, lost: string | undefined): DeclarationProblem | undefined => {
    if (KEY_ROLE in node) {
      const name = path === "" ? "(at the schema's top)" : path;
      if (node === schema)
        return problem(
          `the keys schema itself carries a role`,
          "put the role on a key's schema: `Type.Object({ password: Type.String(keyRole({ secret: true })) })`",
        );
      const p = roleProblem(node[KEY_ROLE], name);
      if (p) return p;
      if (lost !== undefined)
        return problem(
          `key \`${name}\` has a role inside \`${lost}\`, where no value is ever resolved through it`,
          "put the role on a key reached through properties, unions (anyOf/oneOf), intersections (allOf), a list's `items` or a record's values",
        );
      const role = node[KEY_ROLE] as Obj;
      const byPath = PATH_ROLES.find((k) => role[k] !== undefined);
      if (inCollection && byPath !== undefined)
        return problem(
          `key \`${name}\` is inside a list or a record, so its role cannot have \`${byPath}\`: that names one key of the flow by its path`,
          "give the list or record key itself the role, or keep only `references`, `secret` and `path` on its items",
        );
    }
    for (const [word, sub] of Object.entries(node)) {
      if (word === KEY_ROLE || typeof sub !== "object" || sub === null) continue;
      const followed = FOLLOWED.includes(word) && !(word === "items" && Array.isArray(sub));
      const here = lost ?? (followed ? undefined : word);
      const entries: [string, unknown, boolean][] =
        word === "properties"
          ? Object.entries(sub).map(([k, v]) => [path === "" ? k : `${path}.${k}`, v, inCollection])
          : word === "patternProperties"
            ? Object.values(sub).map((v) => [`${path}.*`, v, true])
            : word === "additionalProperties"
              ? [[`${path}.*`, sub, true]]
              : word === "items" && !Array.isArray(sub)
                ? [[`${path}[]`, sub, true]]
                : Array.isArray(sub)
                  ? sub.map((v) => [path, v, inCollection])
                  : [[path, sub, inCollection]];
      for (const [at, v, coll] of entries) {
        if (!isObj(v)) continue;
        const p = walk(v, at, coll, here);
        if (p) return p;
      }
    }
    return undefined;
  };
  return walk(schema, "", false, undefined);
}

/** The first problem of `keys` (AdapterKeys), or undefined. */
export function keysProblem(keys: unknown): DeclarationProblem | undefined {
  const hint = 'keys: { schema: Type.Object({ command: Type.String(keyRole({ recorded: true, references: "env" })) }) }';
  if (!isObj(keys)) return problem("`keys` must be an object with a `schema`", hint);
  const extra = Object.keys(keys).filter((k) => !["schema", "check", "inApp", "refuse"].includes(k));
  if (extra.length > 0)
    return problem(
      `unknown key${extra.length > 1 ? "s" : ""} ${extra.map((k) => `\`${k}\``).join(", ")} in \`keys\``,
      "`keys` has schema, check, inApp and refuse",
    );
  const schema = keys["schema"];
  if (!isObj(schema) || schema["type"] !== "object" || (schema["properties"] !== undefined && !isObj(schema["properties"]))) {
    return problem('`keys.schema` must be a JSON Schema object of type "object" with `properties`', hint);
  }
  try {
    // Loaded here, not at start-up: only a project's own adapter needs its schema compiled.
    const Validator = (require("ajv") as { default: typeof Ajv }).default;
    new Validator({ strict: false }).compile(schema as object);
  } catch (error) {
    return problem(`\`keys.schema\` is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`, hint);
  }
  const roles = schemaRolesProblem(schema);
  if (roles) return roles;
  if (keys["check"] !== undefined && typeof keys["check"] !== "function")
    return problem("`keys.check` must be a function", "check: (keys, ctx) => [] (problems with a path, message and hint)");
  const inApp = keys["inApp"];
  const props = isObj(schema["properties"]) ? Object.keys(schema["properties"]) : [];
  if (inApp !== undefined && (!isStrings(inApp) || inApp.some((k) => !props.includes(k)))) {
    return problem("`keys.inApp` must list keys of `keys.schema`", 'inApp: ["command", "window_title"]');
  }
  const refuse = keys["refuse"];
  if (
    refuse !== undefined &&
    (!isObj(refuse) ||
      Object.values(refuse).some((r) => !isObj(r) || typeof r["hint"] !== "string" || (r["message"] !== undefined && typeof r["message"] !== "string")))
  ) {
    return problem("`keys.refuse` must map keys to `{ message?, hint }`", 'refuse: { url: { hint: "remove `url:`; the program is started from `command:`" } }');
  }
  return undefined;
}

/** The first problem of `grammar` (AdapterGrammar), or undefined. */
export function grammarProblem(grammar: unknown): DeclarationProblem | undefined {
  const hint = 'grammar: { lacks: ["css", "iframe"], keys: { functionKeys: true } } — see docs/plugins.md, "Grammar"';
  if (!isObj(grammar)) return problem("`grammar` must be an object", hint);
  const known = ["lacks", "cssHint", "refusedVerbs", "keys", "bareDestination", "sugar"];
  const extra = Object.keys(grammar).filter((k) => !known.includes(k));
  if (extra.length > 0)
    return problem(
      `unknown key${extra.length > 1 ? "s" : ""} ${extra.map((k) => `\`${k}\``).join(", ")} in \`grammar\``,
      `\`grammar\` has ${known.join(", ")}`,
    );
  const lacks = grammar["lacks"];
  if (lacks !== undefined && (!isStrings(lacks) || lacks.some((f) => !(GRAMMAR_FORMS as readonly string[]).includes(f)))) {
    return problem(`\`grammar.lacks\` names general forms: ${GRAMMAR_FORMS.join(", ")}`, hint);
  }
  if (grammar["cssHint"] !== undefined && typeof grammar["cssHint"] !== "string") return problem("`grammar.cssHint` must be a string", hint);
  const verbs = grammar["refusedVerbs"];
  if (
    verbs !== undefined &&
    !(
      isObj(verbs) &&
      isStrings(verbs["verbs"]) &&
      verbs["verbs"].every((v) => (GRAMMAR_VERBS as readonly string[]).includes(v)) &&
      typeof verbs["message"] === "string" &&
      typeof verbs["hint"] === "string"
    )
  ) {
    return problem(`\`grammar.refusedVerbs\` is { verbs, message, hint } with verbs among ${GRAMMAR_VERBS.join(", ")}`, hint);
  }
  const keys = grammar["keys"];
  if (keys !== undefined) {
    const words = isObj(keys) ? keys["words"] : undefined;
    const unknown = isObj(keys) ? keys["unknown"] : undefined;
    if (
      !isObj(keys) ||
      (keys["functionKeys"] !== undefined && typeof keys["functionKeys"] !== "boolean") ||
      (words !== undefined && !(isObj(words) && Object.values(words).every((w) => typeof w === "string"))) ||
      (unknown !== undefined && !(isObj(unknown) && typeof unknown["message"] === "string" && typeof unknown["hint"] === "string"))
    ) {
      return problem("`grammar.keys` is { functionKeys?: boolean, words?: { word: key }, unknown?: { message, hint } }", hint);
    }
  }
  const bare = grammar["bareDestination"];
  if (bare !== undefined && !(isObj(bare) && typeof bare["prefix"] === "string"))
    return problem("`grammar.bareDestination` is { prefix }", 'bareDestination: { prefix: "/n" }');
  const sugar = grammar["sugar"];
  if (sugar !== undefined) {
    const ok =
      Array.isArray(sugar) &&
      sugar.every(
        (s) =>
          isObj(s) &&
          typeof s["phrase"] === "string" &&
          /\S/.test(s["phrase"]) &&
          (s["value"] === "number" || s["value"] === "text") &&
          (s["compare"] === "numeric_equals" || s["compare"] === "contains") &&
          isObj(s["reads"]) &&
          typeof s["reads"]["id"] === "string" &&
          typeof s["example"] === "string" &&
          isObj(s["elsewhere"]) &&
          typeof s["elsewhere"]["what"] === "string" &&
          typeof s["elsewhere"]["hint"] === "string",
      );
    if (!ok)
      return problem(
        "`grammar.sugar` is a list of { phrase, value, reads: { id }, compare, example, elsewhere: { what, hint } }",
        'sugar: [{ phrase: "display shows", value: "number", reads: { id: "Result" }, compare: "numeric_equals", example: "display shows 8", elsewhere: { what: "my app\'s sugar", hint: "write `page shows 8`" } }]',
      );
  }
  return undefined;
}

/** Flags `flowproof config <kind>` takes itself: no credential field may be named like one. */
export const CONFIG_OWN_FLAGS = ["user", "password", "show", "delete", "forget", "json", "help"] as const;

/** The first problem of `credentials` (AdapterCredentials), or undefined. */
export function credentialsProblem(c: unknown): DeclarationProblem | undefined {
  const hint =
    'credentials: { name: "Notes", usedBy: "flows without a `sign_on:` sign on with them", key: "sign_on", fields: [{ name: "tenant", placeholder: "id", description: "The tenant to log on to." }] } (the core keeps them), or with where, read, store and delete of its own — see docs/plugins.md, "Credentials"';
  if (!isObj(c)) return problem("`credentials` must be an object", hint);
  const known = ["name", "where", "usedBy", "fields", "key", "checkPlatform", "read", "store", "delete"];
  const extra = Object.keys(c).filter((k) => !known.includes(k));
  if (extra.length > 0)
    return problem(
      `unknown key${extra.length > 1 ? "s" : ""} ${extra.map((k) => `\`${k}\``).join(", ")} in \`credentials\``,
      `\`credentials\` has ${known.join(", ")}`,
    );
  const own = ["where", "read", "store", "delete"].filter((k) => c[k] !== undefined);
  for (const k of ["name", "usedBy", ...(own.length > 0 ? ["where"] : []), ...(c["key"] !== undefined ? ["key"] : [])])
    if (typeof c[k] !== "string" || (c[k] as string).trim() === "") return problem(`\`credentials.${k}\` must be a non-empty string`, hint);
  if (own.length > 0) {
    for (const k of ["read", "store", "delete"]) if (typeof c[k] !== "function") return problem(`\`credentials.${k}\` must be a function`, hint);
    if (c["key"] !== undefined)
      return problem("`credentials.key` is filled only from the core's store: drop it, or drop `where`, `read`, `store` and `delete`", hint);
  }
  if (c["checkPlatform"] !== undefined && typeof c["checkPlatform"] !== "function")
    return problem("`credentials.checkPlatform` must be a function that throws on a platform that cannot keep them", hint);
  const fields = c["fields"];
  if (fields === undefined) return undefined;
  if (
    !Array.isArray(fields) ||
    !fields.every((f) => isObj(f) && typeof f["name"] === "string" && typeof f["placeholder"] === "string" && typeof f["description"] === "string")
  ) {
    return problem("`credentials.fields` is a list of { name, placeholder, description }", hint);
  }
  const names = fields.map((f) => (f as Obj)["name"] as string);
  const bad = names.find((n) => !/^[a-z][a-z0-9-]*$/.test(n) || (CONFIG_OWN_FLAGS as readonly string[]).includes(n));
  if (bad !== undefined)
    return problem(
      `credential field ${JSON.stringify(bad)} cannot be a flag of \`flowproof config\`: a field is lowercase letters, digits and dashes, and not ${CONFIG_OWN_FLAGS.join(", ")}`,
      'fields: [{ name: "tenant", placeholder: "id", description: "The tenant to log on to." }]',
    );
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) return problem(`credential field ${JSON.stringify(twice)} is declared twice`, "give each field its own name");
  return undefined;
}

/** The first problem of `errors` (an adapter's own error codes by name), or undefined. */
export function errorsProblem(errors: unknown, kind: string): DeclarationProblem | undefined {
  const hint = `errors: { "not-signed-on": { meaning: "The console refused the sign-on.", hint: "check the flow's \`sign_on:\`" } } — raised as \`${kind}/not-signed-on\``;
  if (!isObj(errors)) return problem("`errors` must map code names to `{ meaning, hint? }`", hint);
  for (const [name, entry] of Object.entries(errors)) {
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name))
      return problem(`error code name ${JSON.stringify(name)} must be lowercase letters, digits and dashes (the kind is added: \`${kind}/<name>\`)`, hint);
    if (
      !isObj(entry) ||
      typeof entry["meaning"] !== "string" ||
      entry["meaning"].trim() === "" ||
      (entry["hint"] !== undefined && typeof entry["hint"] !== "string") ||
      Object.keys(entry).some((k) => k !== "meaning" && k !== "hint")
    ) {
      return problem(`error code \`${kind}/${name}\` must be \`{ meaning, hint? }\` with a one-sentence meaning`, hint);
    }
  }
  return undefined;
}

/** App kinds no adapter may take: `multi` marks a multi-surface flow (`apps:`) in the trace header. */
export const RESERVED_KINDS = ["multi"] as const;

/** The first problem of an adapter's declarations beyond the shape of kind, capabilities and open (a reserved kind included), or undefined. */
export function declarationsProblem(v: Obj): DeclarationProblem | undefined {
  if (typeof v["kind"] === "string" && (RESERVED_KINDS as readonly string[]).includes(v["kind"])) {
    return problem(
      `the app kind ${JSON.stringify(v["kind"])} is reserved: a trace header's \`app.adapter: multi\` marks a multi-surface flow`,
      'name the kind after your app, e.g. kind: "inventory"',
    );
  }
  if (v["title"] !== undefined && (typeof v["title"] !== "string" || v["title"].trim() === ""))
    return problem("`title` must be a non-empty string", 'title: "the notes app"');
  if (v["steps"] !== undefined && !["ui", "structured", "agent_steps"].includes(v["steps"] as string))
    return problem('`steps` is "ui", "structured" or "agent_steps"', 'steps: "ui"');
  if (v["leakCorpus"] !== undefined && typeof v["leakCorpus"] !== "boolean") return problem("`leakCorpus` must be true or false", "leakCorpus: true");
  if (v["executionArgs"] !== undefined && (typeof v["executionArgs"] !== "function" || v["steps"] !== "agent_steps"))
    return problem('`executionArgs` is a function, for an adapter with `steps: "agent_steps"`', "executionArgs: (keys, steps) => ({ ...keys, steps })");
  const platforms = v["platforms"];
  if (
    platforms !== undefined &&
    !(
      isObj(platforms) &&
      isStrings(platforms["os"]) &&
      platforms["os"].length > 0 &&
      typeof platforms["name"] === "string" &&
      typeof platforms["hint"] === "string" &&
      (platforms["why"] === undefined || typeof platforms["why"] === "string")
    )
  ) {
    return problem(
      "`platforms` is { os: [process.platform values], name, why?, hint }",
      'platforms: { os: ["win32"], name: "Windows", hint: "run it on Windows" }',
    );
  }
  if (v["errors"] !== undefined) {
    const p = errorsProblem(v["errors"], typeof v["kind"] === "string" ? v["kind"] : "<kind>");
    if (p) return p;
  }
  if (v["credentials"] !== undefined) {
    const p = credentialsProblem(v["credentials"]);
    if (p) return p;
  }
  if (v["keys"] !== undefined) {
    const p = keysProblem(v["keys"]);
    if (p) return p;
  }
  if (v["facts"] !== undefined) {
    const p = factsProblem(v["facts"]);
    if (p) return p;
  }
  if (v["grammar"] !== undefined) return grammarProblem(v["grammar"]);
  return undefined;
}

/** The first problem of `facts` (the schema of what an adapter's drivers' `appInfo` reports), or undefined. */
export function factsProblem(facts: unknown): DeclarationProblem | undefined {
  const hint = 'facts: Type.Object({ build: Type.Optional(Type.String()) }) — see docs/plugins.md, "Header blocks"';
  if (!isObj(facts) || facts["type"] !== "object" || !isObj(facts["properties"]))
    return problem('`facts` must be a JSON Schema object of type "object" with `properties`', hint);
  const core = Object.keys(facts["properties"]).filter((k) => CORE_ENTRY_FIELDS.includes(k));
  if (core.length > 0)
    return problem(
      `\`facts\` names ${core.map((k) => `\`${k}\``).join(", ")}, which the core writes in the app entry`,
      `name the fact after what it holds; the core's fields are ${CORE_ENTRY_FIELDS.join(", ")}`,
    );
  try {
    const Validator = (require("ajv") as { default: typeof Ajv }).default;
    new Validator({ strict: false }).compile(facts as object);
  } catch (error) {
    return problem(`\`facts\` is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`, hint);
  }
  return undefined;
}
