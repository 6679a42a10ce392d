import { describe, expect, test } from "bun:test";
import { checkCookie, checkCookieCount, checkCookieWhere, type CookieFacts } from "./cookies.ts";

const JAR: CookieFacts[] = [
  { name: "session_token", domain: "app.example", path: "/", httpOnly: true, secure: false, session: true },
  { name: "remember_me", domain: ".example", path: "/account", httpOnly: false, secure: true, session: false },
];

describe("checkCookie", () => {
  test.each([
    ["session_token", "exists", true],
    ["session_token", "http_only", true],
    ["remember_me", "http_only", false],
    ["remember_me", "persistent", true],
    ["session_token", "persistent", false],
    ["session_token", "secure", false],
  ] as const)("%s %s → %p", (name, fact, pass) => {
    expect(checkCookie(JAR, name, fact, "https://app.example/").reading.pass).toBe(pass);
  });

  test.each([
    ["session_token", "exists", false],
    ["missing", "exists", true],
    ["missing", "http_only", false],
    ["remember_me", "http_only", true],
    ["session_token", "http_only", false],
    ["session_token", "secure", true],
    ["session_token", "persistent", true],
  ] as const)("negated: %s %s → %p", (name, fact, pass) => {
    expect(checkCookie(JAR, name, fact, "https://app.example/", true).reading.pass).toBe(pass);
  });

  test("names the cookies that were set when the asked one is missing, never their values", () => {
    const r = checkCookie(JAR, "sesion_token", "exists", "https://app.example/");
    expect(r.reading.pass).toBe(false);
    expect(r.reading.actual).toBe('no cookie "sesion_token" is set for https://app.example/; cookies set: remember_me, session_token');
  });

  test("warns that secure over plain http certifies nothing", () => {
    const r = checkCookie(JAR, "remember_me", "secure", "http://127.0.0.1:4000/");
    expect(r.reading.pass).toBe(true);
    expect(r.warning).toContain("certifies nothing about production");
    expect(checkCookie(JAR, "remember_me", "secure", "https://app.example/").warning).toBeUndefined();
  });
});

describe("checkCookieWhere and checkCookieCount", () => {
  test("a domain compares without its leading dot and case; a path compares exactly", () => {
    expect(checkCookieWhere(JAR, "remember_me", "domain", "EXAMPLE", "https://app.example/")).toEqual({
      pass: true,
      actual: 'cookie "remember_me" has domain .example',
    });
    expect(checkCookieWhere(JAR, "session_token", "domain", "example", "https://app.example/").pass).toBe(false);
    expect(checkCookieWhere(JAR, "remember_me", "path", "/account", "https://app.example/").pass).toBe(true);
    expect(checkCookieWhere(JAR, "remember_me", "path", "/", "https://app.example/")).toEqual({
      pass: false,
      actual: 'cookie "remember_me" has path /account',
    });
    expect(checkCookieWhere(JAR, "theme", "path", "/", "https://app.example/").actual).toBe(
      'no cookie "theme" is set for https://app.example/; cookies set: remember_me, session_token',
    );
  });

  test("a count names the cookies that are set", () => {
    expect(checkCookieCount(JAR, 2, "https://app.example/")).toEqual({
      pass: true,
      actual: "2 cookies are set for https://app.example/: remember_me, session_token",
    });
    expect(checkCookieCount([], 0, "https://app.example/")).toEqual({ pass: true, actual: "0 cookies are set for https://app.example/: none" });
    expect(checkCookieCount(JAR.slice(0, 1), 0, "https://app.example/")).toEqual({
      pass: false,
      actual: "1 cookie is set for https://app.example/: session_token",
    });
  });
});
