import { describe, expect, test } from "bun:test";
import type { KeyModifier } from "../../src/plugins/api.ts";
import { vkeyFor } from "./keys.ts";

describe("vkeyFor", () => {
  test.each<[string, KeyModifier[], number | undefined]>([
    ["Enter", [], 0],
    ["F1", [], 1],
    ["F12", [], 12],
    ["F2", ["shift"], 14],
    ["F1", ["ctrl"], 25],
    ["F12", ["ctrl", "shift"], 48],
    ["s", ["ctrl"], 11],
    ["S", ["mod"], 11],
    ["Escape", [], 12],
    ["PageDown", [], 82],
    ["PageUp", ["ctrl"], 80],
    ["F13", [], undefined],
    ["F4", ["alt"], undefined],
    ["Tab", [], undefined],
    ["a", ["shift"], undefined],
  ])("%s with %j is VKey %p", (key, mods, vkey) => {
    expect(vkeyFor(key, mods)).toBe(vkey);
  });
});
