import { describe, expect, test } from "bun:test";
import { compileArgv } from "./build.ts";

describe("compileArgv", () => {
  test("compiles the modules to bytecode, as ES modules, so an executable's start parses nothing", () => {
    const argv = compileArgv("src/cli/main.ts", "bun-linux-x64", "dist/flowproof-linux-x64", "page.js");
    expect(argv).toContain("--compile");
    expect(argv).toContain("--bytecode");
    expect(argv).toContain("--format=esm");
    expect(argv).toContain("--target=bun-linux-x64");
  });
});
