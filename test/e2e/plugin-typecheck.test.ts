// A project type-checks its plugin with `tsc` against flowproof, as docs/plugins.md says: the
// contract's types come with everything flowproof's own sources need (the OCR model module, the
// GIF encoder), so no error is reported inside flowproof.
import { afterAll, expect, test } from "bun:test";
import { tscAsInstalled } from "../support/plugin-tsc.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

test("tsc on a plugin importing flowproof reports no error in flowproof's sources", async () => {
  const p = tmpProject();
  projects.push(p);
  p.write(
    "plugins/console.ts",
    'import { defineAdapter, Type } from "flowproof";\n\nexport const plugin = defineAdapter({\n  kind: "console",\n  capabilities: [],\n  keys: { schema: Type.Object({}) },\n  open: async () => {\n    throw new Error("not in this test");\n  },\n});\n',
  );
  const { out, code } = await tscAsInstalled(p.dir);
  expect(out).toBe("");
  expect(code).toBe(0);
}, 120_000);
