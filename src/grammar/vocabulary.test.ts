import { describe, expect, test } from "bun:test";
import { GRAMMAR_FORMS, GRAMMAR_VERBS, lacks } from "./vocabulary.ts";

describe("lacks", () => {
  test("a surface lacks exactly the forms it declares", () => {
    expect(lacks({ surface: { name: "desk", lacks: ["css", "iframe"] } }, "css")).toBe(true);
    expect(lacks({ surface: { name: "desk", lacks: ["css"] } }, "cookie")).toBe(false);
    expect(GRAMMAR_FORMS.some((f) => lacks({ surface: { name: "page" } }, f))).toBe(false);
  });

  test("names every form and verb once", () => {
    expect(new Set(GRAMMAR_FORMS).size).toBe(GRAMMAR_FORMS.length);
    expect(new Set(GRAMMAR_VERBS).size).toBe(GRAMMAR_VERBS.length);
  });
});
