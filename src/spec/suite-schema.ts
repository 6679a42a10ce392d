// suite.yaml declared once with TypeBox: the JSON Schema written to schema/suite.schema.json for
// editors. The loader (suite.ts) checks the same keys with spans; its test holds the two together.
import { Type } from "@sinclair/typebox";
import { MAX_TIMEOUT_SECONDS } from "../diagnostics/bounds.ts";
import { declaredSuiteKeys } from "./suite.ts";
import { keysSchemaOf, propertiesOf, titleOf, type SurfaceCatalog } from "./surface-kinds.ts";

const command = (description: string) => Type.String({ minLength: 1, description });

export const SuiteFileSchema = Type.Object(
  {
    min_version: Type.Optional(
      Type.String({
        pattern: "^\\d+\\.\\d+\\.\\d+$",
        description: "The oldest flowproof that may run this suite, X.Y.Z; an older engine refuses, naming both versions.",
      }),
    ),
    env: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
        description:
          "Variables for every flow and hook; values may compose ${VAR}. An entry that cannot resolve is skipped with a warning (it fails only a flow that uses it).",
      }),
    ),
    env_from: Type.Optional(
      command(
        "A shell command (sh -c, in the suite directory) run once per run; its stdout must be NAME=VALUE lines (blank lines and # comments allowed). A non-zero exit or a malformed line aborts the run. Precedence: process env < env_from < env.",
      ),
    ),
    before_each: Type.Optional(command("A shell command run before each flow, with FLOWPROOF_SPEC set; failing errors that flow.")),
    after_each: Type.Optional(command("A shell command run after each flow whatever its verdict, with FLOWPROOF_SPEC set; failing errors that flow.")),
    order: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: "Flow files (relative to the suite directory) run first, in this order; the rest follow sorted by path.",
      }),
    ),
    server: Type.Optional(
      Type.Object(
        {
          command: command("Starts the app under test (sh -c, in the suite directory, with the suite env). Stopped when the run ends."),
          url: Type.String({ minLength: 1, description: "Polled until it answers; flows start after that." }),
          timeout_seconds: Type.Optional(
            Type.Number({
              exclusiveMinimum: 0,
              maximum: MAX_TIMEOUT_SECONDS,
              description: "How long to wait for `url` to answer (default 60, at most 86400).",
            }),
          ),
          reuse_existing: Type.Optional(
            Type.Boolean({ description: "When `url` already answers, use that server instead of starting one (default false: an answering url is an error)." }),
          ),
        },
        { additionalProperties: false, description: "The app under test, started before the first flow and stopped at the end (like Playwright's webServer)." },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * The whole document written to schema/suite.schema.json: the core's keys, and the keys the
 * adapters of `catalog` declare (a key's default, a map a `named` key picks from, a `matrix` list) with their schemas.
 * (A project adapter's own suite keys are not in it: flowproof checks them when a flow loads.)
 */
export function suiteSchemaDocument(catalog?: SurfaceCatalog): Record<string, unknown> {
  const declared: Record<string, unknown> = {};
  for (const [key, d] of declaredSuiteKeys(catalog)) {
    const schema = propertiesOf(keysSchemaOf(d.kind))[d.path] ?? {};
    declared[key] =
      d.form === "matrix"
        ? {
            type: "array",
            minItems: 1,
            uniqueItems: true,
            items: { enum: [...d.matrix!.values] },
            description: `Runs every flow of ${titleOf(d.kind)} once per entry (each result named by it); a flow that writes its own \`${d.path}.${d.matrix!.field}\` runs in that one only, and ${d.matrix!.env} (or its flag) narrows the run to one.`,
          }
        : d.form === "default"
          ? { ...schema, description: `The default of a flow's \`${d.path}:\` (${titleOf(d.kind)}) when it writes none; the flow's own wins outright.` }
          : {
              type: "object",
              propertyNames: { pattern: "^[A-Za-z0-9_.-]+$" },
              additionalProperties: schema,
              description: `Named values a flow's \`${d.path}: <name>\` (${titleOf(d.kind)}) picks.`,
            };
  }
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://flowproof.dev/schema/suite.schema.json",
    title: "flowproof suite file (suite.yaml)",
    ...SuiteFileSchema,
    properties: { ...SuiteFileSchema.properties, ...declared },
  };
}
