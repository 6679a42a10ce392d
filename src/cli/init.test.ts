import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "./main.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function capture() {
  const io = { stdout: "", stderr: "", out: (t: string) => void (io.stdout += `${t}\n`), err: (t: string) => void (io.stderr += `${t}\n`) };
  return io;
}

describe("initCommand", () => {
  test("scaffolds the given directory and says what it created and what to run next", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flowproof-init-cli-"));
    dirs.push(dir);
    const io = capture();
    expect(await main(["init", dir], io)).toBe(0);
    expect(io.stdout).toBe(
      "created example.flow.yaml\ncreated example-page.html\ncreated .gitignore\nnext: flowproof record example.flow.yaml && flowproof run example.flow.yaml\n",
    );
    expect(existsSync(join(dir, "example.flow.yaml"))).toBe(true);
    const again = capture();
    expect(await main(["init", dir, "--json"], again)).toBe(0);
    expect((JSON.parse(again.stdout) as { created: string[] }).created).toEqual([]);
  });

  test("refuses two directories", async () => {
    const io = capture();
    expect(await main(["init", "a", "b"], io)).toBe(2);
    expect(io.stderr).toContain("init takes at most one directory");
  });
});
