// `--keep-open` on `record` and `run`: the flow's browser is shown (headed) and stays open after
// the flow — results already written — until the person closes its window or presses Ctrl-C.
import type { AppDriver } from "../plugins/api.ts";
import type { CommonOptions } from "../commands/common.ts";
import { UsageError } from "./flags.ts";
import type { Io } from "./io.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";

/** Why this machine cannot show a browser window, or undefined when it can. */
export function noDisplayReason(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== "linux" && platform !== "freebsd" && platform !== "openbsd") return undefined;
  if (env["DISPLAY"] || env["WAYLAND_DISPLAY"]) return undefined;
  return "this machine has no display (neither DISPLAY nor WAYLAND_DISPLAY is set)";
}

/** The flags of `record` and `run` that `--keep-open` is checked against. */
export interface KeepOpenFlags {
  readonly keepOpen?: true;
  readonly json?: true;
  readonly verify?: true;
  readonly retries?: number;
}

/**
 * The `keepOpen` option for `--keep-open`, or undefined without the flag. Refuses what cannot
 * wait for a person (`--json`, `--verify`, retries) and a machine that cannot show a window. A
 * command given `keepOpen` shows its browser (headed) without being told.
 */
export function keepOpenOption(
  flags: KeepOpenFlags,
  io: Io,
  env: Readonly<Record<string, string | undefined>>,
  lifecycle: Lifecycle,
): CommonOptions["keepOpen"] {
  if (flags.keepOpen !== true) return undefined;
  if (flags.json === true)
    throw new UsageError(
      "--keep-open waits for you to close the browser, so it cannot be combined with --json",
      "drop --json to inspect the browser, or drop --keep-open for a structured result",
    );
  if (flags.verify === true)
    throw new UsageError(
      "--keep-open cannot be combined with --verify (the replay would open a second browser)",
      "record with --keep-open, then run `flowproof run` on the trace",
    );
  if (flags.retries !== undefined && flags.retries !== 0)
    throw new UsageError("--keep-open cannot be combined with --retries: which attempt's browser would stay open?", "drop --retries while inspecting the flow");
  const why = noDisplayReason(env);
  if (why)
    throw new UsageError(
      `--keep-open shows the browser window, and ${why}`,
      "run it in a desktop session, or under a virtual display: xvfb-run flowproof … --keep-open",
    );
  return async (driver: AppDriver) => {
    if (!driver.untilClosed) {
      io.err("[KEEP-OPEN] this surface cannot stay open; closing it");
      return;
    }
    io.err("[KEEP-OPEN] the browser stays open: close its window (or press Ctrl-C) to finish");
    // Ctrl-C ends this wait, not the run (the verdict's exit code stands); SIGTERM stops the process.
    let removeIntercept: (() => void) | undefined;
    let onStop: (() => void) | undefined;
    const interrupted = new Promise<void>((resolve) => {
      removeIntercept = lifecycle.intercept(() => resolve());
      onStop = () => resolve();
      if (lifecycle.signal.aborted) resolve();
      else lifecycle.signal.addEventListener("abort", onStop, { once: true });
    });
    try {
      await Promise.race([driver.untilClosed(), interrupted]);
    } finally {
      removeIntercept?.();
      if (onStop) lifecycle.signal.removeEventListener("abort", onStop);
    }
  };
}
