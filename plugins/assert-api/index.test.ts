import { describe, expect, test } from "bun:test";
import { checkArgs, parseRequest, plugin, policyOf } from "./index.ts";

describe("assert_api arguments", () => {
  test("parses METHOD url, upper-casing the method", () => {
    expect(parseRequest("get http://x/a")).toEqual({ method: "GET", url: "http://x/a" });
    expect(parseRequest("FETCH http://x")).toBeUndefined();
    expect(parseRequest("http://x")).toBeUndefined();
  });

  test.each([
    [{ request: "GET http://x", body: {} }, ["body"]],
    [{ request: "DELETE http://x", body: "a" }, ["body"]],
    [{ request: "GET http://x", equals: 1 }, ["equals"]],
    [{ request: "GET http://x", body_json: "a", count: 1, count_at_least: 1 }, ["count_at_least"]],
    [{ request: "GET http://x", body_json: "a", count: 1, equals: 1 }, ["count"]],
    [{ request: "GET http://x", header_equals: "a" }, ["header_equals"]],
    [{ request: "GET http://x", header: "a", header_equals: "a", header_contains: "b" }, ["header_contains"]],
    [{ request: "GET http://x", body_json: "a..b" }, ["body_json"]],
  ])("refuses %j at %j", (args, path) => {
    expect(checkArgs(args).map((p) => p.path)).toContainEqual(path);
  });

  test("accepts a POST with a body and a complete JSON check", () => {
    expect(checkArgs({ request: "POST http://x", body: { a: 1 }, body_json: "a", equals: 1, header: "X", header_contains: "y" })).toEqual([]);
  });

  test("accepts a count without body_json: it counts a top-level array", () => {
    expect(checkArgs({ request: "GET http://x", count: 3 })).toEqual([]);
    expect(checkArgs({ request: "GET http://x", count_at_least: 1 })).toEqual([]);
  });

  test("polls reads and sends writes once unless retry says otherwise", () => {
    expect(policyOf({ request: "GET http://x" })).toBe("poll");
    expect(policyOf({ request: "HEAD http://x" })).toBe("poll");
    for (const m of ["POST", "PUT", "PATCH", "DELETE"]) expect(policyOf({ request: `${m} http://x` })).toBe("once");
    expect(policyOf({ request: "POST http://x", retry: true })).toBe("poll");
    expect(policyOf({ request: "GET http://x", retry: false })).toBe("once");
  });
});

describe("assert_api reports the request it sent", () => {
  const context = (sent: [string, string][]) => ({
    baseDir: ".",
    log: () => undefined,
    mode: "record" as const,
    flowStem: "f",
    artifactDir: ".",
    env: {},
    observe: () => undefined,
    sent: (m: string, u: string) => void sent.push([m, u]),
  });

  test("an answered request is reported as sent (its first hop); a request with no answer is not", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) =>
        new URL(req.url).pathname === "/old" ? new Response(null, { status: 307, headers: { location: "/new" } }) : new Response("{}", { status: 201 }),
    });
    try {
      const sent: [string, string][] = [];
      const base = `http://127.0.0.1:${server.port}`;
      expect(await plugin.run({ request: `POST ${base}/orders?token=q`, body: { a: 1 } }, context(sent))).toEqual({ pass: true });
      expect(await plugin.run({ request: `PUT ${base}/old` }, context(sent))).toEqual({ pass: true });
      expect(sent).toEqual([
        ["POST", `${base}/orders?token=q`],
        ["PUT", `${base}/old`],
      ]);
      const refused: [string, string][] = [];
      expect((await plugin.run({ request: "POST http://127.0.0.1:1/orders" }, context(refused))).pass).toBe(false);
      expect(refused).toEqual([]);
    } finally {
      server.stop(true);
    }
  });
});
