// The per-flow execution context passed to every handler: the driver, the values in scope, the
// clock and the secret redactor. One context per flow execution; the only module-level state is
// a cache of compiled secret patterns.
import type { AgentTurn, AppDriver, AssertionPlugin, RunMode } from "../plugins/api.ts";
import type { LeakWatch } from "./secret-scan.ts";
import type { FilePaths } from "../plugins/file-paths.ts";
import type { TraceStep } from "../trace/schema.ts";
import { FlowproofError, type Diagnostic } from "../diagnostics/diagnostic.ts";

/** The flow's `effects:` (default `on`). */
export type EffectPolicy = "on" | "strict" | "off";

/** How the step loop treats action effects in one execution (see effects.ts). */
export interface EffectSettings {
  /** Record observes and writes the effect; replay observes and compares. */
  readonly mode: "record" | "replay";
  readonly policy: EffectPolicy;
}

/** A monotonic clock in milliseconds; injected so tests and the recorder own time. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface ExecutionContext {
  readonly driver: AppDriver;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `${captured.name}` values; flow-scoped, never persisted. */
  readonly captures: Map<string, string>;
  readonly clock: Clock;
  /** The flow's start URL (resolved); `Go to /path` is relative to it. */
  readonly baseUrl: string;
  /** Resolved secret values (from `${VAR}`) seen so far, for redaction of every output. */
  readonly secrets: Map<string, string>;
  /** Bound for a page navigation (Go to, Reload). */
  readonly navigationTimeoutMs: number;
  /** What structured steps (`assert_xxx`, `assert_no_secret_leak`) need; absent = none can run. */
  readonly structured?: StructuredContext;
  /** Whether action effects are observed (record) and compared (replay); absent = neither. */
  readonly effects?: EffectSettings;
  /** Where the flow may read and write files (its roots); absent = anywhere. */
  readonly paths?: FilePaths;
  /** Recording only: params a step learned while it ran (the options a Select chose), by step id, merged into its trace step. */
  readonly learned?: Map<string, Readonly<Record<string, unknown>>>;
  /**
   * The run's stop request (its lifecycle's signal, passed by the command): once aborted, the
   * running step ends as interrupted and no further step starts. Absent = nothing stops the steps.
   */
  readonly stop?: AbortSignal;
}

/** The trace steps with what their recording learned (`ctx.learned`) merged into their action's params. */
export function stepsWithLearned(steps: readonly TraceStep[], learned: ReadonlyMap<string, Readonly<Record<string, unknown>>> | undefined): TraceStep[] {
  if (!learned || learned.size === 0) return [...steps];
  return steps.map((s) => {
    const more = learned.get(s.id);
    return more ? ({ ...s, action: { ...s.action, params: { ...s.action.params, ...more } } } as TraceStep) : s;
  });
}

/** The run-wide facts structured steps use: the assertion kinds, the mode, where files go, the leak scan. */
export interface StructuredContext {
  /** Assertion plugins (built-in and the project's) by step key. */
  readonly assertions: ReadonlyMap<string, AssertionPlugin>;
  readonly mode: RunMode;
  /** Directory of the flow file. */
  readonly baseDir: string;
  /** The flow file's stem (`checkout` for `checkout.flow.yaml`). */
  readonly flowStem: string;
  /** Where this execution's evidence files go. */
  readonly artifactDir: string;
  readonly log: (line: string) => void;
  /** The secrets `assert_no_secret_leak` steps of this run watch for. */
  readonly leaks: LeakWatch;
  /** `heal` of an agent flow: each agent run's recorded cassette, by step id (served until the first divergence). */
  readonly prior?: ReadonlyMap<string, readonly AgentTurn[]>;
}

/**
 * Page text a surface reports for a message is wrapped in these two characters, bounded but not
 * yet shortened (see plugins/web/injected/page-api.ts): `redact` hides the secrets first and only
 * then shortens each wrapped text, so a cut can never leave a secret's prefix behind.
 */
export const SHOWN_TEXT_OPEN = "\uE000";
export const SHOWN_TEXT_CLOSE = "\uE001";
/** A reference held while `redact` works: this character, then one private-use character numbering it. */
const REF_OPEN = "\uE002";
const REF_BASE = 0xf000;
const REF_HELD = /\uE002([\uF000-\uF8FF])/g;
/** Characters of one page text a message keeps, counted after redaction. */
export const SHOWN_TEXT_MAX = 120;

/** Secrets shorter than this are too common to redact without mangling ordinary text (or mask in a frame). */
export const MIN_SECRET = 3;
/** An encoded secret is redacted by its base64 inner groups only when they are at least this long. */
const MIN_BASE64 = 8;

const NAMED_ENTITIES: Readonly<Record<string, readonly string[]>> = {
  "&": ["&amp;"],
  "<": ["&lt;"],
  ">": ["&gt;"],
  '"': ["&quot;"],
  "'": ["&apos;"],
  " ": ["&nbsp;", "+"],
  "\u00a0": ["&nbsp;"],
};

const escapeRe = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** Every way one character of a secret can be written in a text artifact. */
function charForms(ch: string): string[] {
  const cp = ch.codePointAt(0)!;
  const bytes = [...new TextEncoder().encode(ch)].map((b) => b.toString(16).padStart(2, "0"));
  const forms = new Set<string>([
    ch,
    ...(NAMED_ENTITIES[ch] ?? []),
    `&#${cp};`,
    `&#x${cp.toString(16)};`,
    bytes.map((b) => `%${b}`).join(""),
    bytes.map((b) => `%25${b}`).join(""),
    JSON.stringify(ch).slice(1, -1),
    [...Array(ch.length).keys()].map((i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""),
  ]);
  if (ch === "/") forms.add("\\/");
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * One secret written any way a text artifact can hold it: as is, in any letter case, HTML-escaped
 * (named, decimal or hex entities, in text or attribute context), URL-encoded (`%XX`, form `+`,
 * double-encoded) or JSON-escaped, each character independently, so mixed forms match too.
 */
function secretPattern(value: string): RegExp {
  return new RegExp([...value].map(charPattern).join(""), "gi");
}

function charPattern(ch: string): string {
  return `(?:${charForms(ch).map(escapeRe).join("|")})`;
}

/** The longest secret prefix `cutPattern` looks for. */
const MAX_CUT_PREFIX = 256;

/**
 * A secret cut short by someone else's truncation (a browser's console preview, a dialog
 * message): any prefix of three characters or more, in any form, ending in an ellipsis.
 */
function cutPattern(value: string): RegExp {
  return new RegExp(`${prefixesOf(value, MIN_SECRET, MAX_CUT_PREFIX)}(?:…|\\\\u2026|&hellip;|\\.\\.\\.)`, "gi");
}

/** Any prefix of `value` from `least` characters up to all but its last (and at most `most`), each character in any of its forms, as a pattern. */
function prefixesOf(value: string, least: number, most: number): string {
  const chars = [...value].slice(0, Math.min(value.length - 1, most)).map(charPattern);
  let tail = "";
  for (let i = chars.length - 1; i >= least; i--) tail = `(?:${chars[i]}${tail})?`;
  return `${chars.slice(0, least).join("")}${tail}`;
}

/**
 * A secret caught half typed: any prefix of at least half the secret (and MIN_SECRET characters),
 * in any form. A page that echoes a field as it is typed into (a console line per key, a live
 * preview) shows every prefix of a secret typed key by key; half a secret is the same share the
 * frames mask as a piece of one (docs/flow-format.md).
 */
function typedPattern(value: string): RegExp | undefined {
  const least = Math.max(MIN_SECRET, Math.ceil([...value].length / 2));
  return least < [...value].length ? new RegExp(prefixesOf(value, least, least + MAX_CUT_PREFIX), "gi") : undefined;
}

/**
 * The base64 forms of a secret (standard and URL-safe): the whole value's encoding, and for each
 * of the three byte alignments the groups that encode only the secret's bytes, which appear in
 * the encoding of any text holding it at that alignment.
 */
function base64Forms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const forms = new Set<string>();
  const whole = Buffer.from(bytes).toString("base64");
  forms.add(whole);
  forms.add(whole.replace(/=+$/, ""));
  for (let skip = 0; skip < 3; skip++) {
    const groups = Math.floor((bytes.length - skip) / 3);
    const inner = Buffer.from(bytes.subarray(skip, skip + groups * 3)).toString("base64");
    if (inner.length >= MIN_BASE64) forms.add(inner);
  }
  return [...forms].flatMap((f) => [f, f.replace(/\+/g, "-").replace(/\//g, "_")]).sort((a, b) => b.length - a.length);
}

interface SecretForms {
  readonly pattern: RegExp;
  readonly base64: readonly string[];
  readonly cut: RegExp | undefined;
  readonly typed: RegExp | undefined;
}

/** Compiled forms of recent secret values: a debug snapshot redacts every node of a page. */
const compiled = new Map<string, SecretForms>();
const COMPILED_MAX = 64;

function formsOf(value: string): SecretForms {
  let forms = compiled.get(value);
  if (!forms) {
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    forms = {
      pattern: secretPattern(value),
      base64: base64Forms(value),
      cut: value.length > MIN_SECRET ? cutPattern(value) : undefined,
      typed: typedPattern(value),
    };
    compiled.set(value, forms);
  }
  return forms;
}

/** Shortens one page text to `max` characters without cutting a `${NAME}` reference in two. */
export function shortenShown(text: string, max = SHOWN_TEXT_MAX): string {
  if (text.length <= max) return text;
  let cut = max;
  for (const ref of text.matchAll(/\$\{[^}]*\}/g)) {
    if (ref.index < cut && ref.index + ref[0].length > cut) cut = ref.index;
  }
  return `${text.slice(0, cut)}…`;
}

/**
 * Replaces every resolved `${VAR}` value in `text` by its reference, in every form the value can
 * take in a text artifact (see `secretPattern`, `base64Forms`), cut short by a truncation made
 * elsewhere (`cutPattern`) or half typed (`typedPattern`, as `${VAR}…`); then shortens each page text the surface wrapped (SHOWN_TEXT_OPEN …
 * SHOWN_TEXT_CLOSE). The one redaction for every text that is written or printed: step details,
 * errors, debug files, logs.
 */
export function redact(text: string, secrets: ReadonlyMap<string, string>): string {
  // References already in the text (`${CLERK_USER}` as written, `${captured.x}`) and those put in
  // on the way stand in as placeholders until the end, so a value that is part of a variable's
  // name (CLERK_USER=clerk) never splits a reference, and redacting twice changes nothing.
  const refs: string[] = [];
  const held = new Map<string, string>();
  const hold = (ref: string): string => {
    let token = held.get(ref);
    if (token === undefined) {
      token = `${REF_OPEN}${String.fromCharCode(REF_BASE + refs.push(ref) - 1)}`;
      held.set(ref, token);
    }
    return token;
  };
  let out = text.replace(/\$\{(captured\.[A-Za-z_][\w.]*|[A-Za-z_]\w*)\}/g, (ref, name: string) =>
    name.startsWith("captured.") || secrets.has(name) ? hold(ref) : ref,
  );
  const entries = [...secrets.entries()].filter(([, v]) => v.length >= MIN_SECRET).sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of entries) {
    const ref = `\${${name}}`;
    const forms = formsOf(value);
    out = out.replace(forms.pattern, () => hold(ref));
    for (const form of forms.base64) out = out.split(form).join(hold(ref));
    if (forms.cut) out = out.replace(forms.cut, () => `${hold(ref)}…`);
    if (forms.typed) out = out.replace(forms.typed, () => `${hold(ref)}…`);
  }
  if (refs.length > 0) out = out.replace(REF_HELD, (_, i: string) => refs[i.charCodeAt(0) - REF_BASE]!);
  if (!out.includes(SHOWN_TEXT_OPEN) && !out.includes(SHOWN_TEXT_CLOSE)) return out;
  return out.replace(/\uE000([^\uE000\uE001]*)\uE001/g, (_, shown: string) => shortenShown(shown)).replace(/[\uE000\uE001]/g, "");
}

/**
 * `error` with every secret redacted from what it says (message, hint, notes): for an error raised
 * outside the step loop, such as an adapter's launch error that quotes the resolved command or the
 * program's stderr. A FlowproofError keeps its code and name; the original is not kept as the cause,
 * since it still holds the values.
 */
export function redactError(error: unknown, secrets: ReadonlyMap<string, string>): unknown {
  if (secrets.size === 0) return error;
  if (error instanceof FlowproofError) {
    const clean = (d: Diagnostic): Diagnostic => ({
      ...d,
      message: redact(d.message, secrets),
      ...(d.hint !== undefined ? { hint: redact(d.hint, secrets) } : {}),
      ...(d.notes ? { notes: d.notes.map((n) => ({ ...n, message: redact(n.message, secrets) })) } : {}),
    });
    const copy = new FlowproofError(error.diagnostics.map(clean));
    copy.name = error.name;
    return copy;
  }
  if (error instanceof Error) {
    // A plain Error on purpose: the masked copy of an error that was not flowproof's own keeps its kind.
    const copy = new Error(redact(error.message, secrets));
    copy.name = error.name;
    return copy;
  }
  return typeof error === "string" ? redact(error, secrets) : error;
}
