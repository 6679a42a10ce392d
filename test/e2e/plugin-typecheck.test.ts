// A project type-checks its plugin with `tsc` against flowproof, as docs/plugins.md says: the
// contract's types come with everything flowproof's own sources need (the OCR model module, the
// GIF encoder), so no error is reported inside flowproof.
import { afterAll, expect, test } from "bun:test";
import { symlinkSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

test("tsc on a plugin importing flowproof reports no error in flowproof's sources", async () => {
  const p = tmpProject();
  projects.push(p);
  mkdirSync(join(p.dir, "node_modules"), { recursive: true });
  symlinkSync(REPO_ROOT, join(p.dir, "node_modules", "flowproof"));
  p.write(
    "plugins/console.ts",
    'import { defineAdapter, Type } from "flowproof";\n\nexport const plugin = defineAdapter({\n  kind: "console",\n  capabilities: [],\n  keys: { schema: Type.Object({}) },\n  open: async () => {\n    throw new Error("not in this test");\n  },\n});\n',
  );
  p.write(
    "tsconfig.json",
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
      },
      include: ["plugins"],
    }),
  );
  const tsc = Bun.spawn([join(REPO_ROOT, "node_modules", ".bin", "tsc"), "-p", "."], { cwd: p.dir, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(tsc.stdout).text(), tsc.exited]);
  expect(out).toBe("");
  expect(code).toBe(0);
}, 120_000);
