import { describe, expect, test } from "bun:test";
import { matchMock, mockResponse, FileRefusals } from "./mocks.ts";
import { FilePaths } from "../../src/plugins/api.ts";

const RULES = [
  { url_contains: "/api/rates", method: "GET", body: { rate: 1.23 } },
  { url_contains: "/api/save", method: "POST", status: 201, body: "saved" },
  { url_contains: "/page", content_type: "text/html", body: "<p>hi</p>" },
  { url_contains: "/empty", status: 204 },
];

const headerOf = (r: ReturnType<typeof mockResponse>, name: string) => r?.headers.find((h) => h.name.toLowerCase() === name)?.value;

describe("matchMock", () => {
  test("matches a URL substring and the method case-insensitively; the first rule wins", () => {
    expect(matchMock(RULES, "http://x/api/rates?d=1", "get")).toBe(RULES[0]);
    expect(matchMock(RULES, "http://x/api/rates", "POST")).toBeUndefined();
    expect(matchMock(RULES, "http://x/page", "DELETE")).toBe(RULES[2]);
    expect(matchMock(RULES, "http://x/other", "GET")).toBeUndefined();
  });
});

describe("mockResponse", () => {
  test("serves data as JSON, a string as text/plain, and content_type overrides", () => {
    const json = mockResponse(RULES, "http://x/api/rates", "GET", {});
    expect(json).toMatchObject({ status: 200, body: '{"rate":1.23}' });
    expect(headerOf(json, "content-type")).toBe("application/json");
    const text = mockResponse(RULES, "http://x/api/save", "POST", {});
    expect(text).toMatchObject({ status: 201, body: "saved" });
    expect(headerOf(text, "content-type")).toBe("text/plain; charset=utf-8");
    expect(headerOf(mockResponse(RULES, "http://x/page", "GET", {}), "content-type")).toBe("text/html");
    expect(mockResponse(RULES, "http://x/empty", "GET", {})).toMatchObject({ status: 204, body: "" });
  });

  test("answers with permissive CORS for the requesting origin", () => {
    const r = mockResponse(RULES, "http://api.test/api/rates", "GET", { Origin: "http://app.test" });
    expect(headerOf(r, "access-control-allow-origin")).toBe("http://app.test");
    expect(headerOf(r, "access-control-allow-credentials")).toBe("true");
    expect(headerOf(mockResponse(RULES, "http://x/api/rates", "GET", {}), "access-control-allow-origin")).toBe("*");
  });

  test("answers the CORS preflight of a mocked request and lets other preflights through", () => {
    const pre = mockResponse(RULES, "http://api.test/api/save", "OPTIONS", {
      Origin: "http://app.test",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type",
    });
    expect(pre).toMatchObject({ status: 204, body: "" });
    expect(headerOf(pre, "access-control-allow-headers")).toBe("content-type");
    expect(mockResponse(RULES, "http://api.test/other", "OPTIONS", { "access-control-request-method": "POST" })).toBeUndefined();
  });

  test("lets a request no rule matches through", () => {
    expect(mockResponse(RULES, "http://x/api/rates", "DELETE", {})).toBeUndefined();
  });
});

describe("FileRefusals", () => {
  test("unconfined, no gate; confined, a file: URL outside the roots is refused once, naming it and the root", () => {
    expect(new FileRefusals(undefined).gate()).toBeUndefined();
    expect(new FileRefusals(new FilePaths([])).gate()).toBeUndefined();
    const refusals = new FileRefusals(new FilePaths(["/srv/app"]));
    const gate = refusals.gate()!;
    expect(gate.refuses("http://127.0.0.1/etc/passwd")).toBeUndefined();
    expect(gate.refuses("file:///srv/app/page.html")).toBeUndefined();
    const why = gate.refuses("file:///etc/passwd")!;
    expect(why).toContain("the page's file file:///etc/passwd is outside the root (/srv/app)");
    gate.refused(why);
    gate.refused("a later one");
    expect(refusals.take()).toBe(why);
    expect(refusals.take()).toBeUndefined();
  });
});
