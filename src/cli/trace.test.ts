import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { main } from "./main.ts";
import type { Io } from "./io.ts";

const DEMO = resolve(import.meta.dir, "../../examples/demo/flows");

function capture(): Io & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", out: (t: string) => void (io.stdout += `${t}\n`), err: (t: string) => void (io.stderr += `${t}\n`) };
  return io;
}

describe("traceCommand", () => {
  test("prints the recorded trace as JSON with --json", async () => {
    const io = capture();
    expect(await main(["trace", join(DEMO, "greet.flow.yaml"), "--json"], io)).toBe(0);
    const t = JSON.parse(io.stdout) as { trace_path: string; header: { format: string }; steps: Array<{ id: string }> };
    expect(t.trace_path).toBe(join(DEMO, "greet.trace.jsonl"));
    expect(t.header.format).toBe("flowproof-trace");
    expect(t.steps[0]!.id).toBe("s0001");
  });

  test("prints one line per step for people", async () => {
    const io = capture();
    expect(await main(["trace", join(DEMO, "greet.flow.yaml")], io)).toBe(0);
    expect(io.stdout).toMatch(/^ {2}s0001 \S+ +\S/m);
  });

  test("a flow never recorded exits 2 with a missing-trace error", async () => {
    const io = capture();
    expect(await main(["trace", join(DEMO, "greet.flow.yaml"), "-t", join(DEMO, "none.trace.jsonl"), "--json"], io)).toBe(2);
    expect((JSON.parse(io.stdout) as { error: { code: string } }).error.code).toBe("missing-trace");
  });
});
