import { describe, expect, test } from "bun:test";
import { checkCookie, type CookieFacts } from "./cookies.ts";

const JAR: CookieFacts[] = [
  { name: "session_token", httpOnly: true, secure: false, session: true },
  { name: "remember_me", httpOnly: false, secure: true, session: false },
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
