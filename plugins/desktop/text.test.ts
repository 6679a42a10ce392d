import { describe, expect, test } from "bun:test";
import { collapse, occurrences, ordinal, readNumber, shows, showsAny, showsTimes } from "./text.ts";

describe("shows", () => {
  test.each<[string, string, boolean]>([
    ["Standard Order 4711 has been saved", "has been saved", true],
    ["Standard Order 4711 has been saved", "HAS BEEN SAVED", true],
    ["Hello,\n  Ada!", "Hello, Ada!", true],
    ["Ready", "Readiness", false],
  ])("%p shows %p: %p", (text, needle, pass) => {
    expect(shows(text, needle)).toBe(pass);
  });
});

describe("showsTimes", () => {
  test("counts as written, else ignoring case; a count that matches neither fails, naming what was seen", () => {
    expect(showsTimes("row\nrow\nrow", "row", 3)).toEqual({ pass: true, seen: 3 });
    expect(showsTimes("row\nrow\nrow", "row", 2)).toEqual({ pass: false, seen: 3 });
    expect(showsTimes("Row row ROW", "row", 3)).toEqual({ pass: true, seen: 1 });
    expect(showsTimes("Row row ROW", "row", 1)).toEqual({ pass: true, seen: 1 });
    expect(showsTimes("ROW ROW", "row", 2)).toEqual({ pass: true, seen: 2 });
    expect(showsTimes("nothing", "row", 0)).toEqual({ pass: true, seen: 0 });
  });
});

test("occurrences do not overlap; white space collapses", () => {
  expect(occurrences("aaaa", "aa")).toBe(2);
  expect(occurrences("abc", "")).toBe(0);
  expect(collapse("  a \n\t b ")).toBe("a b");
});

test("readNumber reads the first number a text shows", () => {
  expect(readNumber("Display is 1,234.5")).toBe(1234.5);
  expect(readNumber("4711")).toBe(4711);
  expect(readNumber("\u22128")).toBe(-8);
  expect(readNumber("no number")).toBeUndefined();
});

test("the display's number is read whatever surrounds it", () => {
  expect(readNumber("Display is 8")).toBe(8);
  expect(readNumber("Display is 1,234.5")).toBe(1234.5);
  expect(readNumber("\u22123")).toBe(-3);
  expect(readNumber("Display is empty")).toBeUndefined();
});

test("ordinals are written as words are read", () => {
  expect([1, 2, 3, 4, 11, 12, 13, 21, 102].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd"]);
});

test("a secret shows in a text whatever its letter case and however it is spaced; an empty secret shows nowhere", () => {
  expect(showsAny(["Echo: note / PA SS-word7"], ["pass-Word7"])).toBe(true);
  expect(showsAny(["Echo: note / pass-word"], ["pass-Word7"])).toBe(false);
  expect(showsAny(["anything"], ["  "])).toBe(false);
});
