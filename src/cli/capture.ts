// `flowproof capture --port <N>`: parse flags → commands/capture → print each request (its text,
// or one JSON line with --json) until Ctrl-C, which ends the sink with exit 0. SIGTERM stops it
// too, with the signal's exit code.
import { DEFAULT_CAPTURE_DIR, DEFAULT_CAPTURE_HOST, startCapture } from "../commands/capture.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { CommandArgs } from "./flags.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";

const USAGE = "usage: flowproof capture --port <N> [--host <addr>] [--out <dir>] [--json]";

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|::1|localhost)$/i;

export async function captureCommand(args: CommandArgs<"capture">, io: Io, lifecycle: Lifecycle): Promise<ExitCode> {
  if (args.positional.length > 0) throw new UsageError(`capture takes no positional argument, not ${JSON.stringify(args.positional[0])}`, USAGE);
  const { port, host = DEFAULT_CAPTURE_HOST, out = DEFAULT_CAPTURE_DIR, json } = args.flags;
  if (port === undefined) throw new UsageError("capture needs --port, the port to listen on", USAGE);

  const sink = await startCapture(
    { port, host, out },
    {
      onRequest: (r) => {
        if (json) io.out(JSON.stringify(r.record));
        else io.out(`=== req-${String(r.record.seq).padStart(3, "0")} saved to ${r.record.file}\n${r.text}`);
      },
      onProblem: (message) => io.err(`capture: ${message}`),
    },
  );
  const reach = LOOPBACK.test(host) ? "any program on this machine" : "anything on the network that can reach it";
  io.err(`WARNING: capture is unauthenticated: ${reach} can send it requests, and every one is saved.`);
  io.err(`capture: listening on ${sink.url}, saving requests to ${sink.outDir}; Ctrl-C stops`);

  // Ctrl-C is how a person ends a sink: the intercept turns it into a normal end (exit 0). Any
  // other stop (SIGTERM, SIGHUP) ends it too and keeps the signal's exit code.
  let removeIntercept: (() => void) | undefined;
  let onStop: (() => void) | undefined;
  await new Promise<void>((done) => {
    removeIntercept = lifecycle.intercept(() => done());
    onStop = () => done();
    if (lifecycle.signal.aborted) done();
    else lifecycle.signal.addEventListener("abort", onStop, { once: true });
  });
  removeIntercept?.();
  if (onStop) lifecycle.signal.removeEventListener("abort", onStop);
  await sink.close();
  io.err(`capture: stopped; ${sink.count} ${sink.count === 1 ? "request" : "requests"} saved in ${sink.outDir}`);
  return EXIT.pass;
}
