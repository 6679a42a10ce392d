import { afterAll, describe, expect, test } from "bun:test";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { discoverFlows, orderFlows, parseShard, selectShard } from "./suite-plan.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";

const p = tmpProject();
afterAll(() => p.remove());
for (const f of ["b.flow.yaml", "a.flow.yml", "sub/c.flow.yaml", ".flowproof/runs/x.flow.yaml", "notes.yaml"]) p.write(f, "name: x\n");

describe("suite plan", () => {
  test("discovers flow files sorted, skipping .flowproof", () => {
    expect(discoverFlows(p.dir)).toEqual(["a.flow.yml", "b.flow.yaml", "sub/c.flow.yaml"]);
  });
  test("order: entries come first; an unknown entry is refused", () => {
    const planned = orderFlows(p.dir, discoverFlows(p.dir), ["sub/c.flow.yaml"], "suite.yaml");
    expect(planned.map((f) => [f.rel, f.position, f.pinned])).toEqual([
      ["sub/c.flow.yaml", 0, true],
      ["a.flow.yml", 1, false],
      ["b.flow.yaml", 2, false],
    ]);
    expect(() => orderFlows(p.dir, discoverFlows(p.dir), ["gone.flow.yaml"], "suite.yaml")).toThrow(SpecError);
  });
  test("shards cover every flow exactly once and keep the order: group together", () => {
    const planned = orderFlows(p.dir, ["a", "b", "c", "d", "e"], ["d", "e"], undefined);
    const shards = [1, 2, 3].map((index) => selectShard(planned, { index, total: 3 }).map((f) => f.rel));
    expect(shards).toEqual([["d", "e", "c"], ["a"], ["b"]]);
    expect(parseShard("2/3")).toEqual({ index: 2, total: 3 });
    expect(parseShard("4/3")).toBeUndefined();
    expect(parseShard("x")).toBeUndefined();
  });
});
