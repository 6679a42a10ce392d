// The trace's seal (the header's `integrity`): the SHA-256 of the whole trace as flowproof writes
// it — header and steps, the seal itself left out — and, when FLOWPROOF_TRACE_KEY is set at record,
// an HMAC-SHA256 of the same text. Every writer seals through `sealOf`; every replaying reader
// judges a trace's seal by one policy (`checkSeal`). The key is a secret: no message holds it.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { TraceError, diagnostic } from "../diagnostics/diagnostic.ts";
import { TraceHeader, TraceStep, type TraceHeader as Header, type TraceStep as Step } from "./schema.ts";
import { stableJson } from "./stable-json.ts";

export const TRACE_KEY_VAR = "FLOWPROOF_TRACE_KEY";
export const ALLOW_UNSEALED_VAR = "FLOWPROOF_ALLOW_UNSEALED";
/** The shortest key accepted: an HMAC key shorter than this is guessable. */
export const MIN_TRACE_KEY_LENGTH = 16;

/**
 * The header line's key order: the format's own fields, with the adapter blocks older traces
 * carried (`session`, `mock`, `browser`) kept where they sat, so every older seal still holds;
 * any other adapter block follows the format's fields, sorted by name.
 */
const HEADER_ORDER = ((core: string[]) => {
  const at = core.indexOf("control");
  return [...core.slice(0, at), "session", "mock", "browser", ...core.slice(at)];
})(Object.keys(TraceHeader.properties));
const STEP_ORDER = Object.keys(TraceStep.properties);

export type Integrity = NonNullable<Header["integrity"]>;

/** Each step as its trace line: its JSON with keys in the format's order. */
export function stepLines(steps: readonly Step[]): string[] {
  return steps.map((s) => stableJson(s, STEP_ORDER));
}

/** The header's line as flowproof writes it (keys in the format's order). */
export function headerLine(header: Header): string {
  return stableJson(header, HEADER_ORDER);
}

/** What the seal covers: the header line without `integrity`, then every step line, joined by newlines. */
export function sealedText(header: Header, steps: readonly Step[]): string {
  const { integrity: _seal, ...rest } = header;
  return [headerLine(rest as Header), ...stepLines(steps)].join("\n");
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const hmacOf = (key: string, text: string) => createHmac("sha256", key).update(text).digest("hex");

/** The seal of a trace: its step count, the SHA-256 of its whole text and, with `key`, its HMAC-SHA256. */
export function sealOf(header: Header, steps: readonly Step[], key?: string): Integrity {
  const text = sealedText(header, steps);
  return { scope: "trace", steps: steps.length, sha256: sha256(text), ...(key !== undefined ? { hmac: hmacOf(key, text) } : {}) };
}

/** How a trace is sealed: whole and signed, whole, the steps only (an older flowproof), or not at all. */
export type SealKind = "signed" | "sealed" | "steps" | "none";

export function sealKind(header: Header): SealKind {
  const seal = header.integrity;
  if (seal === undefined) return "none";
  if (seal.scope !== "trace") return "steps";
  return seal.hmac !== undefined ? "signed" : "sealed";
}

/** Why the trace's text does not match its seal (cut short or edited); undefined when it does or when it has none. */
export function sealProblem(header: Header, steps: readonly Step[]): string | undefined {
  const seal = header.integrity;
  if (seal === undefined) return undefined;
  if (seal.steps !== steps.length)
    return `the trace holds ${steps.length} ${steps.length === 1 ? "step" : "steps"} where its header says ${seal.steps}: it was cut short or edited`;
  if (seal.scope === "trace") {
    if (seal.sha256 !== sha256(sealedText(header, steps)))
      return "the trace is not the one it was recorded with (its SHA-256 differs from its seal's): its header or steps were edited, or it was damaged";
    return undefined;
  }
  // An older seal: the steps' lines only.
  if (seal.sha256 !== sha256(stepLines(steps).join("\n")))
    return "the trace's steps are not the ones it was recorded with (their SHA-256 differs from the header's): it was edited or damaged";
  return undefined;
}

/** How replay judges a trace's seal. */
export interface SealPolicy {
  /** Replay a trace without a whole-trace seal (older traces): `--allow-unsealed` or FLOWPROOF_ALLOW_UNSEALED=1. */
  readonly allowUnsealed: boolean;
  /** FLOWPROOF_TRACE_KEY: record signs with it, replay verifies with it. */
  readonly key?: string;
}

/** FLOWPROOF_TRACE_KEY from `env`: undefined when unset; set but shorter than 16 characters (or empty) is refused. */
export function traceKey(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const key = env[TRACE_KEY_VAR];
  if (key === undefined) return undefined;
  if (key.length < MIN_TRACE_KEY_LENGTH) {
    throw new TraceError(
      diagnostic(
        "trace-signature",
        `${TRACE_KEY_VAR} is set but ${key.length === 0 ? "empty" : `shorter than ${MIN_TRACE_KEY_LENGTH} characters`}: it cannot sign or verify a trace`,
        {
          hint: `set ${TRACE_KEY_VAR} to a random secret of at least ${MIN_TRACE_KEY_LENGTH} characters (e.g. \`openssl rand -hex 32\`), or unset it to record and replay without signatures`,
        },
      ),
    );
  }
  return key;
}

/** The policy `env` and the command's `--allow-unsealed` give. */
export function sealPolicy(env: Readonly<Record<string, string | undefined>>, allowUnsealed = false): SealPolicy {
  const key = traceKey(env);
  const optIn = allowUnsealed || /^(1|true|yes)$/i.test(env[ALLOW_UNSEALED_VAR] ?? "");
  return { allowUnsealed: optIn, ...(key !== undefined ? { key } : {}) };
}

const RESEAL = "`flowproof trace <flow.yaml> --reseal` seals a trace you trust in place";

/**
 * Judges a whole trace's seal by `policy` (its text already matches the seal it has: `sealProblem`):
 * an unsealed or steps-only trace is refused unless the policy allows it; with a key, an unsigned
 * trace or one whose signature does not match is refused. Returns warnings (a signed trace
 * replayed without the key). `label` names the trace.
 */
export function checkSeal(header: Header, steps: readonly Step[], policy: SealPolicy, label: string, flowHint = "<flow.yaml>"): string[] {
  const kind = sealKind(header);
  const rerecord = `record it again: flowproof record ${flowHint}`;
  if (policy.key !== undefined) {
    if (kind !== "signed") {
      throw new TraceError(
        diagnostic("trace-signature", `${label} is not signed, but ${TRACE_KEY_VAR} is set: only a trace recorded (or resealed) with the key replays`, {
          hint: `${rerecord} with ${TRACE_KEY_VAR} set; or, for a trace you trust, \`flowproof trace ${flowHint} --reseal\` with ${TRACE_KEY_VAR} set`,
        }),
      );
    }
    const expected = Buffer.from(hmacOf(policy.key, sealedText(header, steps)), "hex");
    const given = Buffer.from(header.integrity?.hmac ?? "", "hex");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new TraceError(
        diagnostic(
          "trace-signature",
          `${label}'s signature (integrity.hmac) does not match ${TRACE_KEY_VAR}: the trace was edited after it was signed, or signed with another key`,
          {
            hint: `${rerecord} with the team's ${TRACE_KEY_VAR} set; never edit a trace by hand`,
          },
        ),
      );
    }
    return [];
  }
  if (kind === "none" || kind === "steps") {
    if (policy.allowUnsealed) return [];
    const what =
      kind === "none"
        ? `${label} is not sealed (its header has no \`integrity\`): nothing shows that its header and steps are the ones flowproof recorded (an older flowproof wrote it, or its seal was removed)`
        : `${label} is sealed by an older flowproof: its seal covers the steps only, so an edit of its header (app, expect, mock, session, …) would go unnoticed`;
    throw new TraceError(
      diagnostic("unsealed-trace", what, {
        hint: `${rerecord}; or replay it as it is with --allow-unsealed (or ${ALLOW_UNSEALED_VAR}=1) if you trust it; ${RESEAL}`,
      }),
    );
  }
  if (kind === "signed") return [`${label} is signed, but ${TRACE_KEY_VAR} is not set, so its signature was not verified (set ${TRACE_KEY_VAR} to verify it)`];
  return [];
}
