import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle, pageScript, readBuiltPageScript, sourceDigest, writeBuiltPageScript } from "./bundle.ts";
import { installerOf } from "./installer.ts";

const scratch = mkdtempSync(join(tmpdir(), "page-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the page script", () => {
  test("is one script without module syntax that installs every page API method when run", () => {
    const text = pageScript();
    expect(text).not.toMatch(/^\s*(import|export)\s/m);
    const g = globalThis as { __flowproof?: Record<string, unknown> };
    try {
      (0, eval)(installerOf(text));
      expect(Object.keys(g.__flowproof ?? {}).sort()).toEqual([
        "assignValue",
        "candidates",
        "check",
        "checkedState",
        "clickLanded",
        "count",
        "debugPage",
        "fileInput",
        "focusForTyping",
        "hovered",
        "probe",
        "read",
        "scene",
        "scroll",
        "select",
        "typingLost",
      ]);
    } finally {
      delete g.__flowproof;
    }
  });

  test("is built once per content of its modules and read back after", () => {
    expect(pageScript()).toBe(pageScript());
  });
});

describe("the built page script", () => {
  test("is the page script headed by the digest of its sources, and is read back while they are unchanged", () => {
    const path = writeBuiltPageScript(join(scratch, "built", "page.js"));
    expect(readBuiltPageScript(path, import.meta.dir)).toBe(pageScript());
    expect(readFileSync(path, "utf8").split("\n")[0]).toContain(sourceDigest());
  });

  test("is ignored once the sources beside it differ, unless there are none to compare (the executable)", () => {
    const sources = join(scratch, "sources");
    mkdirSync(sources, { recursive: true });
    writeFileSync(join(sources, "page-script.ts"), "export {};\n");
    const path = writeBuiltPageScript(join(scratch, "built", "stale.js"));
    expect(readBuiltPageScript(path, sources)).toBeUndefined();
    expect(readBuiltPageScript(path)).toBe(pageScript());
  });

  test("a missing file or one without the header is not a page script", () => {
    expect(readBuiltPageScript(join(scratch, "nothing.js"))).toBeUndefined();
    writeFileSync(join(scratch, "plain.js"), "console.log(1);\n");
    expect(readBuiltPageScript(join(scratch, "plain.js"))).toBeUndefined();
  });
});

describe("sourceDigest", () => {
  test("changes with any module's content and ignores tests", () => {
    writeFileSync(join(scratch, "a.ts"), "export const a = 1;\n");
    const before = sourceDigest(scratch);
    writeFileSync(join(scratch, "a.test.ts"), "test\n");
    expect(sourceDigest(scratch)).toBe(before);
    writeFileSync(join(scratch, "a.ts"), "export const a = 2;\n");
    expect(sourceDigest(scratch)).not.toBe(before);
  });
});

describe("bundle", () => {
  test("is the same text whichever directory it is built from", () => {
    const here = process.cwd();
    const elsewhere = bundle();
    try {
      process.chdir(scratch);
      expect(bundle()).toBe(elsewhere);
    } finally {
      process.chdir(here);
    }
  });

  test("inlines the modules an entry imports", () => {
    writeFileSync(join(scratch, "dep.ts"), "export const greet = (s: string): string => `hello ${s}`;\n");
    writeFileSync(join(scratch, "entry.ts"), 'import { greet } from "./dep.ts";\n(globalThis as { __greeting?: string }).__greeting = greet("page");\n');
    const g = globalThis as { __greeting?: string };
    try {
      (0, eval)(bundle(join(scratch, "entry.ts")));
      expect(g.__greeting).toBe("hello page");
    } finally {
      delete g.__greeting;
    }
  });

  test("a module that does not build is an error naming the bundler's complaint", () => {
    writeFileSync(join(scratch, "broken.ts"), 'import { nothing } from "./missing.ts";\nnothing();\n');
    expect(() => bundle(join(scratch, "broken.ts"))).toThrow(/the page script did not build: .*missing/s);
  });
});
