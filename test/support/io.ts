// A capturing Io for in-process CLI tests.
import type { Io } from "../../src/cli/io.ts";

export function captureIo(): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    out(text: string) {
      io.stdout += text.endsWith("\n") ? text : `${text}\n`;
    },
    err(text: string) {
      io.stderr += text.endsWith("\n") ? text : `${text}\n`;
    },
  };
  return io;
}
