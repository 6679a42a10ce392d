// The flow file format as a JSON Schema for editors (schema/flow.schema.json): declared once here
// with TypeBox; the loader's key lists (flow.ts) are held to it by this module's test. No I/O.
// The schema checks structure only; step text is checked by the grammar (`flowproof validate`).
import { Type } from "@sinclair/typebox";

const stepText = (description: string) => Type.String({ minLength: 1, description });

const SimpleStepSchema = Type.Union([
  stepText("A plain step, recorded by the authoring model, or by the rules grammar when none is configured (docs/authoring.md)."),
  Type.Object(
    {
      rules: stepText("A step in the deterministic rules grammar, e.g. `Click \"Save\"` (docs/authoring.md)."),
      effects: Type.Optional(Type.Literal("off", { description: "This step's effect is neither recorded nor checked (docs/flow-format.md, Effects)." })),
    },
    { additionalProperties: false },
  ),
  Type.Object({ assert: stepText("An assertion, e.g. `page shows Saved` (docs/authoring.md); in an agent flow `reply contains <text>` (docs/agents.md).") }, { additionalProperties: false }),
  Type.Object({ prompt: stepText("Agent flows: part of the task given to the agent; every prompt is joined into one (docs/agents.md).") }, { additionalProperties: false }),
  Type.Object({ follow_up: stepText("Agent flows: a later delivery of a scripted conversation, sent once the agent answered the ones before (docs/agents.md).") }, { additionalProperties: false }),
  Type.Record(Type.String({ pattern: "^assert_[a-z][a-z0-9_]*$" }), Type.Unknown(), {
    minProperties: 1,
    maxProperties: 1,
    description: "A structured assertion (assert_api, assert_sql, assert_spreadsheet, assert_screenshot, assert_no_secret_leak, or a plugin's kind); its arguments are checked against the kind's schema when the flow loads (docs/flow-format.md, Out-of-band assertions).",
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
          until: stepText("A condition read before each pass, e.g. `the \"id:status\" shows Done` (docs/authoring.md, Conditions)."),
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

/** `browser:` of a flow, or of one web surface under `apps:`. */
const BrowserSchema = Type.Object(
  {
    viewport: Type.Optional(Type.Object(
      {
        width: Type.Integer({ minimum: 1, maximum: 10000 }),
        height: Type.Integer({ minimum: 1, maximum: 10000 }),
        device_scale_factor: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10 })),
        mobile: Type.Optional(Type.Boolean()),
        touch: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    )),
    user_agent: Type.Optional(Type.String({ minLength: 1 })),
    args: Type.Optional(Type.Array(Type.String({ pattern: "^--" }), { description: "Extra Chromium flags; the flow gets a private browser." })),
    clock: Type.Optional(Type.Object(
      { at: Type.String({ description: "RFC 3339, e.g. 2026-01-15T12:00:00Z (a mid-day time)." }), timezone: Type.Optional(Type.String({ minLength: 1, description: "IANA id, e.g. Europe/Berlin." })) },
      { additionalProperties: false },
    )),
    random: Type.Optional(Type.Object({ seed: Type.Integer({ minimum: 0, maximum: 4294967295 }) }, { additionalProperties: false })),
    downloads_dir: Type.Optional(Type.String({ minLength: 1, description: "Where downloads land, relative to the flow file." })),
    endpoint: Type.Optional(Type.String({ minLength: 1, description: "ws:// or http:// DevTools URL of a running Chromium to use instead of launching one." })),
  },
  { additionalProperties: false, description: "The browser the flow runs in; copied into the trace header (docs/flow-format.md, Shaping the browser)." },
);

export const FlowFileSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, description: "The flow's name, shown in reports." }),
    app: Type.Optional(Type.Union([
      Type.Literal("web", { description: "A page in Chromium." }),
      Type.Literal("api", { description: "No UI: only structured steps (assert_api, assert_sql, …) run." }),
      Type.Literal("agent", { description: "An AI agent, recorded through the model-boundary proxy and replayed from its cassette (docs/agents.md)." }),
      Type.String({ pattern: "^[a-z][a-z0-9_-]*$", description: "`notepad`, `calc`, `sap` (Windows only; docs/windows.md, docs/sap.md), or the app kind of one of the project's adapter plugins (docs/plugins.md)." }),
      Type.Object({
        command: Type.String({ minLength: 1, description: "Any Windows program: its command line (path quoted, arguments verbatim; ${VAR} resolved at launch)." }),
        window_title: Type.String({ minLength: 1, description: "The title of the window to wait for." }),
      }, { additionalProperties: false }),
    ], { description: "Which adapter drives the app (a flow has `app:` or `apps:`)." })),
    url: Type.Optional(Type.String({ minLength: 1, description: "Where the flow starts: a URL, or a path relative to the flow file; may hold ${VAR} references. Required for `app: web`." })),
    connection: Type.Optional(Type.String({ minLength: 1, description: "SAP flows: the SAP Logon entry to open a connection of its own to (omit to attach to a logged-on session; docs/sap.md)." })),
    login: Type.Optional(Type.Object({
      user: Type.String({ minLength: 1 }),
      password: Type.String({ minLength: 1, description: "A ${VAR} reference; never stored." }),
      client: Type.Optional(Type.String()),
      language: Type.Optional(Type.String()),
    }, { additionalProperties: false, description: "SAP flows: the login for `connection:` (docs/sap.md)." })),
    window: Type.Optional(Type.Object({
      x: Type.Optional(Type.Integer()),
      y: Type.Optional(Type.Integer()),
      width: Type.Optional(Type.Integer({ minimum: 1 })),
      height: Type.Optional(Type.Integer({ minimum: 1 })),
    }, { additionalProperties: false, description: "Windows apps: the window's geometry, applied before the first step (docs/windows.md)." })),
    steps: Type.Array(FlowStepSchema, { minItems: 1, description: "One step per item, run in order." }),
    redact: Type.Optional(
      Type.Array(
        Type.Object(
          {
            target: Type.Union([
              Type.Object({ css: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
              Type.Object({ rect: Type.Tuple([Type.Number(), Type.Number(), Type.Number(), Type.Number()]) }, { additionalProperties: false }),
            ]),
            mode: Type.Literal("mask"),
          },
          { additionalProperties: false },
        ),
        { description: "Regions masked in every recorded frame, before any PNG is written (docs/flow-format.md). Password fields are always masked." },
      ),
    ),
    mock: Type.Optional(Type.Array(
      Type.Object(
        {
          url_contains: Type.String({ minLength: 1, description: "Substring of the request URL." }),
          method: Type.Optional(Type.String({ description: "Any method when absent." })),
          status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: "Default 200." })),
          content_type: Type.Optional(Type.String()),
          body: Type.Optional(Type.Unknown({ description: "A string is served verbatim (text/plain), anything else as JSON." })),
        },
        { additionalProperties: false },
      ),
      { description: "Requests answered inside the browser, identically at record and replay (docs/flow-format.md, Shaping the browser)." },
    )),
    session: Type.Optional(Type.Union([
      Type.String({ description: "The name of an identity declared in the governing suite's `identities:`." }),
      Type.Object(
        {
          cookies: Type.Optional(Type.Array(Type.Object(
            { name: Type.String({ minLength: 1 }), value: Type.Union([Type.String(), Type.Number()]), domain: Type.Optional(Type.String()) },
            { additionalProperties: false },
          ))),
          local_storage: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
        },
        { additionalProperties: false, description: "Cookies and localStorage seeded before the first page script runs; values may be ${VAR}, resolved on every run and never stored." },
      ),
    ])),
    browser: Type.Optional(BrowserSchema),
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
        description: "ENV_NAME: template pairs resolved from this flow's captures when its last step passes; later flows of the suite read them as ${ENV_NAME} (docs/suites.md, Exports).",
      }),
    ),
    skip_unless_env: Type.Optional(
      Type.Array(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }), { minItems: 1, description: "The flow is skipped (exit 0, a visible skip) unless every one of these variables is set and non-empty." }),
    ),
    apps: Type.Optional(
      Type.Record(
        Type.String({ pattern: "^[a-z][a-z0-9_-]*$" }),
        Type.Union([
          Type.Object(
            {
              app: Type.Literal("web"),
              url: Type.String({ minLength: 1, description: "Where the surface starts when its first `in:` block runs; may hold ${VAR} references." }),
              browser: Type.Optional(BrowserSchema),
            },
            { additionalProperties: false },
          ),
          Type.Object(
            { app: Type.Literal("api") },
            { additionalProperties: false, description: "No UI: the surface's `in:` blocks hold structured steps only (`assert_api:`, `assert_sql:`, …)." },
          ),
        ]),
        { minProperties: 1, description: "Named surfaces of a multi-surface flow (instead of `app:`/`url:`); each step then sits in an `in: <surface>` block (docs/flow-format.md, Multi-surface flows)." },
      ),
    ),
    agent: Type.Optional(Type.Union([
      Type.Object(
        {
          command: Type.String({ minLength: 1, description: "Run through `sh -c` in the flow's folder, in a process group of its own." }),
          env: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), { description: "Applied last, over the injected variables; may hold ${VAR}." })),
          timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, description: "The flow's bound (default 300)." })),
          allow_egress: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: "Destinations the contained agent may reach over TCP: `host:port`, `ip:port`, `cidr:port`, a bare `host` or `ip` (every port), or a `${VAR}` holding one; everything else is refused and recorded (docs/agents.md, Containment)." })),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          url: Type.String({ minLength: 1, description: "A running agent service; flowproof POSTs {\"prompt\": …} to it." }),
          proxy_port: Type.Integer({ minimum: 1, maximum: 65535, description: "The loopback port its model client is pointed at." }),
          headers: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
          timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
        },
        { additionalProperties: false },
      ),
    ], { description: "Agent flows: the agent under test (docs/agents.md)." })),
    tools: Type.Optional(Type.Array(
      Type.Object({ name: Type.String({ minLength: 1 }), result: Type.Optional(Type.Unknown({ description: "What the model is told the tool answered, at record and replay alike." })) }, { additionalProperties: false }),
      { description: "Agent flows: tool declarations and substituted results." },
    )),
    mcp: Type.Optional(Type.Array(
      Type.Object({
        name: Type.String({ pattern: "^[A-Za-z][A-Za-z0-9_-]*$", description: "Wires the agent through FLOWPROOF_MCP_SERVER_<NAME> (stdio) or FLOWPROOF_MCP_URL_<NAME>." }),
        command: Type.Optional(Type.String({ minLength: 1, description: "A stdio MCP server (started at record only)." })),
        url: Type.Optional(Type.String({ minLength: 1, description: "A streamable-HTTP MCP server (reached at record only)." })),
        port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: "url servers: the stand-in's fixed loopback port." })),
        tools: Type.Optional(Type.Array(
          Type.Object({ name: Type.String({ minLength: 1 }), result: Type.Optional(Type.Unknown({ description: "Answered by the stand-in, never forwarded." })) }, { additionalProperties: false }),
        )),
      }, { additionalProperties: false }),
      { description: "Agent flows: MCP servers recorded as lanes and served from them at replay (docs/agents.md)." },
    )),
    strict: Type.Optional(Type.Boolean({ description: "Agent flows: every tool call must be asserted, in order." })),
    effects: Type.Optional(Type.Union([Type.Literal("on"), Type.Literal("strict"), Type.Literal("off")], {
      description: "How replay checks each action's effect (docs/flow-format.md, Effects): `on` (default) fails a step whose recorded navigation, write request, dialog, download or target change does not happen again; `strict` also fails on a missing DOM, focus or GET effect; `off` records and checks none.",
    })),
    expect: Type.Optional(Type.Object(
      { fail: Type.String({ minLength: 1, description: "Why the flow is expected to fail: an issue id and a sentence." }) },
      { additionalProperties: false, description: "A known failure (docs/flow-format.md, Known failures): record keeps the trace through the step that fails; replay reports an expected failure while that step still fails, and fails once it passes." },
    )),
  },
  { additionalProperties: false },
);

/** The whole document written to schema/flow.schema.json. */
export function flowSchemaDocument(): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://flowproof.dev/schema/flow.schema.json",
    title: "flowproof flow file (*.flow.yaml)",
    ...FlowFileSchema,
    // A web flow starts somewhere.
    if: { properties: { app: { const: "web" } }, required: ["app"] },
    then: { required: ["url"] },
    // Exactly one of `app` (one surface) and `apps` (named surfaces).
    oneOf: [{ required: ["app"] }, { required: ["apps"] }],
  };
}
