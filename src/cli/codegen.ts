// `flowproof codegen <url>`: parse flags → commands/codegen → tell the person what to do while the
// window is open, then where the flow is, which variables to set and the `record` command to run.
// Ctrl-C ends the session like closing the window (exit 0); the flow file is complete either way.
import { CodegenSession, type CodegenOptions, type CodegenResult } from "../commands/codegen.ts";
import { displayPath } from "../commands/paths.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs, CommandFlags, FlagsMatchOptions } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";
import { noDisplayReason } from "./keep-open.ts";

const USAGE = "usage: flowproof codegen <url> [-o <flow.yaml>] [--name <flow name>] [--app-url-var <name>] [--record] [--json]";

/** CodegenOptions no flag sets, and why. */
export const CODEGEN_OPTIONS_WITHOUT_FLAG = {
  url: "the positional <url>",
  env: "the process environment",
  log: "each captured step goes to stderr",
  headed: "always shown: a person drives the window",
  lifecycle: "the process lifecycle the CLI's main created, passed to the command",
} as const;

// The flags of `flowproof codegen` are CodegenOptions, field for field.
true satisfies FlagsMatchOptions<CommandFlags<"codegen">, CodegenOptions, "json", keyof typeof CODEGEN_OPTIONS_WITHOUT_FLAG>;

/** A shell-ready `VAR=value` for the origin's variable and `VAR=…` for each secret. */
function assignments(r: CodegenResult, origin: string): string {
  return r.variables.map((v, i) => (i === 0 ? `${v.name}=${origin}` : `${v.name}=…`)).join(" ");
}

/** What the person reads once the session ended. */
export function renderCodegen(r: CodegenResult, origin: string): string[] {
  const path = displayPath(r.flow_path);
  const count = `${r.steps.length} ${r.steps.length === 1 ? "step" : "steps"}`;
  const lines = [`Wrote ${count} to ${path}${r.todos > 0 ? ` (${r.todos} marked # TODO to review)` : ""}`];
  for (const line of r.not_written) lines.push(`Not written: ${line}.`);
  const secrets = r.variables.slice(1);
  if (secrets.length > 0) lines.push(`Set before recording: ${secrets.map((v) => `${v.name} (${v.for})`).join(", ")}; their values were never written.`);
  if (r.record) {
    lines.push(
      r.record.ok
        ? `Recorded it: ${displayPath(r.record.trace_path ?? "")}`
        : `Recording it failed: ${r.record.error ?? "unknown error"}${r.todos > 0 ? ` (see # TODO in ${path})` : ""}`,
    );
  }
  if (!r.record?.ok) lines.push(`Next: ${assignments(r, origin)} flowproof record ${path}`);
  else lines.push(`Next: ${assignments(r, origin)} flowproof run ${path}`);
  return lines;
}

export async function codegenCommand(
  args: CommandArgs<"codegen">,
  io: Io,
  lifecycle: Lifecycle,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ExitCode> {
  const url = args.positional[0];
  if (!url || args.positional.length > 1) throw new UsageError("codegen takes exactly one URL, the page to start at", USAGE);
  const why = noDisplayReason(env);
  if (why)
    throw new UsageError(
      `codegen shows a browser window for you to use, and ${why}`,
      "run it in a desktop session, or under a virtual display: xvfb-run flowproof codegen <url>",
    );
  const { json, ...options } = args.flags;
  const session = await CodegenSession.start({ url, ...options, env, lifecycle, log: (line) => io.err(line) });
  io.err(`[CODEGEN] writing ${displayPath(session.flowPath)}: use the app in the browser window; every action becomes a step.`);
  io.err(
    "[CODEGEN] point at an element and press Alt+A to assert its text (or select text first), Alt+V that it is visible, Alt+U the page URL; Alt+S in a field keeps what you type there secret.",
  );
  io.err("[CODEGEN] close the window (or press Ctrl-C) to finish.");
  // Ctrl-C ends the session as closing the window does; SIGTERM stops it too, keeping the signal's exit code.
  const stop = () => void session.stop();
  const removeIntercept = lifecycle.intercept(stop);
  if (lifecycle.signal.aborted) stop();
  else lifecycle.signal.addEventListener("abort", stop, { once: true });
  let result: CodegenResult;
  try {
    result = await session.done;
  } finally {
    removeIntercept();
    lifecycle.signal.removeEventListener("abort", stop);
  }
  const origin = new URL(url).protocol === "file:" ? "file://" : new URL(url).origin;
  if (json) io.out(JSON.stringify(result, null, 2));
  else for (const line of renderCodegen(result, origin)) io.out(line);
  return result.record && !result.record.ok ? EXIT.failed : EXIT.pass;
}
