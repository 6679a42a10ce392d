import { describe, expect, test } from "bun:test";
import { FlowproofError } from "../../../src/plugins/api.ts";
import { chordActions, clickActions, dragActions, keyValue, textActions } from "./input.ts";

describe("key values", () => {
  test("named keys are WebDriver's code points; characters are themselves", () => {
    expect(keyValue("Enter")).toBe("\uE007");
    expect(keyValue("Tab")).toBe("\uE004");
    expect(keyValue("F12")).toBe("\uE03C");
    expect(keyValue("Space")).toBe(" ");
    expect(keyValue("a")).toBe("a");
    expect(keyValue("é")).toBe("é");
  });

  test("a key with no definition is refused, naming it", () => {
    expect(() => keyValue("Hyper")).toThrow(FlowproofError);
    expect(() => keyValue("Hyper")).toThrow('"Hyper"');
  });

  test("text is typed a press per character, a newline as Enter", () => {
    expect(textActions("a\nb")).toEqual([
      { type: "keyDown", value: "a" },
      { type: "keyUp", value: "a" },
      { type: "keyDown", value: "\uE007" },
      { type: "keyUp", value: "\uE007" },
      { type: "keyDown", value: "b" },
      { type: "keyUp", value: "b" },
    ]);
  });

  test("a chord holds its modifiers around the key and releases them in reverse; mod is Ctrl off macOS and Meta on it", () => {
    expect(chordActions("a", ["mod", "shift"], "linux").map((a) => `${a.type}:${a.value}`)).toEqual([
      "keyDown:\uE009",
      "keyDown:\uE008",
      "keyDown:a",
      "keyUp:a",
      "keyUp:\uE008",
      "keyUp:\uE009",
    ]);
    expect(chordActions("a", ["mod"], "darwin")[0]).toEqual({ type: "keyDown", value: "\uE03D" });
  });
});

describe("pointer actions", () => {
  test("a double right click moves once then presses and releases button 2 twice, at whole pixels", () => {
    expect(clickActions({ x: 10.6, y: 20.2 }, { button: "right", clickCount: 2 })).toEqual([
      { type: "pointerMove", x: 11, y: 20, duration: 0 },
      { type: "pointerDown", button: 2 },
      { type: "pointerUp", button: 2 },
      { type: "pointerDown", button: 2 },
      { type: "pointerUp", button: 2 },
    ]);
  });

  test("a drag presses at the source, moves in steps to the target, and releases there", () => {
    const actions = dragActions({ x: 0, y: 0 }, { x: 100, y: 50 });
    expect(actions[0]).toEqual({ type: "pointerMove", x: 0, y: 0, duration: 0 });
    expect(actions[1]).toEqual({ type: "pointerDown", button: 0 });
    const moves = actions.filter((a) => a.type === "pointerMove");
    expect(moves.length).toBeGreaterThan(5);
    expect(moves.at(-1)).toMatchObject({ x: 100, y: 50 });
    expect(actions.at(-1)).toEqual({ type: "pointerUp", button: 0 });
  });
});
