import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, join, resolve } from "node:path";
import { PluginError } from "../diagnostics/diagnostic.ts";
import { discoverPlugins, loadPlugins, projectRoot, validatePlugin } from "./loader.ts";
import { confinedTo } from "./file-paths.ts";

const FIXTURES = resolve(import.meta.dir, "../../test/fixtures/plugins");
const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "flowproof-loader-"));
  dirs.push(d);
  return d;
}
function write(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, text);
  return p;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ADAPTER =
  'export const plugin = { kind: "KIND", capabilities: ["pointer"], open: async () => ({ launch: async () => { throw new Error("x"); }, close: async () => {} }) };\n';

describe("projectRoot", () => {
  test("walks up from the flow to the nearest package.json or .git", () => {
    const root = tmp();
    write(root, "package.json", "{}");
    write(root, "flows/deep/a.flow.yaml", "");
    expect(projectRoot(join(root, "flows/deep/a.flow.yaml"))).toBe(root);
    mkdirSync(join(root, "flows/.git"));
    expect(projectRoot(join(root, "flows/deep/a.flow.yaml"))).toBe(join(root, "flows"));
  });
});

describe("discoverPlugins", () => {
  test("finds plugins/ modules and folders, then .flowproof/plugins/, then FLOWPROOF_PLUGINS", () => {
    const root = tmp();
    write(root, "package.json", "{}");
    write(root, "plugins/a.ts", ADAPTER);
    write(root, "plugins/b/index.js", ADAPTER);
    write(root, "plugins/b/helper.ts", "");
    write(root, "plugins/a.test.ts", "");
    write(root, "plugins/notes.md", "");
    write(root, ".flowproof/plugins/c.mjs", ADAPTER);
    const extra = write(tmp(), "d.ts", ADAPTER);
    const found = discoverPlugins(root, { FLOWPROOF_PLUGINS: extra });
    expect(found.map((f) => [basename(f.path), f.origin])).toEqual([
      ["a.ts", "plugins/"],
      ["index.js", "plugins/"],
      ["c.mjs", ".flowproof/plugins/"],
      ["d.ts", "FLOWPROOF_PLUGINS"],
    ]);
  });

  test("skips flowproof's own plugins/ folder: those are the bundled built-ins", () => {
    expect(discoverPlugins(resolve(import.meta.dir, "../.."), {})).toEqual([]);
  });

  test("a confined run loads no plugin from outside its root: FLOWPROOF_PLUGINS elsewhere is refused naming it and the root", async () => {
    const root = tmp();
    write(root, "plugins/a.ts", ADAPTER);
    const extra = write(tmp(), "d.ts", ADAPTER);
    await confinedTo(root, async () => {
      expect(discoverPlugins(root, {}).map((f) => basename(f.path))).toEqual(["a.ts"]);
      expect(() => discoverPlugins(root, { FLOWPROOF_PLUGINS: extra })).toThrow(
        `the plugin (FLOWPROOF_PLUGINS) ${JSON.stringify(extra)} is outside the root (${root})`,
      );
    });
  });

  test("refuses a FLOWPROOF_PLUGINS entry that does not exist, naming it", () => {
    expect(() => discoverPlugins(tmp(), { FLOWPROOF_PLUGINS: "/nowhere/p.ts" })).toThrow("/nowhere/p.ts: FLOWPROOF_PLUGINS names a path that does not exist");
  });
});

describe("validatePlugin", () => {
  test.each([
    [null, "`plugin` must be an object, not null"],
    [{}, "`plugin` is neither an adapter (`kind`) nor an assertion kind (`key`)"],
    [{ kind: "Bad Kind", capabilities: [], open: (): number => 0 }, '`kind` must be a lowercase name such as "notes", not "Bad Kind"'],
    [{ kind: "k", capabilities: "pointer", open: (): number => 0 }, "`capabilities` must be a list"],
    [{ kind: "k", capabilities: [], open: 1 }, "`open` must be a function returning a session"],
    [{ key: "assert_x", schema: [], run: (): number => 0 }, "`schema` must be a JSON Schema object"],
    [{ key: "assert_x", schema: {}, run: 1, extra: 2 }, "unknown key `extra` in an assertion plugin"],
    [{ key: "assert_x", schema: { type: "nope" }, run: (): number => 0 }, "`schema` is not a valid JSON Schema"],
    [{ key: "assert_x", schema: {}, run: (): number => 0, policy: "once" }, "`policy` must be a function"],
  ])("refuses %j", (value, message) => {
    expect(() => validatePlugin(value, "p.ts")).toThrow(`p.ts: ${message}`);
  });

  test("accepts an adapter and an assertion kind", () => {
    expect(validatePlugin({ kind: "notes", capabilities: ["pointer"], open: async () => ({}) }, "p.ts").kind).toBe("adapter");
    expect(validatePlugin({ key: "assert_stock", schema: {}, run: async () => ({ pass: true }) }, "p.ts").kind).toBe("assertion");
  });
});

describe("loadPlugins", () => {
  const broken = readdirSync(join(FIXTURES, "broken"))
    .filter((f) => f.endsWith(".ts"))
    .sort();

  test.each(broken)("refuses test/fixtures/plugins/broken/%s with its expected error", async (file) => {
    const path = join(FIXTURES, "broken", file);
    const expected = /^\/\/ expected error: (.*)$/m.exec(readFileSync(path, "utf8"))![1]!;
    const project = tmp();
    const error = await loadPlugins({
      flowPath: join(project, "f.flow.yaml"),
      env: { FLOWPROOF_PLUGINS: path },
      builtinKinds: ["web"],
      cwd: join(FIXTURES, "broken"),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as PluginError).code).toBe("plugin-error");
    expect((error as PluginError).message).toBe(expected);
  });

  test('loads the good fixtures: an adapter and an assertion kind importing "flowproof"', async () => {
    const loaded = await loadPlugins({ flowPath: join(tmp(), "f.flow.yaml"), env: { FLOWPROOF_PLUGINS: join(FIXTURES, "good") }, builtinKinds: ["web"] });
    expect(loaded.adapters.map((a) => a.kind)).toEqual(["echo"]);
    expect(loaded.assertions.map((a) => a.key)).toEqual(["assert_stock"]);
    expect(
      await loaded.assertions[0]!.run(
        { sku: "B2", at_least: 1 },
        { baseDir: ".", log: () => undefined, mode: "replay", flowStem: "f", artifactDir: ".", env: {}, observe: () => undefined },
      ),
    ).toEqual({ pass: false, expected: "at least 1 of B2", actual: "0 in stock" });
  });

  test('loads a plugin importing the desktop kit as "flowproof/desktop"; any other subpath is an engine internal', async () => {
    const dir = tmp();
    write(
      dir,
      "kit/teller.ts",
      'import { nearestTexts } from "flowproof/desktop";\nexport const plugin = { kind: "teller", capabilities: [], title: nearestTexts("Teler", ["Teller", "Bank"], 1)[0], open: async () => ({ launch: async () => { throw new Error("x"); }, close: async () => {} }) };\n',
    );
    const loaded = await loadPlugins({ flowPath: join(tmp(), "f.flow.yaml"), env: { FLOWPROOF_PLUGINS: join(dir, "kit") }, builtinKinds: ["web"] });
    expect(loaded.adapters.map((a) => [a.kind, a.title])).toEqual([["teller", "Teller"]]);
    write(dir, "inside/x.ts", 'import { Flow } from "flowproof/commands";\nexport const plugin = { kind: "x", capabilities: [], open: async () => ({}) };\n');
    const error = await loadPlugins({ flowPath: join(tmp(), "f.flow.yaml"), env: { FLOWPROOF_PLUGINS: join(dir, "inside") }, builtinKinds: ["web"] }).catch(
      (e: unknown) => e,
    );
    expect((error as PluginError).message).toEndWith('x.ts: imports "flowproof/commands", an engine internal');
    expect((error as PluginError).diagnostics[0]!.hint).toContain('"flowproof/desktop"');
  });

  test("refuses two plugins claiming one app kind, naming both files", async () => {
    const dir = tmp();
    const a = write(dir, "first.ts", ADAPTER.replace("KIND", "same"));
    const b = write(dir, "second.ts", ADAPTER.replace("KIND", "same"));
    const error = await loadPlugins({
      flowPath: join(dir, "f.flow.yaml"),
      env: { FLOWPROOF_PLUGINS: [a, b].join(delimiter) },
      builtinKinds: [],
      cwd: dir,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('second.ts: the app kind "same" is already provided by first.ts');
  });

  test("finds nothing and loads nothing when the project has no plugins", async () => {
    expect(await loadPlugins({ flowPath: join(tmp(), "f.flow.yaml"), env: {}, builtinKinds: ["web"] })).toEqual({ adapters: [], assertions: [], files: [] });
  });
});
