import { describe, expect, test } from "bun:test";
import { pathToFileURL } from "node:url";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";
import { resolveStartUrl } from "./start-url.ts";

describe("resolveStartUrl", () => {
  const flowPath = "/projects/demo/flows/login.flow.yaml";

  test.each([
    ["http://127.0.0.1:3000/login", "http://127.0.0.1:3000/login"],
    ["https://example.test/a?b=c", "https://example.test/a?b=c"],
    ["file:///srv/page.html", "file:///srv/page.html"],
    ["about:blank", "about:blank"],
  ])("keeps the absolute URL %s", (raw, url) => {
    expect(resolveStartUrl(raw, flowPath, {}, new Map())).toBe(url);
  });

  test.each([
    ["pages/login.html", "/projects/demo/flows/pages/login.html"],
    ["../site/index.html", "/projects/demo/site/index.html"],
    ["/abs/page.html", "/abs/page.html"],
    ["my page.html", "/projects/demo/flows/my page.html"],
  ])("makes the path %s a file URL next to the flow", (raw, path) => {
    expect(resolveStartUrl(raw, flowPath, {}, new Map())).toBe(pathToFileURL(path).href);
  });

  test("resolves ${VAR} and records its value as a secret", () => {
    const secrets = new Map<string, string>();
    expect(resolveStartUrl("${APP_URL}/login", flowPath, { APP_URL: "http://127.0.0.1:4000" }, secrets)).toBe("http://127.0.0.1:4000/login");
    expect([...secrets]).toEqual([["APP_URL", "http://127.0.0.1:4000"]]);
  });

  test("resolves ${VAR} to a relative path against the flow", () => {
    expect(resolveStartUrl("${PAGE}", flowPath, { PAGE: "p.html" }, new Map())).toBe(pathToFileURL("/projects/demo/flows/p.html").href);
  });

  test("refuses an unset variable", () => {
    expect(() => resolveStartUrl("${APP_URL}/login", flowPath, {}, new Map())).toThrow(UnresolvedReferenceError);
  });
});

describe("resolveStartUrl without a scheme", () => {
  test.each(["localhost:3000/login", "127.0.0.1:3000/login"])("refuses %s and suggests http://", (raw) => {
    expect(() => resolveStartUrl(raw, "/tmp/a.flow.yaml", {}, new Map())).toThrow(SpecError);
  });
});
