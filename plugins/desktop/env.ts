// Millisecond bounds a desktop adapter reads from FLOWPROOF_* environment variables. A variable that
// is set must hold a usable bound: anything else stops the launch with an error naming the
// variable, what it holds and what to write (never a silent default). Pure.
import { FlowproofError, MAX_TIMEOUT_MS } from "../../src/plugins/api.ts";

/**
 * `env[name]` as a whole number of milliseconds from 1 to MAX_TIMEOUT_MS, or `fallback` when it is
 * unset or empty. Throws `bad-value` for any other value.
 */
export function msFromEnv(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const ms = Number(raw.trim());
  if (Number.isInteger(ms) && ms > 0 && ms <= MAX_TIMEOUT_MS) return ms;
  throw new FlowproofError({
    code: "bad-value",
    message: `${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (24 h), not ${JSON.stringify(raw)}`,
    hint: `${name}=${fallback}, or unset it for the default (${fallback} ms)`,
  });
}
