// The flow file format as a JSON Schema for editors (schema/flow.schema.json): the core keys declared
// once here with TypeBox, each adapter's keys from the schema it declares (docs/plugins.md); the
// loader's key lists (flow.ts) are held to it by this module's test. No I/O.
// The schema checks structure only; step text is checked by the grammar (`flowproof validate`).
import { Type } from "@sinclair/typebox";
import { keysSchemaOf, propertiesOf, type SurfaceKind } from "./surface-kinds.ts";

const stepText = (description: string) => Type.String({ minLength: 1, description });

const SimpleStepSchema = Type.Union([
  stepText("A plain step, recorded by the authoring model, or by the rules grammar when none is configured (docs/authoring.md)."),
  Type.Object(
    {
      rules: stepText('A step in the deterministic rules grammar, e.g. `Click "Save"` (docs/authoring.md).'),
      effects: Type.Optional(Type.Literal("off", { description: "This step's effect is neither recorded nor checked (docs/flow-format.md, Effects)." })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { assert: stepText("An assertion, e.g. `page shows Saved` (docs/authoring.md); in an agent flow `reply contains <text>` (docs/agents.md).") },
    { additionalProperties: false },
  ),
  Type.Object(
    { prompt: stepText("Agent flows: part of the task given to the agent; every prompt is joined into one (docs/agents.md).") },
    { additionalProperties: false },
  ),
  Type.Object(
    { follow_up: stepText("Agent flows: a later delivery of a scripted conversation, sent once the agent answered the ones before (docs/agents.md).") },
    { additionalProperties: false },
  ),
  Type.Record(Type.String({ pattern: "^assert_[a-z][a-z0-9_]*$" }), Type.Unknown(), {
    minProperties: 1,
    maxProperties: 1,
    description:
      "A structured assertion (assert_api, assert_sql, assert_spreadsheet, assert_screenshot, assert_no_secret_leak, or a plugin's kind); its arguments are checked against the kind's schema when the flow loads (docs/flow-format.md, Out-of-band assertions).",
  }),
]);

/** Blocks nest one level of simple steps here; the loader checks deeper nesting and the conditions' grammar. */
const BlockBody = Type.Array(Type.Unknown(), { minItems: 1, description: "The block's steps." });

export const FlowStepSchema = Type.Union([
  SimpleStepSchema,
  Type.Object(
    {
      repeat: Type.Object(
        {
          until: stepText('A condition read before each pass, e.g. `the "id:status" shows Done` (docs/authoring.md, Conditions).'),
          max: Type.Integer({ minimum: 1, description: "The most passes; exceeding it fails the recording." }),
          steps: BlockBody,
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false, description: "Repeat steps until a condition holds; expanded at record time (docs/flow-format.md, Blocks)." },
  ),
  Type.Object(
    { in: Type.String({ pattern: "^[a-z][a-z0-9_-]*$", description: "A surface named under `apps:`." }), steps: BlockBody },
    { additionalProperties: false, description: "Run the steps on one surface of a multi-surface flow." },
  ),
  Type.Object(
    { when: stepText("A condition read once at record time."), steps: BlockBody },
    { additionalProperties: false, description: "Run steps only when a condition holds at record time." },
  ),
  Type.Object(
    {
      foreach: Type.Object(
        { values: Type.Array(Type.Unknown(), { minItems: 1 }), steps: BlockBody },
        { additionalProperties: false, description: "Repeat steps once per value; `${each}` / `${each.key}` in them. Expanded when the flow loads." },
      ),
    },
    { additionalProperties: false },
  ),
]);

/** The keys every flow may have, whatever its app (the adapters add theirs; see flowFileSchema). */
const CORE_PROPERTIES = {
  name: Type.String({ minLength: 1, description: "The flow's name, shown in reports." }),
  steps: Type.Array(FlowStepSchema, { minItems: 1, description: "One step per item, run in order." }),
  redact: Type.Optional(
    Type.Array(
      Type.Object(
        {
          target: Type.Union([
            Type.Object({ css: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
            Type.Object(
              {
                text: Type.String({
                  minLength: 1,
                  description: "Masks whatever shows this text (an element holding it on a page, its OCR'd lines in a window).",
                }),
              },
              { additionalProperties: false },
            ),
            Type.Object({ rect: Type.Tuple([Type.Number(), Type.Number(), Type.Number(), Type.Number()]) }, { additionalProperties: false }),
          ]),
          mode: Type.Literal("mask"),
        },
        { additionalProperties: false },
      ),
      { description: "Regions masked in every recorded frame, before any PNG is written (docs/flow-format.md). Password fields are always masked." },
    ),
  ),
  control: Type.Optional(
    Type.Object(
      {
        id: Type.String({ pattern: "^[a-z0-9._-]+$", description: "Unique within the suite; the key of `flowproof audit`." }),
        title: Type.Optional(Type.String({ minLength: 1 })),
        description: Type.Optional(Type.String({ minLength: 1 })),
      },
      { additionalProperties: false, description: "The security control this flow proves (docs/suites.md, Controls and audit)." },
    ),
  ),
  exports: Type.Optional(
    Type.Record(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }), Type.Union([Type.String({ minLength: 1 }), Type.Number()]), {
      minProperties: 1,
      description:
        "ENV_NAME: template pairs resolved from this flow's captures when its last step passes; later flows of the suite read them as ${ENV_NAME} (docs/suites.md, Exports).",
    }),
  ),
  skip_unless_env: Type.Optional(
    Type.Array(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }), {
      minItems: 1,
      description: "The flow is skipped (exit 0, a visible skip) unless every one of these variables is set and non-empty.",
    }),
  ),
  expect: Type.Optional(
    Type.Object(
      { fail: Type.String({ minLength: 1, description: "Why the flow is expected to fail: an issue id and a sentence." }) },
      {
        additionalProperties: false,
        description:
          "A known failure (docs/flow-format.md, Known failures): record keeps the trace through the step that fails; replay reports an expected failure while that step still fails, and fails once it passes.",
      },
    ),
  ),
  effects: Type.Optional(
    Type.Union([Type.Literal("on"), Type.Literal("strict"), Type.Literal("off")], {
      description:
        "How replay checks each action's effect (docs/flow-format.md, Effects): `on` (default) fails a step whose recorded navigation, write request, dialog, download or target change does not happen again; `strict` also fails on a missing DOM, focus or GET effect; `off` records and checks none.",
    }),
  ),
};

type Schema = Readonly<Record<string, unknown>>;
const props = (kind: SurfaceKind): Readonly<Record<string, Schema>> => propertiesOf(keysSchemaOf(kind)) as Readonly<Record<string, Schema>>;

/** One schema for a key several kinds take: theirs when they agree, else any of them. */
function oneOf(schemas: readonly Schema[]): Schema {
  const distinct = schemas.filter((x, i) => schemas.findIndex((y) => JSON.stringify(y) === JSON.stringify(x)) === i);
  return distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
}

/**
 * The flow file format for `kinds` (the built-in adapters): the core keys, each adapter's own keys
 * (from its declared schema), `app:` naming a kind (or the mapping form an adapter claims), and
 * `apps:` entries of each kind. A project plugin's app kind and keys are accepted by name and
 * checked when the flow loads.
 */
export function flowFileSchema(kinds: readonly SurfaceKind[]): Schema {
  const adapterKeys = new Map<string, Schema[]>();
  for (const kind of kinds) {
    const inApp = kind.keys?.inApp ?? [];
    for (const [key, schema] of Object.entries(props(kind))) {
      if (key === "url" || inApp.includes(key)) continue;
      adapterKeys.set(key, [...(adapterKeys.get(key) ?? []), schema]);
    }
  }
  const mapping = kinds.find((k) => (k.keys?.inApp?.length ?? 0) > 0);
  const appKinds = kinds.filter((k) => !(k.keys?.inApp ?? []).some((key) => (keysSchemaOf(k)["required"] as string[] | undefined)?.includes(key)));
  const app: Schema = {
    anyOf: [
      ...appKinds.map((k) => ({ const: k.kind, type: "string", description: `${k.title ?? k.kind}${k.platforms ? ` (${k.platforms.name} only)` : ""}.` })),
      { type: "string", pattern: "^[a-z][a-z0-9_-]*$", description: "The app kind of one of the project's adapter plugins (docs/plugins.md)." },
      ...(mapping
        ? [
            {
              type: "object",
              additionalProperties: false,
              required: [...(mapping.keys?.inApp ?? [])],
              properties: Object.fromEntries((mapping.keys?.inApp ?? []).map((k) => [k, props(mapping)[k]])),
              description: `${mapping.title ?? mapping.kind} (\`app: ${mapping.kind}\`), written as its keys.`,
            },
          ]
        : []),
    ],
    description: "Which adapter drives the app (a flow has `app:` or `apps:`).",
  };
  const surface = (kind: SurfaceKind): Schema => {
    const own = Object.entries(props(kind)).filter(
      ([k, v]) => !(kind.keys?.inApp ?? []).includes(k) && (v["flowproof"] as { surface?: boolean } | undefined)?.surface !== false,
    );
    const inApp = kind.keys?.inApp ?? [];
    return {
      type: "object",
      additionalProperties: false,
      required: ["app", ...((keysSchemaOf(kind)["required"] as string[] | undefined) ?? []).filter((k) => !inApp.includes(k))],
      properties: {
        app:
          inApp.length > 0
            ? { type: "object", additionalProperties: false, required: [...inApp], properties: Object.fromEntries(inApp.map((k) => [k, props(kind)[k]])) }
            : { const: kind.kind },
        ...Object.fromEntries(own),
      },
    };
  };
  const apps: Schema = {
    type: "object",
    minProperties: 1,
    description:
      "Named surfaces of a multi-surface flow (instead of `app:`/`url:`); each step then sits in an `in: <surface>` block (docs/flow-format.md, Multi-surface flows).",
    patternProperties: {
      "^[a-z][a-z0-9_-]*$": {
        anyOf: [
          ...kinds.map(surface),
          {
            type: "object",
            required: ["app"],
            properties: { app: { type: "string", pattern: "^[a-z][a-z0-9_-]*$", not: { enum: kinds.map((k) => k.kind) } } },
            description: "A surface of one of the project's adapter plugins; its keys are checked when the flow loads.",
          },
        ],
      },
    },
    additionalProperties: false,
  };
  const { name, ...rest } = CORE_PROPERTIES;
  return {
    type: "object",
    properties: {
      name,
      app,
      url: {
        type: "string",
        minLength: 1,
        description:
          "Where the flow starts: a URL, or a path relative to the flow file; may hold ${VAR} references. Required by the adapters whose keys require it.",
      },
      ...rest,
      apps,
      ...Object.fromEntries([...adapterKeys].map(([k, schemas]) => [k, oneOf(schemas)])),
    },
    required: ["name", "steps"],
    additionalProperties: false,
  };
}

/** The whole document written to schema/flow.schema.json, for the built-in adapters `kinds`. */
export function flowSchemaDocument(kinds: readonly SurfaceKind[]): Record<string, unknown> {
  // A kind whose keys require `url` starts somewhere.
  const starts = kinds.filter((k) => ((keysSchemaOf(k)["required"] as string[] | undefined) ?? []).includes("url"));
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://flowproof.dev/schema/flow.schema.json",
    title: "flowproof flow file (*.flow.yaml)",
    ...flowFileSchema(kinds),
    ...(starts.length > 0
      ? { allOf: starts.map((k) => ({ if: { properties: { app: { const: k.kind } }, required: ["app"] }, then: { required: ["url"] } })) }
      : {}),
    // Exactly one of `app` (one surface) and `apps` (named surfaces).
    oneOf: [{ required: ["app"] }, { required: ["apps"] }],
  };
}
