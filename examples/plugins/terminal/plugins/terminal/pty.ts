// A program in a pseudo-terminal: `script` (util-linux) allocates the pty and runs the command
// through the shell at the given size, in a process group of its own (registered with flowproof,
// so it ends with flowproof however flowproof ends). What the program writes feeds the screen.
import { spawn, type ChildProcess } from "node:child_process";
import { guardGroup } from "flowproof";
import { Screen } from "./screen.ts";

export interface Terminal {
  readonly screen: Screen;
  /** Sends keystrokes (raw bytes: `\r` is Enter). */
  type(text: string): void;
  /** Whether the program has ended, and how. */
  readonly exited: { readonly code: number | null } | undefined;
  close(): Promise<void>;
}

/** Single-quotes a string for the shell. */
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

export function openTerminal(command: string, size: { readonly columns: number; readonly rows: number }, cwd: string): Terminal {
  const screen = new Screen(size.columns, size.rows);
  const inner = `stty cols ${size.columns} rows ${size.rows}; exec ${command}`;
  const child: ChildProcess = spawn("script", ["-q", "-e", "-c", `sh -c ${quote(inner)}`, "/dev/null"], {
    cwd,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, TERM: "xterm", COLUMNS: String(size.columns), LINES: String(size.rows) },
  });
  const unguard = child.pid !== undefined ? guardGroup(child.pid) : () => undefined;
  const decoder = new TextDecoder();
  let exited: { code: number | null } | undefined;
  child.stdout?.on("data", (data: Buffer) => screen.write(decoder.decode(data, { stream: true })));
  const ended = new Promise<void>((resolve) =>
    child.on("exit", (code) => {
      exited = { code };
      unguard();
      resolve();
    }),
  );
  return {
    screen,
    type: (text) => void child.stdin?.write(text),
    get exited() {
      return exited;
    },
    async close() {
      if (exited === undefined && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // The group is already gone: nothing left to end.
        }
        await Promise.race([ended, new Promise((r) => setTimeout(r, 2_000))]);
        if (exited === undefined) {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {
            // Gone between the two signals.
          }
        }
      }
    },
  };
}
