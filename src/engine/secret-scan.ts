// `assert_no_secret_leak`: watches the run's closed corpus (the surface text at each step
// boundary, assert_api response bodies) for the resolved values of the named variables. Keeps
// only WHERE a value was seen, never the text; messages name variables, never values.
import type { AppDriver } from "../plugins/api.ts";
import type { TraceStep } from "../trace/schema.ts";

/** A secret shorter than this matches by accident; the step refuses to scan for it. */
export const MIN_SECRET_LENGTH = 4;

export interface LeakHit {
  readonly variable: string;
  /** Where the value surfaced, e.g. `surface text after step s0003`. */
  readonly where: string;
}

/** The variables named by every `assert_no_secret_leak` step of `steps`, in first-seen order. */
export function leakVariables(steps: readonly TraceStep[]): string[] {
  const out: string[] = [];
  for (const s of steps) {
    if (s.action.type !== "assert" || s.action.params["kind"] !== "no_secret_leak") continue;
    const vars = s.action.params["vars"];
    if (Array.isArray(vars)) for (const v of vars) if (typeof v === "string" && !out.includes(v)) out.push(v);
  }
  return out;
}

export class LeakWatch {
  readonly #values = new Map<string, string>();
  readonly #hits: LeakHit[] = [];
  /** Variables a passed scan step vouched for: a later hit fails the run. */
  readonly #vouched = new Set<string>();

  /** Watches each variable whose value is set and long enough; the values join `secrets` (redacted everywhere). */
  constructor(vars: readonly string[], env: Readonly<Record<string, string | undefined>>, secrets: Map<string, string>) {
    for (const v of vars) {
      const value = env[v];
      if (value === undefined || value === "") continue;
      secrets.set(v, value);
      if (value.length >= MIN_SECRET_LENGTH) this.#values.set(v, value);
    }
  }

  /** Whether any secret is watched (a run without scan steps pays nothing). */
  get active(): boolean {
    return this.#values.size > 0;
  }

  /** Checks one text of the corpus; only the fact of a match is kept. */
  observe(where: string, text: string): void {
    for (const [variable, value] of this.#values) if (text.includes(value)) this.#hit(variable, where);
  }

  /** Reads the surface's text once per watched value (a no-op on a surface without text). */
  async scanSurface(driver: AppDriver, where: string): Promise<void> {
    for (const [variable, value] of this.#values) {
      const reading = await driver.check([], { kind: "text_contains", text: value }).catch(() => undefined);
      if (reading?.pass) this.#hit(variable, where);
    }
  }

  #hit(variable: string, where: string): void {
    if (!this.#hits.some((h) => h.variable === variable && h.where === where)) this.#hits.push({ variable, where });
  }

  /** The scan step's answer for `vars` (in their order): undefined when none leaked so far; else the failure. */
  check(vars: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
    const problems: string[] = [];
    for (const v of vars) {
      const value = env[v];
      if (value === undefined || value === "") problems.push(`\${${v}} is not set; set the environment variable ${v} so the run can be scanned for it`);
      else if (value.length < MIN_SECRET_LENGTH) problems.push(`\${${v}} is too short to scan for: a secret must be at least ${MIN_SECRET_LENGTH} characters`);
    }
    if (problems.length > 0) return problems.join("; ");
    const leaked = this.#describe(vars);
    if (leaked) return leaked;
    for (const v of vars) this.#vouched.add(v);
    return undefined;
  }

  /** After the run: a leak of a vouched-for variable seen after its scan step passed (whole-run scope). */
  lateLeak(): string | undefined {
    return this.#describe([...this.#vouched]);
  }

  #describe(vars: readonly string[]): string | undefined {
    const parts: string[] = [];
    for (const v of vars) {
      const where = this.#hits.filter((h) => h.variable === v).map((h) => h.where);
      if (where.length > 0) parts.push(`\${${v}} surfaced in ${where.join("; ")}`);
    }
    return parts.length > 0 ? `secret leak: ${parts.join(", and ")}` : undefined;
  }
}
