// Resolves `${VAR}` and `${captured.name}` references at the moment of use (record and every
// replay). Fails closed: an unset variable or unknown capture is an error naming what was in scope.
import { parseTemplate } from "../grammar/index.ts";
import type { ExecutionContext } from "./context.ts";
import { FlowproofError } from "../diagnostics/diagnostic.ts";

/** A `${…}` reference with no value at execution (`unresolved-reference`). */
export class UnresolvedReferenceError extends FlowproofError {
  constructor(message: string) {
    super({ code: "unresolved-reference", message });
  }
}

/**
 * A `${VAR}` with no value: missing configuration, not a product failure. A step that meets one
 * is errored (exit code 2, never retried), like an unset variable in `url:`.
 */
export class UnsetVariableError extends UnresolvedReferenceError {
  readonly variable: string;
  constructor(variable: string) {
    super(`\${${variable}} is not set; set the environment variable ${variable} before running (flowproof never types the literal reference)`);
    this.variable = variable;
  }
}

export interface Resolved {
  readonly value: string;
  /** True when the text held a `${VAR}` (a possible secret): failure messages must not echo live text. */
  readonly hasEnv: boolean;
}

export function resolveText(raw: string, ctx: Pick<ExecutionContext, "env" | "captures" | "secrets">): Resolved {
  const parsed = parseTemplate(raw);
  if (!parsed.ok) throw new UnresolvedReferenceError(`${parsed.error.message} in ${JSON.stringify(raw)}`);
  let value = "";
  let hasEnv = false;
  for (const part of parsed.value.parts) {
    switch (part.kind) {
      case "literal":
        value += part.text;
        break;
      case "env": {
        const v = ctx.env[part.name];
        if (v === undefined || v === "") {
          throw new UnsetVariableError(part.name);
        }
        ctx.secrets.set(part.name, v);
        hasEnv = true;
        value += v;
        break;
      }
      case "captured": {
        const v = ctx.captures.get(part.name);
        if (v === undefined) {
          const scope = [...ctx.captures.keys()];
          throw new UnresolvedReferenceError(
            `\${captured.${part.name}} was never remembered; ${scope.length > 0 ? `captures in scope: ${scope.join(", ")}` : "no value has been remembered yet"} (add a \`Remember the "…" as ${part.name}\` step before this one)`,
          );
        }
        value += v;
        break;
      }
    }
  }
  return { value, hasEnv };
}
