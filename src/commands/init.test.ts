import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { init, EXAMPLE_FLOW } from "./init.ts";
import { validate } from "./validate.ts";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "flowproof-init-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("init", () => {
  test("scaffolds an example flow that validates, its page and a .gitignore entry for .flowproof/", () => {
    const dir = join(tmp(), "new-project");
    const r = init({ dir });
    expect(r.created).toEqual([EXAMPLE_FLOW, "example-page.html", ".gitignore"]);
    expect(r.skipped).toEqual([]);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain(".flowproof/\n");
    expect(readFileSync(join(dir, EXAMPLE_FLOW), "utf8")).toStartWith("# yaml-language-server: $schema=");
    expect(validate({ spec: join(dir, EXAMPLE_FLOW) })).toEqual({ name: "Greet a visitor", app: "web", steps: 3 });
  });

  test("never overwrites: existing files are skipped and an existing .gitignore is extended once", () => {
    const dir = tmp();
    writeFileSync(join(dir, EXAMPLE_FLOW), "mine");
    writeFileSync(join(dir, ".gitignore"), "node_modules");
    const first = init({ dir });
    expect(first.skipped).toEqual([EXAMPLE_FLOW]);
    expect(first.created).toEqual(["example-page.html", ".gitignore"]);
    expect(readFileSync(join(dir, EXAMPLE_FLOW), "utf8")).toBe("mine");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules\n.flowproof/\n");
    const second = init({ dir });
    expect(second.created).toEqual([]);
    expect(second.skipped).toEqual([EXAMPLE_FLOW, "example-page.html", ".gitignore"]);
  });
});
