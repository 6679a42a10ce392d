import { describe, expect, test } from "bun:test";
import { runInNewContext } from "node:vm";
import { installClock, installRandom, seedLocalStorage } from "./init-scripts.ts";

/** Runs an injected function the way the page gets it (its source text) in a fresh global. */
function inPage<T>(fn: (...args: never[]) => void, args: readonly unknown[], then: string, globals: Record<string, unknown> = {}): T {
  return runInNewContext(`(${fn.toString()})(...${JSON.stringify(args)}); ${then}`, { ...globals }) as T;
}

describe("installClock", () => {
  const AT = Date.UTC(2019, 2, 14, 12);
  test("pins Date.now and new Date(), leaves explicit dates alone", () => {
    expect(inPage<number[]>(installClock, [AT], "[Date.now(), new Date().getTime(), new Date(0).getTime(), Date.UTC(2000, 0, 1)]")).toEqual([
      AT,
      AT,
      0,
      Date.UTC(2000, 0, 1),
    ]);
  });
  test("keeps Date() a string and dates instances of Date", () => {
    expect(
      inPage<[string, boolean, boolean]>(installClock, [AT], "[typeof Date(), new Date() instanceof Date, Date.parse('2019-03-14T12:00:00Z') === Date.now()]"),
    ).toEqual(["string", true, true]);
  });
});

describe("installRandom", () => {
  test("the same seed gives the same draws, another seed different ones", () => {
    const draw = (seed: number) => inPage<number[]>(installRandom, [seed], "[Math.random(), Math.random(), Math.random()]");
    const a = draw(1234);
    expect(draw(1234)).toEqual(a);
    expect(draw(1235)).not.toEqual(a);
    for (const r of a) expect(r >= 0 && r < 1).toBe(true);
  });
});

describe("seedLocalStorage", () => {
  function page(origin: string, top = true) {
    const store = new Map<string, string>();
    const g: Record<string, unknown> = { location: { origin }, localStorage: { setItem: (k: string, v: string) => store.set(k, v) } };
    g["self"] = g;
    g["top"] = top ? g : {};
    return { g, store };
  }
  test("seeds the top document of the start origin only", () => {
    const same = page("http://a.test");
    runInNewContext(`globalThis.self = globalThis; globalThis.top = ${"globalThis"}; (${seedLocalStorage.toString()})("http://a.test", {"cart": "x"})`, same.g);
    expect([...same.store]).toEqual([["cart", "x"]]);
    const other = page("http://b.test");
    runInNewContext(`globalThis.self = globalThis; globalThis.top = globalThis; (${seedLocalStorage.toString()})("http://a.test", {"cart": "x"})`, other.g);
    expect(other.store.size).toBe(0);
    const framed = page("http://a.test", false);
    runInNewContext(`globalThis.self = globalThis; globalThis.top = {}; (${seedLocalStorage.toString()})("http://a.test", {"cart": "x"})`, framed.g);
    expect(framed.store.size).toBe(0);
  });
});
