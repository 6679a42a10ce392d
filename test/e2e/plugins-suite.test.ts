// A project adapter declares which of its keys a suite.yaml may hold, through the same roles the
// web's `browser:` and `identities:` use: a `suiteDefault` key's default, and the map a `named` key
// picks from. The suite's value is checked against the adapter's schema at its line in suite.yaml
// when a flow loads with the project's adapters; a key no adapter declares is refused there.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

const PLUGIN = `
import { defineAdapter, keyRole, Type } from "flowproof";
import { writeFileSync } from "node:fs";

const unsupported = async () => ({ ok: false, failed: "unsupported", detail: "the inventory console cannot", retryable: false });

export const plugin = defineAdapter({
  kind: "inventory",
  title: "the inventory console",
  capabilities: [],
  keys: {
    schema: Type.Object({
      terminal: Type.Optional(Type.Object({ rows: Type.Integer({ minimum: 1 }) }, { additionalProperties: false, ...keyRole({ suiteDefault: true }) })),
      site: Type.Optional(Type.Union([Type.String(), Type.Object({ host: Type.String() }, { additionalProperties: false })], keyRole({ named: "sites" }))),
    }),
  },
  open: async () => ({
    launch: async (config) => {
      writeFileSync(process.env.INV_DUMP, JSON.stringify(config));
      return {
        capabilities: new Set(),
        navigate: async () => ({ ok: true, value: undefined }),
        reload: async () => ({ ok: true, value: undefined }),
        click: unsupported, hover: unsupported, fill: unsupported, typeFocused: unsupported, pressKey: unsupported,
        select: unsupported, setChecked: unsupported,
        readText: async () => ({ ok: true, value: "ready" }),
        count: async () => 0,
        check: async (_ladder, expect) => ({ pass: expect.kind === "text_contains" && "ready".includes(expect.text), actual: "ready" }),
        environment: async () => ({ os: process.platform, resolution: [0, 0] }),
        close: async () => {},
      };
    },
    close: async () => {},
  }),
});
`;

function project(suite: string): { p: TmpProject; spec: string; dump: string } {
  const p = tmpProject();
  projects.push(p);
  p.write("package.json", "{}");
  p.write("plugins/inventory.ts", PLUGIN);
  p.write("suite.yaml", suite);
  const spec = p.write("stock.flow.yaml", "name: Stock\napp: inventory\nsite: north\nsteps:\n  - assert: page shows ready\n");
  return { p, spec, dump: join(p.dir, "launch.json") };
}

describe("a project adapter's suite keys", () => {
  test("a suiteDefault key's default and a named key's map come from suite.yaml", async () => {
    const { p, spec, dump } = project("terminal:\n  rows: 30\nsites:\n  north:\n    host: n1.example\n");
    const v = await runCli(["validate", spec], { cwd: p.dir });
    expect(v.stderr).not.toContain("error");
    expect(v.code).toBe(0);
    const rec = await runCli(["record", spec, "--author", "rules"], { cwd: p.dir, env: { INV_DUMP: dump } });
    expect(rec.code).toBe(0);
    expect(JSON.parse(readFileSync(dump, "utf8"))).toEqual({ terminal: { rows: 30 }, site: { host: "n1.example" } });
  }, 60_000);

  test("a suite value the adapter's schema refuses, and a key no adapter declares, are refused at their line in suite.yaml", async () => {
    const { p, spec } = project("terminal:\n  rows: 0\nsitez:\n  north:\n    host: n1\n");
    const v = await runCli(["validate", spec], { cwd: p.dir });
    expect(v.code).toBe(2);
    expect(v.stderr).toContain("suite.yaml:2:9: error[bad-value] `rows` must be a whole number of at least 1");
    expect(v.stderr).toContain("suite.yaml:3:1: error[unknown-key] unknown key `sitez` in suite.yaml");
    expect(v.stderr).toContain("did you mean `sites`?");
    expect(v.stderr).toContain(
      "the adapters' own: `browser` (web flows), `browsers` (web flows), `identities` (web flows), `terminal` (the inventory console), `sites` (the inventory console)",
    );
  }, 60_000);
});
