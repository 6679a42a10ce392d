// The one table of process exit codes.
export const EXIT = {
  /** The flow passed (or the command succeeded). */
  pass: 0,
  /** A step failed: a verdict, not an error. */
  failed: 1,
  /** Could not run: bad usage, bad spec, missing trace, no browser, harness fault. */
  error: 2,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
