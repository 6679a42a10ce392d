import { describe, expect, test } from "bun:test";
import { MODIFIER_KEYS, keyDefinition, modifierMask } from "./keys.ts";

describe("keyDefinition", () => {
  test.each([
    ["Enter", { key: "Enter", code: "Enter", keyCode: 13, text: "\r", shift: false }],
    ["Tab", { key: "Tab", code: "Tab", keyCode: 9, shift: false }],
    ["Escape", { key: "Escape", code: "Escape", keyCode: 27, shift: false }],
    ["Backspace", { key: "Backspace", code: "Backspace", keyCode: 8, shift: false }],
    ["ArrowDown", { key: "ArrowDown", code: "ArrowDown", keyCode: 40, shift: false }],
    ["Space", { key: " ", code: "Space", keyCode: 32, text: " ", shift: false }],
    ["F1", { key: "F1", code: "F1", keyCode: 112, shift: false }],
    ["F12", { key: "F12", code: "F12", keyCode: 123, shift: false }],
  ])("defines the named key %s", (name, def) => {
    expect(keyDefinition(name)).toEqual(def);
  });

  test.each([
    ["a", { key: "a", code: "KeyA", keyCode: 65, text: "a", shift: false }],
    ["v", { key: "v", code: "KeyV", keyCode: 86, text: "v", shift: false }],
    ["Z", { key: "Z", code: "KeyZ", keyCode: 90, text: "Z", shift: true }],
    ["7", { key: "7", code: "Digit7", keyCode: 55, text: "7", shift: false }],
    [" ", { key: " ", code: "Space", keyCode: 32, text: " ", shift: false }],
  ])("defines the letter or digit %p", (ch, def) => {
    expect(keyDefinition(ch)).toEqual(def);
  });

  test.each([
    ["-", "Minus", 189, false],
    ["/", "Slash", 191, false],
    ["'", "Quote", 222, false],
    ["!", "Digit1", 49, true],
    ["@", "Digit2", 50, true],
    ["_", "Minus", 189, true],
    ['"', "Quote", 222, true],
    ["?", "Slash", 191, true],
  ])("defines punctuation %p on %s with shift %p", (ch, code, keyCode, shift) => {
    expect(keyDefinition(ch)).toEqual({ key: ch, code, keyCode, text: ch, shift });
  });

  test.each(["é", "日", "😀"])("inserts %p as text with no physical key", (ch) => {
    expect(keyDefinition(ch)).toEqual({ key: ch, code: "", keyCode: 0, text: ch, shift: false });
  });

  test.each(["Foo", "enter", "F13", "ab", ""])("knows no key named %p", (name) => {
    expect(keyDefinition(name)).toBeUndefined();
  });
});

describe("modifierMask", () => {
  test.each<[("ctrl" | "alt" | "shift" | "meta" | "mod")[], string, number]>([
    [[], "linux", 0],
    [["alt"], "linux", 1],
    [["ctrl"], "linux", 2],
    [["meta"], "linux", 4],
    [["shift"], "linux", 8],
    [["ctrl", "shift"], "linux", 10],
    [["alt", "ctrl", "meta", "shift"], "linux", 15],
    [["mod"], "linux", 2],
    [["mod"], "win32", 2],
    [["mod"], "darwin", 4],
    [["mod", "shift"], "darwin", 12],
    [["ctrl", "ctrl"], "linux", 2],
  ])("masks %j on %s as %d", (modifiers, platform, mask) => {
    expect(modifierMask(modifiers, platform)).toBe(mask);
  });
});

describe("MODIFIER_KEYS", () => {
  test("names the left-hand key of each modifier", () => {
    expect(Object.values(MODIFIER_KEYS).map((k) => k.code)).toEqual(["AltLeft", "ControlLeft", "MetaLeft", "ShiftLeft"]);
  });
});
