// The adapter's part of the plugin contract beyond driving a surface: the flow keys it takes and
// how each travels (trace header, spec, secret), the grammar it speaks, what its steps are, and
// where it runs. Re-exported by api.ts; see docs/plugins.md, "The adapter interface". Types only,
// plus the `keyRole` helper.
import type { TObject } from "@sinclair/typebox";
import type { SurfaceGrammar } from "../grammar/vocabulary.ts";

/**
 * How one flow key (or a key nested in one) travels from the flow file to the adapter. Put it on
 * the key's schema with {@link keyRole}: `Type.String(keyRole({ recorded: true, references: "env" }))`.
 * A key with no role is read from the flow spec at every record and replay, written literally.
 */
export interface KeyRole {
  /**
   * Strings in the value may hold `${VAR}` references, resolved at launch on record and every
   * replay (the values join the run's secrets, so no message shows them). `"captured"`: on an
   * `apps:` surface also `${captured.x}` from earlier blocks, resolved when the surface starts.
   */
  readonly references?: "env" | "captured";
  /**
   * Copied into the trace header as written (references raw): replay opens from the header, not
   * from the (possibly edited) spec. `true` stores it in the app entry under its own name; `as`
   * under another name; `top` (a single-surface flow) beside `app` in the header itself.
   */
  readonly recorded?: true | { readonly as?: string; readonly top?: true };
  /**
   * Holds a secret (a password): never recorded, read from the flow spec at every record and
   * replay, its value (literal or resolved) hidden from every message, trace, report and frame.
   */
  readonly secret?: true;
  /**
   * With `recorded`: replay stops when the spec's value differs from the recorded one (a secret
   * read from the spec must still belong to what was recorded, e.g. a login's user).
   */
  readonly pinned?: true;
  /** A file path: the adapter receives it absolute, resolved against the flow file's directory. */
  readonly path?: "flow-relative";
  /** A governing suite.yaml's key of the same name is the default for a flow that does not write it. */
  readonly suiteDefault?: true;
  /** A string value names an entry of the governing suite's `<named>:` map, copied in when the flow loads. */
  readonly named?: string;
  /**
   * Written at the top level of a multi-surface flow, the value applies to every surface of this
   * adapter (a surface's own value wins outright).
   */
  readonly shared?: true;
  /** `false`: only a single-surface flow takes the key, not an `apps:` entry. */
  readonly surface?: false;
  /**
   * A governing suite's `<matrix.key>:` list (of `matrix.values`) runs every flow of this adapter
   * once per entry, the run of an entry with the environment variable `matrix.env` set to it (as a
   * command-line flag would set it). A flow that writes `<this key>.<matrix.field>` itself runs once,
   * in its own; a run whose environment already sets `matrix.env` runs each flow once, as today.
   */
  readonly matrix?: MatrixRole;
}

/** What a `matrix` key role declares (the web's `browsers: [chromium, firefox]`). */
export interface MatrixRole {
  /** The suite.yaml key holding the list. */
  readonly key: string;
  /** The field of this key an entry stands for (`name` of `browser:`). */
  readonly field: string;
  /** The entries the list may hold. */
  readonly values: readonly string[];
  /** The environment variable a run of one entry sets to it. */
  readonly env: string;
}

/** The JSON Schema keyword a key's role is stored under. */
export const KEY_ROLE = "flowproof";

/** Schema options carrying a key's role; spread them into the TypeBox options of the key's schema. */
export const keyRole = (role: KeyRole): { readonly [KEY_ROLE]: KeyRole } => ({ [KEY_ROLE]: role });

/**
 * One error code an adapter declares: flows and scripts see it as `<kind>/<name>`
 * (`inventory/not-signed-on`) in `--json` output, results and messages, documented by the adapter.
 */
export interface AdapterErrorCode {
  /** One sentence: what the code means, as docs/errors.md says it for the built-in codes. */
  readonly meaning: string;
  /** What to do about it; shown when an error of the code carries no hint of its own. */
  readonly hint?: string;
}

/** A problem an adapter finds in a flow's keys (or a plugin in a step's arguments) at load time. */
export interface ArgumentProblem {
  /** Keys / list indices from the checked mapping to the offending node; empty = the whole mapping. */
  readonly path: readonly (string | number)[];
  /** One sentence: what is wrong. */
  readonly message: string;
  /** What to write instead. */
  readonly hint: string;
  /** Point at the key itself rather than its value (an unknown or misplaced key). */
  readonly at?: "key" | "value";
  /** A stable code from docs/errors.md; default `bad-value`. */
  readonly code?: "bad-value" | "bad-reference" | "missing-key" | "unknown-key" | "unsupported-feature";
}

/** What an adapter's `keys.check` is told besides the keys. */
export interface KeysCheckContext {
  /** Where the keys are: `flow` (a single-surface flow) or `surface` (an `apps:` entry). */
  readonly where: "flow" | "surface";
  /** How messages name the place: "the flow" or "surface `clerk`". */
  readonly name: string;
  /** How messages name a key there: "" in a flow (`window`), "apps.clerk." on a surface (`apps.clerk.window`). */
  readonly prefix: string;
}

/**
 * The flow keys an adapter takes, beside `app` (and `url` when its schema lists it): in a
 * single-surface flow at the top level, and in each `apps:` entry of its kind. Validated when the
 * flow loads with the file, line and column of every problem, and documented from the schema.
 */
export interface AdapterKeys<K = Record<string, unknown>> {
  /** TypeBox object schema of the keys; each property may carry a {@link KeyRole}. `url` is the start page. */
  readonly schema: TObject;
  /**
   * The adapter's own checks, on the keys as written (any JSON, references unresolved: check
   * types before use). Its problems are reported first; the schema's problems are reported for
   * every top-level key it said nothing about, so an adapter can word a key's problems itself.
   */
  readonly check?: (keys: K, ctx: KeysCheckContext) => readonly ArgumentProblem[];
  /**
   * Keys written inside `app:` as a mapping, which then names this adapter:
   * `app: {command: …, window_title: …}`. At most one adapter claims the mapping form.
   */
  readonly inApp?: readonly string[];
  /**
   * This adapter's words for a key it does not take, by key or dotted path (`window.title`):
   * what is wrong and what to write instead. Keys it does not name get a general message.
   */
  readonly refuse?: Readonly<Record<string, { readonly message?: string; readonly hint: string }>>;
}

/**
 * What the steps of a surface are:
 * - `ui` (default): plain, `rules:` and `assert:` steps in the rules grammar, and structured steps;
 * - `structured`: no UI — only structured steps (`assert_api:`, `assert_sql:`, …);
 * - `agent_steps`: the agent step grammar (`prompt:`, `assert_tool_call:`, …); a flow's (or a block's)
 *   steps run as one execution through `AppDriver.runAgent` (docs/agents.md).
 */
export type StepsKind = "ui" | "structured" | "agent_steps";

/** Where an adapter runs; a flow naming it on another OS is refused when it loads (`unsupported-platform`). */
export interface AdapterPlatforms {
  /** `process.platform` values, e.g. `["win32"]`. */
  readonly os: readonly string[];
  /** How messages name them, e.g. "Windows". */
  readonly name: string;
  /** Why, appended to the message, e.g. "SAP GUI Scripting runs only with SAP GUI for Windows". */
  readonly why?: string;
  readonly hint: string;
}

/** An adapter's grammar: the surface's vocabulary without its name (the app kind names it). */
export type AdapterGrammar = Omit<SurfaceGrammar, "name">;

/**
 * One value an adapter's stored credentials hold beside the user and the password (SAP GUI: the
 * client and the logon language): `--<name> <value>` on `flowproof config <kind>`, and the key of
 * its value in the command's `--json` result.
 */
export interface CredentialField {
  /** Lowercase letters, digits and dashes, e.g. "client"; not `user`, `password`, `show`, `delete`, `json` or `help`. */
  readonly name: string;
  /** The flag's value as usage and help write it, e.g. "nnn". */
  readonly placeholder: string;
  /** One sentence for the help and docs, e.g. "The SAP client to log on to." */
  readonly description: string;
}

/** Credentials as an adapter keeps them: the user, the password, and the values of its fields that were given. */
export interface StoredCredentials {
  readonly user: string;
  readonly password: string;
  /** By field name; a field that was not given is absent. */
  readonly fields: Readonly<Record<string, string>>;
}

/**
 * Machine-wide fallback credentials kept in the OS credential store, never in a file, for flows
 * that give no login of their own: `flowproof config <kind> --user <name> [--<field> <value>…] |
 * --show | --forget` (the password only from standard input or a prompt, never printed). An
 * adapter either keeps them itself (`where`, `read`, `store` and `delete`, as the sap adapter does
 * in the Windows Credential Manager) or gives none of the four and the core keeps them: on Linux
 * in the kernel keyring through `keyctl` (docs/plugins.md, "Credentials").
 */
export interface AdapterCredentials {
  /** How messages name them: "SAP" in "Stored SAP fallback credentials for user clerk …". */
  readonly name: string;
  /** Where they are kept, for messages: `Windows Credential Manager, generic credential "flowproof:sap"`. Only with `read`. */
  readonly where?: string;
  /** Who uses them, ending the message after they are stored: "flows and surfaces without their own `login:` log on with them". */
  readonly usedBy: string;
  /** The values they hold beside the user and the password, in the order usage and help list them. */
  readonly fields?: readonly CredentialField[];
  /**
   * The flow key the core fills from its store when a flow (or surface) does not give it: an
   * object `{user, password, <field>…}`, the password registered as a secret. Only for
   * credentials the core keeps.
   */
  readonly key?: string;
  /**
   * Throws the adapter's own coded error (`unsupported-platform`) when `platform` (a
   * `process.platform` value) cannot keep them; `what` names the command for the message
   * ("`flowproof config sap`"). Called before the password is read.
   */
  readonly checkPlatform?: (what: string, platform: string) => void;
  /** The stored credentials, or undefined when none are. */
  read?(): Promise<StoredCredentials | undefined>;
  /** Stores them, replacing any stored before. */
  store?(credentials: StoredCredentials): Promise<void>;
  /** Removes them; nothing stored is no error. */
  delete?(): Promise<void>;
}
