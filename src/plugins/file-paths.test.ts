import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ANYWHERE, FilePaths, OutsideRootError, SuiteCommandRefusedError, confinedTo, filePaths, withoutSuiteCommands } from "./file-paths.ts";

const base = mkdtempSync(join(tmpdir(), "flowproof-paths-"));
const root = join(base, "root");
mkdirSync(join(root, "sub"), { recursive: true });
writeFileSync(join(base, "secret.txt"), "s");
writeFileSync(join(root, "ok.txt"), "ok");
symlinkSync(join(base, "secret.txt"), join(root, "link.txt"));
symlinkSync(base, join(root, "up"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("FilePaths", () => {
  const paths = new FilePaths([root]);

  test("a path inside the root resolves from its directory, absolute", () => {
    expect(paths.file("the file", "ok.txt", root)).toBe(join(root, "ok.txt"));
    expect(paths.file("the file", "../ok.txt", join(root, "sub"))).toBe(join(root, "ok.txt"));
    expect(paths.file("the file", "new/not-yet.txt", root)).toBe(join(root, "new", "not-yet.txt"));
  });

  test("a path outside, a ../ out of it, and a symlink (to a file or a directory) leading out are refused naming the path and the root", () => {
    for (const p of [join(base, "secret.txt"), "../secret.txt", "link.txt", "up/secret.txt"]) {
      expect(() => paths.file("the file to upload", p, root)).toThrow(new OutsideRootError("the file to upload", JSON.stringify(p), [root]));
    }
    expect(() => paths.file("x", "link.txt", root)).toThrow(expect.objectContaining({ code: "outside-root" }));
  });

  test("a file: URL outside the root is refused; inside, and any other scheme, pass", () => {
    expect(paths.refusesUrl("the flow's url", pathToFileURL(join(base, "secret.txt")).href)).toContain(`is outside the root (${root})`);
    expect(paths.refusesUrl("the flow's url", pathToFileURL(join(root, "link.txt")).href)).toContain("is outside the root");
    expect(paths.refusesUrl("the flow's url", pathToFileURL(join(root, "ok.txt")).href)).toBeUndefined();
    expect(paths.refusesUrl("the flow's url", "http://127.0.0.1/etc/passwd")).toBeUndefined();
    expect(() => paths.url("the flow's url", "file:///etc/passwd")).toThrow(OutsideRootError);
  });

  test("a suite command's program written as a path must lie inside; one found on PATH is the machine's", () => {
    expect(() => paths.command("env_from", "./mint.sh --all", root)).not.toThrow();
    expect(() => paths.command("env_from", "cat /etc/passwd", root)).not.toThrow();
    expect(() => paths.command("before_each", "../reset.sh", root)).toThrow('before_each\'s program "../reset.sh" is outside the root');
  });

  test("unconfined, everything is allowed", () => {
    expect(ANYWHERE.confined).toBe(false);
    expect(ANYWHERE.file("x", "../secret.txt", root)).toBe(join(base, "secret.txt"));
    expect(ANYWHERE.refusesUrl("x", "file:///etc/passwd")).toBeUndefined();
  });
});

describe("confinedTo", () => {
  test("the work (and what it awaits) sees its roots; without roots it keeps the caller's", async () => {
    expect(filePaths()).toBe(ANYWHERE);
    await confinedTo(root, async () => {
      await Promise.resolve();
      expect(filePaths().roots).toEqual([root]);
      await confinedTo(undefined, async () => expect(filePaths().roots).toEqual([root]));
    });
    expect(filePaths()).toBe(ANYWHERE);
  });
});

describe("withoutSuiteCommands", () => {
  test("every suite command is refused (hooks-off) with its key, command and why; a root set inside keeps the refusal, and outside nothing changes", async () => {
    const refused = { why: "commands are off here", hint: "run it elsewhere" };
    await withoutSuiteCommands(refused, async () => {
      await Promise.resolve();
      expect(() => filePaths().command("before_each", "echo hi", root)).toThrow(new SuiteCommandRefusedError("before_each", "echo hi", refused));
      expect(() => filePaths().command("env_from", "true", root)).toThrow(expect.objectContaining({ code: "hooks-off" }));
      expect(() => filePaths().command("env_from", "true", root)).toThrow("env_from `true` was not run: commands are off here");
      await confinedTo(root, async () => {
        expect(filePaths().roots).toEqual([root]);
        expect(() => filePaths().command("server.command", "npm start", root)).toThrow(SuiteCommandRefusedError);
      });
    });
    expect(() => filePaths().command("before_each", "echo hi", root)).not.toThrow();
  });
});
