// A FLOWPROOF_*_MS bound read from an environment: a positive whole number of milliseconds a timer
// can hold, or a SpecError naming the variable, what it holds and what to write — never a silent
// default for a value that is set. Pure: the environment is passed in.
import { SpecError, diagnostic, type DiagnosticCode } from "./diagnostic.ts";
import { MAX_TIMEOUT_MS } from "./bounds.ts";

export interface EnvMsOptions {
  /** The bound when the variable is unset or empty; also the example in the hint. */
  readonly fallback: number;
  /** The diagnostic code of a malformed value (default `bad-value`). */
  readonly code?: DiagnosticCode;
}

/**
 * `env[name]` as milliseconds: unset or empty gives `fallback`; anything but a positive whole
 * number (`abc`, `5s`, `1.5`, `0`, ` 250 `, `1e3`) or a bound longer than MAX_TIMEOUT_MS is refused.
 * @example msFromEnv(process.env, "FLOWPROOF_STEP_TIMEOUT_MS", { fallback: 5000 })
 */
export function msFromEnv(env: Readonly<Record<string, string | undefined>>, name: string, options: EnvMsOptions): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return options.fallback;
  const code = options.code ?? "bad-value";
  const ms = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(ms > 0)) {
    throw new SpecError(
      diagnostic(code, `${name} must be a positive whole number of milliseconds, not ${JSON.stringify(raw)}`, { hint: `${name}=${options.fallback}` }),
    );
  }
  if (ms > MAX_TIMEOUT_MS) {
    throw new SpecError(
      diagnostic(code, `${name}=${raw} is longer than the longest bound flowproof can wait, ${MAX_TIMEOUT_MS} ms (24 h)`, {
        hint: `set at most ${MAX_TIMEOUT_MS}, e.g. ${name}=${options.fallback}`,
      }),
    );
  }
  return ms;
}
