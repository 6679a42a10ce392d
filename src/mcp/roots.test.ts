import { afterAll, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { McpRoots, holdsFlow, holdsTrace, isInside } from "./roots.ts";

const root = tmpProject();
const outside = tmpProject();
afterAll(() => {
  root.remove();
  outside.remove();
});

const FLOW = "name: A\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - assert: page shows x\n";
const TRACE = '{"format":"flowproof-trace","version":1}\n';

describe("McpRoots.check", () => {
  root.write("a.flow.yaml", FLOW);
  root.write("a.trace.jsonl", TRACE);
  root.write("notes.yaml", "root:$6$secrethash:19000:0:99999:7:::\n");
  root.write("package.jsonl", '{"name":"not a trace"}\n');
  outside.write("b.flow.yaml", FLOW);
  const roots = new McpRoots(root.dir);

  test("accepts a flow, a trace and a new trace path inside the working directory, relative or absolute", async () => {
    await roots.check("spec", "a.flow.yaml", "flow");
    await roots.check("spec", join(root.dir, "a.flow.yaml"), "flow");
    await roots.check("trace", "a.trace.jsonl", "trace");
    await roots.check("out", "new/dir/b.trace.jsonl", "trace-out");
    await roots.check("dir", ".", "dir");
  });

  test.each([
    ["spec", "/etc/shadow", "flow"],
    ["spec", "../x.flow.yaml", "flow"],
    ["out", "/tmp/elsewhere.trace.jsonl", "trace-out"],
    ["dir", "/", "dir"],
  ] as const)("refuses %s %s outside the root, naming the root", async (arg, value, role) => {
    await expect(roots.check(arg, value, role)).rejects.toThrow(`\`${arg}\` ${JSON.stringify(value)} is outside the MCP server's root (${root.dir})`);
  });

  test("refuses a symlink inside the root that leads outside it", async () => {
    symlinkSync(join(outside.dir, "b.flow.yaml"), join(root.dir, "link.flow.yaml"));
    await expect(roots.check("spec", "link.flow.yaml", "flow")).rejects.toThrow("is outside the MCP server's root");
  });

  test("refuses a file that is not a flow without quoting it", async () => {
    const error = await roots.check("spec", "notes.yaml", "flow").catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toBe('`spec` "notes.yaml" does not hold a flow (a YAML mapping with `steps:`); its content is not shown');
    await expect(roots.check("spec", "a.trace.jsonl", "flow")).rejects.toThrow("is not a flow file");
  });

  test("never lets out: overwrite a file that is not a trace", async () => {
    await expect(roots.check("out", "package.jsonl", "trace-out")).rejects.toThrow(
      '`out` "package.jsonl" is a file that is not a flowproof trace; it is not overwritten',
    );
    await expect(roots.check("out", "a.flow.yaml", "trace-out")).rejects.toThrow("is not a trace file");
  });

  test("the client's declared file roots replace the working directory, and are asked again after a change", async () => {
    let listed = [pathToFileURL(outside.dir).href, "https://example.com/not-a-dir"];
    let asked = 0;
    const client = new McpRoots(root.dir, async () => {
      asked++;
      return listed;
    });
    await client.check("spec", join(outside.dir, "b.flow.yaml"), "flow");
    await expect(client.check("spec", join(root.dir, "a.flow.yaml"), "flow")).rejects.toThrow("outside the MCP server's root");
    listed = [pathToFileURL(root.dir).href];
    await client.check("spec", join(outside.dir, "b.flow.yaml"), "flow");
    expect(asked).toBe(1);
    client.invalidate();
    await client.check("spec", join(root.dir, "a.flow.yaml"), "flow");
    expect(asked).toBe(2);
  });
});

describe("holdsFlow, holdsTrace, isInside", () => {
  test.each([
    [FLOW, true],
    ["root:$6$x:1:::\n", false],
    ["steps: []\n", true],
    ["- a\n- b\n", false],
    ["{ bad: [\n", false],
  ])("holdsFlow(%j) is %p", (text, expected) => {
    expect(holdsFlow(text)).toBe(expected);
  });
  test.each([
    [TRACE, true],
    ["", true],
    ['{"name":"x"}\n', false],
    ["root:x\n", false],
  ])("holdsTrace(%j) is %p", (text, expected) => {
    expect(holdsTrace(text)).toBe(expected);
  });
  test("isInside compares whole path segments", () => {
    expect(isInside("/a/b/c", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/bc", "/a/b")).toBe(false);
  });
});
