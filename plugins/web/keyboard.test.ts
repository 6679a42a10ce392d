import { describe, expect, test } from "bun:test";
import { modifierEvents, strokeEvents, textStrokes } from "./keyboard.ts";
import { MODIFIER_BITS } from "./keys.ts";

describe("textStrokes", () => {
  test("one stroke per character, a newline typed as Enter", () => {
    expect(textStrokes("a\nÉ")).toEqual([{ key: "a", modifiers: 0 }, { key: "Enter", modifiers: 0 }, { key: "É", modifiers: 0 }]);
  });
});

describe("strokeEvents", () => {
  test("a character is a keyDown carrying its text, then a keyUp", () => {
    expect(strokeEvents([{ key: "a", modifiers: 0 }])).toEqual([
      { type: "keyDown", key: "a", code: "KeyA", windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65, modifiers: 0, text: "a", unmodifiedText: "a" },
      { type: "keyUp", key: "a", code: "KeyA", windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65, modifiers: 0 },
    ]);
  });

  test("an upper-case letter or shifted punctuation holds Shift", () => {
    expect(strokeEvents([{ key: "Z", modifiers: 0 }, { key: "?", modifiers: 0 }]).map((e) => e.modifiers)).toEqual([8, 8, 8, 8]);
  });

  test("a Ctrl, Alt or Meta chord produces no text; Shift alone still does", () => {
    for (const m of ["ctrl", "alt", "meta"] as const) expect(strokeEvents([{ key: "a", modifiers: MODIFIER_BITS[m] }])[0]).toMatchObject({ type: "rawKeyDown", modifiers: MODIFIER_BITS[m] });
    expect(strokeEvents([{ key: "a", modifiers: MODIFIER_BITS.shift }])[0]).toMatchObject({ type: "keyDown", text: "a" });
  });

  test("a named key without text is a rawKeyDown", () => {
    expect(strokeEvents([{ key: "Tab", modifiers: 0 }])[0]).toMatchObject({ type: "rawKeyDown", key: "Tab", windowsVirtualKeyCode: 9 });
  });

  test("an unknown key name is refused before any event", () => {
    expect(() => strokeEvents([{ key: "NoSuchKey", modifiers: 0 }])).toThrow(expect.objectContaining({ code: "unsupported-step", message: 'no key definition for "NoSuchKey" in the web adapter' }));
  });
});

describe("modifierEvents", () => {
  test("modifiers go down in a fixed order, accumulating, and come up in reverse", () => {
    const { down, up } = modifierEvents(MODIFIER_BITS.shift | MODIFIER_BITS.ctrl);
    expect(down.map((e) => [e.type, e.key, e.modifiers])).toEqual([["rawKeyDown", "Control", 2], ["rawKeyDown", "Shift", 10]]);
    expect(up.map((e) => [e.type, e.key, e.modifiers])).toEqual([["keyUp", "Shift", 2], ["keyUp", "Control", 0]]);
  });

  test("no modifier, no events", () => {
    expect(modifierEvents(0)).toEqual({ down: [], up: [] });
  });
});
