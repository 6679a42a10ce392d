// The desktop kit as a project imports it (`flowproof/desktop`): every name a built-in desktop
// surface takes from plugins/desktop is exported, and a backend of a project's own runs on the
// one driver through it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { createDesktopDriver, FakeSurface, fakeElement, nearestTexts, UnsupportedPlatformError } from "flowproof/desktop";

const ROOT = resolve(import.meta.dir, "../..");

/** The names `file` exports (values and types), re-exports included. */
function exportedNames(file: string): Set<string> {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  for (const s of sf.statements) {
    if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) for (const e of s.exportClause.elements) names.add(e.name.text);
    else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name) {
      if (s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) names.add(s.name.text);
    }
  }
  return names;
}

/** `name (file)` for every name a built-in plugin's source imports from plugins/desktop. */
function builtinKitImports(): string[] {
  const out: string[] = [];
  for (const plugin of ["windows", "sap", "vision"]) {
    for (const f of new Bun.Glob("**/*.ts").scanSync({ cwd: join(ROOT, "plugins", plugin) })) {
      if (f.endsWith(".test.ts")) continue;
      const path = join(ROOT, "plugins", plugin, f);
      const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
      for (const s of sf.statements) {
        if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
        const target = relative(ROOT, resolve(join(ROOT, "plugins", plugin, f, ".."), s.moduleSpecifier.text))
          .split("\\")
          .join("/");
        if (!target.startsWith("plugins/desktop/")) continue;
        const bindings = s.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) out.push(`${(e.propertyName ?? e.name).text} (plugins/${plugin}/${f})`);
      }
    }
  }
  return out;
}

test("whatever a built-in desktop surface imports from plugins/desktop, the kit exports", () => {
  const kit = exportedNames(join(ROOT, "src/plugins/desktop-kit.ts"));
  const imports = builtinKitImports();
  expect(imports.length).toBeGreaterThan(10);
  expect(imports.filter((i) => !kit.has(i.split(" ")[0]!))).toEqual([]);
});

test("the package exports the kit as `flowproof/desktop`", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, string> };
  expect(pkg.exports["./desktop"]).toBe("./src/plugins/desktop-kit.ts");
});

test("a backend of its own runs on the one driver: resolution, checks, nearest texts, masks, the scene", async () => {
  const surface = new FakeSurface();
  const pin = fakeElement({
    ref: "pin",
    name: "",
    controlType: "edit",
    automationId: "pin",
    label: "PIN",
    password: true,
    value: "",
    rect: { x: 50, y: 5, width: 40, height: 10 },
  });
  surface.addWindow("Teller", [
    fakeElement({ ref: "l", name: "PIN", controlType: "text" }),
    pin,
    fakeElement({ ref: "ok", name: "Sign on", controlType: "button" }),
  ]);
  const driver = createDesktopDriver({ surface, backend: surface.backend, sleep: async () => undefined });
  expect(await driver.fill([{ tier: "text_anchor", provenance: "rules", payload: { text: "PIN", role: "field" } }], "4711", { secret: true })).toMatchObject({
    ok: true,
  });
  expect(await driver.check([], { kind: "text_contains", text: "Sign on" })).toMatchObject({ pass: true });
  const miss = await driver.click([{ tier: "text_anchor", provenance: "rules", payload: { text: "Sign in" } }], { button: "left", clickCount: 1 });
  expect(miss).toMatchObject({ ok: false, failed: "not-found" });
  expect(miss.ok ? "" : miss.detail).toContain('nearest texts it shows: "Sign on"');
  expect(await driver.rectsFor!([{ secretFields: true }])).toEqual([{ ok: true, rects: [{ x: 50, y: 5, width: 40, height: 10 }] }]);
  expect(JSON.stringify(await driver.scene!())).not.toContain("4711");
  expect(nearestTexts("Sign in", ["Sign on", "Cancel"], 1)).toEqual(["Sign on"]);
  expect(new UnsupportedPlatformError({ kind: "teller", needs: "Windows", platform: "linux", hint: "h" }).code).toBe("unsupported-platform");
});
