import { describe, expect, test } from "bun:test";
import { stableJson } from "./stable-json.ts";

describe("stableJson", () => {
  test("puts listed keys first in the given order and sorts the rest", () => {
    expect(stableJson({ zeta: 1, beta: 2, alpha: 3, id: 4 }, ["id", "zeta"])).toBe('{"id":4,"zeta":1,"alpha":3,"beta":2}');
  });

  test("keeps array order and null values", () => {
    expect(stableJson({ a: [3, 1, 2], b: null })).toBe('{"a":[3,1,2],"b":null}');
  });

  test("orders nested keys type, params, tier, provenance, payload first and drops undefined values", () => {
    expect(stableJson({ x: { payload: 1, tier: 2, zz: undefined, a: 3 } })).toBe('{"x":{"tier":2,"payload":1,"a":3}}');
  });
});
