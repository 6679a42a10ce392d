import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import type { Modifier } from "./ast.ts";
import { parseKeys } from "./keys.ts";

const slice = (text: string) => ({ text, offset: 6 });

describe("parseKeys", () => {
  test.each<[string, string, string, Modifier[]]>([
    ["Enter", "web", "Enter", []],
    ["enter", "web", "Enter", []],
    ["ESCAPE", "web", "Escape", []],
    ["Esc", "web", "Escape", []],
    ["Return", "web", "Enter", []],
    ["Shift+Return", "web", "Enter", ["shift"]],
    ["Del", "web", "Delete", []],
    ["arrowup", "web", "ArrowUp", []],
    ["PageDown", "web", "PageDown", []],
    ["Space", "web", "Space", []],
    ["Control+V", "web", "v", ["ctrl"]],
    ["Ctrl+Shift+Z", "web", "z", ["ctrl", "shift"]],
    ["Alt+Shift+Backspace", "web", "Backspace", ["alt", "shift"]],
    ["Shift+Alt+Backspace", "web", "Backspace", ["alt", "shift"]],
    ["Mod+K", "web", "k", ["mod"]],
    ["CtrlOrMeta+Shift+P", "web", "p", ["mod", "shift"]],
    ["ControlOrMeta+A", "web", "a", ["mod"]],
    ["Cmd+S", "web", "s", ["meta"]],
    ["Win+D", "web", "d", ["meta"]],
    ["Command+Q", "web", "q", ["meta"]],
    ["Meta+1", "web", "1", ["meta"]],
    ["Option+Tab", "web", "Tab", ["alt"]],
    ["Shift + Tab", "web", "Tab", ["shift"]],
    ["F8", "windows", "F8", []],
    ["f12", "windows", "F12", []],
    ["Alt+F4", "windows", "F4", ["alt"]],
    ["F1", "sap", "F1", []],
    ["Shift+F3", "sap", "F3", ["shift"]],
    ["F8", "vision", "F8", []],
    ["F8", "calc", "F8", []],
    ["F8", "notepad", "F8", []],
    ["plus", "calc", "plus", []],
    ["add", "calc", "plus", []],
    ["Minus", "calc", "minus", []],
    ["subtract", "calc", "minus", []],
    ["times", "calc", "times", []],
    ["multiply", "calc", "times", []],
    ["divide", "calc", "divide", []],
    ["equals", "calc", "equals", []],
    ["equal", "calc", "equals", []],
    ["clear", "calc", "clear", []],
    ["Ctrl+H", "calc", "h", ["ctrl"]],
    ["Enter", "calc", "Enter", []],
    ["Shift", "web", "Shift", []],
    ["shift", "web", "Shift", []],
    ["Ctrl", "web", "Control", []],
    ["Option", "web", "Alt", []],
    ["Cmd", "web", "Meta", []],
  ])("reads %s on %s as key %s", (text, app, key, modifiers) => {
    expect(parseKeys(slice(text), at(app).surface)).toEqual({ ok: true, value: { key, modifiers } });
  });

  test.each<[string, string, string, string, number, number]>([
    ["F5", "web", "unsupported-step", 'Press the "Refresh" button', 6, 2],
    ["Alt+F4", "web", "unsupported-step", 'Click "Close"', 10, 2],
    ["F13", "windows", "unknown-step", "not a key", 6, 3],
    ["F0", "windows", "unknown-step", "not a key", 6, 2],
    ["F01", "windows", "unknown-step", "not a key", 6, 3],
    ["7", "web", "unknown-step", "`Type 7`", 6, 1],
    ["a", "web", "unknown-step", "`Type a`", 6, 1],
    ["hard on the app", "web", "unknown-step", "not a key", 6, 15],
    ["bogus", "calc", "unknown-step", "not a calculator key", 6, 5],
    ["plus", "web", "unknown-step", "not a key", 6, 4],
    ["Mod", "web", "unknown-step", "is not pressed alone", 6, 3],
    ["Ctrl+Shift", "web", "unknown-step", "is a modifier, not the chord's key", 11, 5],
    ["Hyper+K", "web", "unknown-step", "not a key", 6, 5],
    ["Ctrl+Ctrl+K", "web", "unknown-step", "appears twice", 11, 4],
    ["Ctrl+", "web", "unknown-step", "not a key", 11, 1],
    ["Ctrl+Banana", "web", "unknown-step", "not a key", 11, 6],
  ])("rejects %s on %s", (text, app, code, words, offset, length) => {
    const r = parseKeys(slice(text), at(app).surface);
    if (r.ok) throw new Error("expected an error");
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
    expect([r.error.offset, r.error.length]).toEqual([offset, length]);
  });
});
