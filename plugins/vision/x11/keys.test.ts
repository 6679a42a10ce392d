import { describe, expect, test } from "bun:test";
import { charKeysym, keysymName, MODIFIER_KEYSYMS } from "./keys.ts";

describe("X11 keys", () => {
  test.each([
    ["Enter", "Return"],
    ["Escape", "Escape"],
    ["Backspace", "BackSpace"],
    ["ArrowUp", "Up"],
    ["PageDown", "Next"],
    ["F4", "F4"],
    ["f12", "F12"],
    ["A", "a"],
    ["7", "7"],
  ])("the key %p is the keysym %p", (key, name) => {
    expect(keysymName(key)).toBe(name);
  });

  test("keys X11 has no name for are undefined; modifiers map to their left keys", () => {
    expect(keysymName("F36")).toBeUndefined();
    expect(keysymName("plus")).toBeUndefined();
    expect(MODIFIER_KEYSYMS.mod).toBe("Control_L");
  });

  test("characters: Latin-1 is its own keysym, the rest the Unicode range, line breaks and tabs their keys", () => {
    expect(["a", "A", "-", "é", "€", "\n", "\t"].map(charKeysym)).toEqual([0x61, 0x41, 0x2d, 0xe9, 0x010020ac, 0xff0d, 0xff09]);
  });
});
