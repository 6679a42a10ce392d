// A flow's start URL, resolved when its execution opens.
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { resolveText } from "../engine/templates.ts";

/** Resolves the flow's start URL: `${VAR}`s now; a path without a scheme is relative to the flow file. */
export function resolveStartUrl(raw: string, flowPath: string, env: Readonly<Record<string, string | undefined>>, secrets: Map<string, string>): string {
  const value = resolveText(raw, { env, captures: new Map(), secrets }).value;
  if (/^[a-z0-9.-]+:\d+(\/|$)/i.test(value)) {
    throw new SpecError(
      diagnostic("bad-value", `the flow's url ${JSON.stringify(raw)} has a host and port but no scheme`, { hint: `write \`url: http://${raw}\`` }),
    );
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
  return pathToFileURL(resolve(dirname(flowPath), value)).href;
}
