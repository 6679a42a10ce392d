// The process's stop request and everything that must stop with it. SIGINT/SIGTERM (or a closed
// MCP connection) abort `signal`: the step loop ends the running flows at once, which then close
// their browsers and write their results as usual. Every browser session, app server and child
// registers here, so a forced exit (second signal, grace period over, process exit) still leaves
// no process behind. The entry (the CLI's main, the MCP server, a library call) creates one and
// passes it down through the run context; the CLI wires the process's signals to its one.

import { AsyncLocalStorage } from "node:async_hooks";

export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/** Exit code of a process stopped by `signal` (128 + the signal's number, as shells report it). */
export const SIGNAL_EXIT_CODE: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export interface StopRequest {
  /** What asked the process to stop, for messages: `SIGINT`, `SIGTERM`, `the MCP client closed stdin`. */
  readonly reason: string;
  /** The signal, when a signal asked. */
  readonly signal?: StopSignal;
}

export interface Owned {
  /** Stops it and waits (close a browser, end a server's process group). */
  readonly stop: () => Promise<void> | void;
  /** Last resort, synchronous: kills it at process exit when `stop` never ran or did not finish. */
  readonly kill?: () => void;
}

export class Lifecycle {
  readonly #controller = new AbortController();
  /** The stop of the work running in `scoped` (one MCP tool call), when there is one. */
  readonly #scope = new AsyncLocalStorage<AbortSignal>();
  readonly #owned = new Set<Owned>();
  readonly #interceptors: ((request: StopRequest) => void)[] = [];
  #request: StopRequest | undefined;

  /** True while no browser, server or child is registered to be stopped with the process. */
  get ownsNothing(): boolean {
    return this.#owned.size === 0;
  }

  /** Aborted once the process was asked to stop; what runs flows checks it between and during steps. */
  get signal(): AbortSignal {
    return this.#scope.getStore() ?? this.#controller.signal;
  }

  /** Why the process (or, inside `scoped`, that piece of work) is stopping, or undefined while it is not. */
  get stopRequest(): StopRequest | undefined {
    const scoped = this.#scope.getStore();
    return this.#request ?? (scoped?.aborted ? (scoped.reason as StopRequest) : undefined);
  }

  /**
   * Runs `work` with a stop of its own: inside it, `signal` aborts when the process stops or when
   * `stop` aborts (an MCP client cancelling one tool call), with `reason`; other work goes on.
   */
  async scoped<T>(stop: AbortSignal, reason: string, work: () => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onProcess = () => controller.abort(this.#controller.signal.reason);
    // A stop that comes with the whole process stopping (the MCP connection closing aborts its calls
    // first) reports the process's reason: the scoped one applies only when the process goes on.
    const onStop = () =>
      setTimeout(() => {
        if (!controller.signal.aborted) controller.abort(this.#controller.signal.aborted ? this.#controller.signal.reason : ({ reason } satisfies StopRequest));
      }, 0);
    if (this.#controller.signal.aborted) onProcess();
    else if (stop.aborted) controller.abort({ reason } satisfies StopRequest);
    this.#controller.signal.addEventListener("abort", onProcess, { once: true });
    stop.addEventListener("abort", onStop, { once: true });
    try {
      return await this.#scope.run(controller.signal, work);
    } finally {
      this.#controller.signal.removeEventListener("abort", onProcess);
      stop.removeEventListener("abort", onStop);
    }
  }

  /**
   * Registers something that must not outlive the process. Returns its release: call it once the
   * thing was stopped the normal way.
   */
  own(owned: Owned): () => void {
    this.#owned.add(owned);
    return () => {
      this.#owned.delete(owned);
    };
  }

  /** How many owned things are still running. */
  get ownedCount(): number {
    return this.#owned.size;
  }

  /**
   * While `handler` is registered, a SIGINT goes to it instead of stopping the process
   * (`--keep-open`: Ctrl-C ends the wait for a person, not the run). Returns its removal.
   */
  intercept(handler: (request: StopRequest) => void): () => void {
    this.#interceptors.push(handler);
    return () => {
      const i = this.#interceptors.lastIndexOf(handler);
      if (i >= 0) this.#interceptors.splice(i, 1);
    };
  }

  /**
   * Asks the process to stop. Returns "intercepted" when a waiting point took the request,
   * "stopping" for the first request, "again" when the process was already stopping.
   */
  requestStop(request: StopRequest): "intercepted" | "stopping" | "again" {
    const interceptor = this.#interceptors.at(-1);
    if (interceptor && !this.#request && request.signal === "SIGINT") {
      interceptor(request);
      return "intercepted";
    }
    if (this.#request) return "again";
    this.#request = request;
    this.#controller.abort(request);
    return "stopping";
  }

  /** Stops everything still owned, together; each stop gets at most `boundMs`. */
  async stopAll(boundMs: number): Promise<void> {
    const all = [...this.#owned];
    await Promise.all(
      all.map(async (o) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const bound = new Promise<false>((done) => {
          timer = setTimeout(() => done(false), boundMs);
        });
        try {
          const finished = await Promise.race([
            Promise.resolve()
              .then(o.stop)
              .then(() => true),
            bound,
          ]);
          // One that did not finish stays owned, so killAll still reaches it.
          if (finished) this.#owned.delete(o);
        } catch {
          // A stop that failed leaves the thing owned, so killAll still reaches it.
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }

  /** Synchronously kills everything still owned that can be killed (the process is exiting). */
  killAll(): void {
    for (const o of this.#owned) {
      try {
        o.kill?.();
      } catch {
        // Already gone: nothing left to kill.
      }
    }
  }

  /** The exit code for a run that would otherwise exit with `code`: 130/143 when a signal stopped it. */
  exitCode(code: number): number {
    const signal = this.#request?.signal;
    return signal ? SIGNAL_EXIT_CODE[signal] : code;
  }
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Runs `work`, which starts no browser, server or child, with SIGINT, SIGTERM and SIGHUP at their
 * default action while the process owns nothing: a long synchronous stretch (reading and checking
 * a large document) runs no handler until it ends, so the signal ends the process at once instead,
 * as it would any program with nothing to clean up. The handlers are back once `work` settles.
 */
export async function withDefaultStopSignals<T>(lifecycle: Lifecycle, work: () => Promise<T>): Promise<T> {
  if (!lifecycle.ownsNothing || lifecycle.signal.aborted) return work();
  const saved = STOP_SIGNALS.map((signal) => [signal, process.listeners(signal)] as const);
  for (const [signal, listeners] of saved) for (const l of listeners) process.removeListener(signal, l);
  try {
    return await work();
  } finally {
    for (const [signal, listeners] of saved) for (const l of listeners) process.on(signal, l);
  }
}

export interface StopSignalOptions {
  /** One line per signal, for the person who sent it (stderr). */
  readonly notify: (line: string) => void;
  /** How long the orderly stop may take before the process is forced down. */
  readonly graceMs: number;
  /** Ends the process with `code` once what is owned was killed (the CLI flushes its output first). */
  readonly exit: (code: number) => void | Promise<void>;
}

/** A repeated signal this soon after the first is a duplicate delivery of the same request. */
const SAME_REQUEST_MS = 500;

/** Bound on each owned thing's stop when the process is forced down. */
const FORCED_STOP_MS = 2_000;

/**
 * SIGINT, SIGTERM and SIGHUP ask `lifecycle` to stop; a second signal, or the grace period
 * running out, kills what is owned and exits with 130/143/129. Owned things are also killed at process exit.
 * Returns the function that removes the handlers.
 */
export function handleStopSignals(lifecycle: Lifecycle, options: StopSignalOptions): () => void {
  let forcing = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const force = async (signal: StopSignal) => {
    if (forcing) return;
    forcing = true;
    await lifecycle.stopAll(FORCED_STOP_MS);
    lifecycle.killAll();
    await options.exit(lifecycle.exitCode(SIGNAL_EXIT_CODE[signal]));
  };
  let firstAt = 0;
  const on = (signal: StopSignal) => () => {
    const outcome = lifecycle.requestStop({ reason: signal, signal });
    if (outcome === "intercepted") return;
    if (outcome === "again") {
      // A Ctrl-C reaches a launcher and the CLI both, and the launcher passes its copy on: a repeat
      // right after the first is that copy, not a person asking to quit at once.
      if (Date.now() - firstAt < SAME_REQUEST_MS) return;
      options.notify(`[INTERRUPTED] ${signal} again: stopping every browser and child now`);
      void force(signal);
      return;
    }
    firstAt = Date.now();
    options.notify(
      `[INTERRUPTED] ${signal}: stopping the run, closing its browsers and writing its results (${signal === "SIGINT" ? "Ctrl-C" : "the signal"} again quits at once)`,
    );
    grace = setTimeout(() => {
      options.notify(`[INTERRUPTED] the run did not stop within ${options.graceMs} ms; stopping every browser and child now`);
      void force(signal);
    }, options.graceMs);
    // The grace period must not keep a process alive that finished stopping on its own.
    grace.unref?.();
  };
  // SIGHUP: the terminal the run was started from went away.
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((signal) => [signal, on(signal)] as const);
  const onExit = () => lifecycle.killAll();
  for (const [signal, handler] of handlers) process.on(signal, handler);
  process.on("exit", onExit);
  return () => {
    clearTimeout(grace);
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
    process.removeListener("exit", onExit);
  };
}
