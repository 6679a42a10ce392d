// The assert_stock example: a project's own assertion kind, loaded from its plugins/ directory,
// recorded and replayed through the real CLI exactly like the built-in kinds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../../../test/support/cli.ts";
import { tmpProject, type TmpProject } from "../../../test/support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../../../test/support/schemas.ts";
import { startStockApi, type StockApi } from "./stock-api.ts";

let api: StockApi;
let project: TmpProject;
beforeAll(() => {
  api = startStockApi();
  project = tmpProject();
  for (const f of ["package.json", "plugins", "check-stock.flow.yaml"]) cpSync(join(import.meta.dir, f), join(project.dir, f), { recursive: true });
});
afterAll(() => {
  api?.stop();
  project?.remove();
});

describe("examples/plugins/stock", () => {
  test("records and replays assert_stock, and fails when the stock runs low", async () => {
    const env = { STOCK_API: api.url };
    const rec = await runCli(["record", "check-stock.flow.yaml", "--author", "rules"], { cwd: project.dir, env });
    expect(rec.code).toBe(0);
    expectValidTrace(join(project.dir, "check-stock.trace.jsonl"));
    const ok = await runCli(["run", "check-stock.flow.yaml", "--json"], { cwd: project.dir, env });
    expect(ok.code).toBe(0);
    expectValidResult((JSON.parse(ok.stdout) as { report_path: string }).report_path);

    api.set("B2", 1);
    project.write("low.flow.yaml", "name: Low\napp: api\nsteps:\n  - assert_stock:\n      sku: B2\n      at_least: 2\n      timeout_seconds: 0\n");
    const low = await runCli(["record", "low.flow.yaml", "--author", "rules", "--json"], { cwd: project.dir, env });
    expect((JSON.parse(low.stdout) as { error: string }).error).toContain("assert_stock: 1 of B2 in stock (expected at least 2)");
  }, 60_000);
});
