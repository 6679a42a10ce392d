import { describe, expect, test } from "bun:test";
import {
  chordInputs,
  clickInputs,
  encodeInputs,
  INPUT_SIZE,
  KEYEVENTF_EXTENDEDKEY,
  KEYEVENTF_KEYUP,
  KEYEVENTF_UNICODE,
  MOUSEEVENTF_ABSOLUTE,
  MOUSEEVENTF_LEFTDOWN,
  MOUSEEVENTF_LEFTUP,
  MOUSEEVENTF_MOVE,
  VK,
  textInputs,
  virtualKey,
} from "./input.ts";

describe("virtual keys", () => {
  test("named keys, F1–F24, letters and digits; undefined for anything else", () => {
    expect(virtualKey("Enter")).toEqual({ vk: 0x0d, extended: false });
    expect(virtualKey("F1")).toEqual({ vk: 0x70, extended: false });
    expect(virtualKey("F12")).toEqual({ vk: 0x7b, extended: false });
    expect(virtualKey("f24")?.vk).toBe(0x87);
    expect(virtualKey("ArrowLeft")).toEqual({ vk: 0x25, extended: true });
    expect(virtualKey("a")).toEqual({ vk: 0x41, extended: false });
    expect(virtualKey("7")?.vk).toBe(0x37);
    expect(virtualKey("F25")).toBeUndefined();
    expect(virtualKey("é")).toBeUndefined();
  });
});

describe("INPUT records", () => {
  test("text is a Unicode down/up pair per UTF-16 unit; a line break is Enter", () => {
    const events = textInputs("hé\n");
    expect(events).toEqual([
      { type: "key", vk: 0, scan: 0x68, flags: KEYEVENTF_UNICODE },
      { type: "key", vk: 0, scan: 0x68, flags: KEYEVENTF_UNICODE | KEYEVENTF_KEYUP },
      { type: "key", vk: 0, scan: 0xe9, flags: KEYEVENTF_UNICODE },
      { type: "key", vk: 0, scan: 0xe9, flags: KEYEVENTF_UNICODE | KEYEVENTF_KEYUP },
      { type: "key", vk: VK.RETURN, scan: 0, flags: 0 },
      { type: "key", vk: VK.RETURN, scan: 0, flags: KEYEVENTF_KEYUP },
    ]);
    expect(textInputs("😀").length).toBe(4);
  });
  test("a chord holds the modifiers around the key and releases them in reverse", () => {
    const vks = chordInputs("F4", ["ctrl", "shift"]).map((e) => (e.type === "key" ? [e.vk, e.flags & KEYEVENTF_KEYUP ? "up" : "down"] : []));
    expect(vks).toEqual([
      [VK.CONTROL, "down"],
      [VK.SHIFT, "down"],
      [0x73, "down"],
      [0x73, "up"],
      [VK.SHIFT, "up"],
      [VK.CONTROL, "up"],
    ]);
    expect(chordInputs("Home")[0]).toEqual({ type: "key", vk: VK.HOME, scan: 0, flags: KEYEVENTF_EXTENDEDKEY });
    expect(chordInputs("a", ["mod", "ctrl"]).length).toBe(4);
    expect(() => chordInputs("Hyper")).toThrow(/no virtual key for "Hyper"/);
  });
  test("a click moves in absolute 0..65535 coordinates, then presses and releases", () => {
    const events = clickInputs(639, 0, { width: 1280, height: 800 }, "left", 2);
    expect(events.length).toBe(5);
    expect(events[0]).toEqual({ type: "mouse", dx: 32742, dy: 0, flags: MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE });
    expect(events.slice(1).map((e) => e.flags)).toEqual(
      [MOUSEEVENTF_LEFTDOWN, MOUSEEVENTF_LEFTUP, MOUSEEVENTF_LEFTDOWN, MOUSEEVENTF_LEFTUP].map((f) => f | MOUSEEVENTF_ABSOLUTE),
    );
  });
  test("encodes 40-byte records at the x64 offsets", () => {
    const bytes = encodeInputs([
      { type: "key", vk: 0x41, scan: 0x1e, flags: KEYEVENTF_KEYUP },
      { type: "mouse", dx: -5, dy: 7, flags: MOUSEEVENTF_LEFTDOWN },
    ]);
    expect(bytes.byteLength).toBe(2 * INPUT_SIZE);
    const v = new DataView(bytes.buffer);
    expect([v.getUint32(0, true), v.getUint16(8, true), v.getUint16(10, true), v.getUint32(12, true)]).toEqual([1, 0x41, 0x1e, KEYEVENTF_KEYUP]);
    expect([v.getUint32(40, true), v.getInt32(48, true), v.getInt32(52, true), v.getUint32(60, true)]).toEqual([0, -5, 7, MOUSEEVENTF_LEFTDOWN]);
  });
});
