// A project adapter owns its trace header blocks, as the built-ins do: a key recorded with `top`
// becomes a block of its own beside `app` (any name the format does not use), a fact its driver
// reports lands in the app entry, and both are checked against the adapter's own schemas — record
// refuses a fact the adapter does not declare, replay a block its schema does not accept.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { editTrace, readTrace } from "../support/trace.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

/** An inventory console: `terminal:` is its own header block, `host:` an app entry field, `build` a fact it reports. */
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
      terminal: Type.Optional(Type.Object({ rows: Type.Integer({ minimum: 1 }) }, { additionalProperties: false, ...keyRole({ recorded: { top: true } }) })),
      host: Type.Optional(Type.String(keyRole({ recorded: true }))),
    }),
  },
  facts: Type.Object({ build: Type.Optional(Type.String()) }, { additionalProperties: false }),
  open: async () => ({
    launch: async (config, ctx) => {
      writeFileSync(process.env.INV_DUMP, JSON.stringify({ config, recorded: ctx.recorded ?? null }));
      return {
        capabilities: new Set(),
        navigate: async () => ({ ok: true, value: undefined }),
        reload: async () => ({ ok: true, value: undefined }),
        click: unsupported, hover: unsupported, fill: unsupported, typeFocused: unsupported, pressKey: unsupported,
        select: unsupported, setChecked: unsupported,
        readText: async () => ({ ok: true, value: "ready" }),
        count: async () => 0,
        check: async (_ladder, expect) => ({ pass: expect.kind === "text_contains" && "ready".includes(expect.text), actual: "ready" }),
        appInfo: () => ({ build: "7.2", ...(process.env.INV_EXTRA ? { extra: 1 } : {}) }),
        environment: async () => ({ os: process.platform, resolution: [0, 0] }),
        close: async () => {},
      };
    },
    close: async () => {},
  }),
});
`;

function project(): { p: TmpProject; spec: string; dump: string } {
  const p = tmpProject();
  projects.push(p);
  p.write("package.json", "{}");
  p.write("plugins/inventory.ts", PLUGIN);
  const spec = p.write("stock.flow.yaml", "name: Stock\napp: inventory\nterminal:\n  rows: 24\nhost: inv-1\nsteps:\n  - assert: page shows ready\n");
  return { p, spec, dump: join(p.dir, "launch.json") };
}

describe("a project adapter's header blocks", () => {
  test("its `top` key is a block of its own beside `app` and its fact sits in the app entry; replay opens from both", async () => {
    const { p, spec, dump } = project();
    const rec = await runCli(["record", spec, "--author", "rules"], { cwd: p.dir, env: { INV_DUMP: dump } });
    expect(rec.code).toBe(0);
    const { header } = readTrace(join(p.dir, "stock.trace.jsonl"));
    expect(header["terminal"]).toEqual({ rows: 24 });
    expect(header["app"]).toEqual({ name: "inventory", adapter: "inventory", host: "inv-1", build: "7.2" });
    const run = await runCli(["run", spec], { cwd: p.dir, env: { INV_DUMP: dump } });
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(dump, "utf8"))).toEqual({ config: { terminal: { rows: 24 }, host: "inv-1" }, recorded: { build: "7.2" } });
  }, 60_000);

  test("replay refuses a recorded fact its adapter's schema does not accept (bad-trace), before the adapter launches", async () => {
    const { p, spec, dump } = project();
    expect((await runCli(["record", spec, "--author", "rules"], { cwd: p.dir, env: { INV_DUMP: dump } })).code).toBe(0);
    editTrace(join(p.dir, "stock.trace.jsonl"), (t) => t.replace('"build":"7.2"', '"build":72'));
    const run = await runCli(["run", spec, "--json"], { cwd: p.dir, env: { INV_DUMP: join(p.dir, "replay.json") } });
    expect(run.code).toBe(2);
    const error = (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("bad-trace");
    expect(error.message).toContain("the trace header's `app`: `build` must be a string (the inventory console)");
  }, 60_000);

  test("record refuses a fact the adapter does not declare (plugin-error) and writes no trace", async () => {
    const { p, spec, dump } = project();
    const rec = await runCli(["record", spec, "--author", "rules", "--json"], { cwd: p.dir, env: { INV_DUMP: dump, INV_EXTRA: "1" } });
    expect(rec.code).toBe(2);
    const error = (JSON.parse(rec.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("plugin-error");
    expect(error.message).toContain("`app.extra` is neither a key the inventory console records nor a fact its adapter declares");
    expect(existsSync(join(p.dir, "stock.trace.jsonl"))).toBe(false);
  }, 60_000);
});
