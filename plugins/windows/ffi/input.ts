// SendInput's INPUT records, built in pure code: keystrokes for text (KEYEVENTF_UNICODE), key
// chords with virtual keys (F1–F24, named keys, modifiers) and mouse clicks at screen points.
// user32.ts hands the encoded bytes to SendInput.
import { FlowproofError } from "../../../src/plugins/api.ts";

export const INPUT_MOUSE = 0;
export const INPUT_KEYBOARD = 1;
/** sizeof(INPUT) on x64: type (4) + padding (4) + the 32-byte union. */
export const INPUT_SIZE = 40;

export const KEYEVENTF_EXTENDEDKEY = 0x1;
export const KEYEVENTF_KEYUP = 0x2;
export const KEYEVENTF_UNICODE = 0x4;

export const MOUSEEVENTF_MOVE = 0x1;
export const MOUSEEVENTF_LEFTDOWN = 0x2;
export const MOUSEEVENTF_LEFTUP = 0x4;
export const MOUSEEVENTF_RIGHTDOWN = 0x8;
export const MOUSEEVENTF_RIGHTUP = 0x10;
export const MOUSEEVENTF_ABSOLUTE = 0x8000;

/** One INPUT record. */
export type InputEvent =
  | { readonly type: "key"; readonly vk: number; readonly scan: number; readonly flags: number }
  | { readonly type: "mouse"; readonly dx: number; readonly dy: number; readonly flags: number };

export const VK = {
  BACK: 0x08,
  TAB: 0x09,
  RETURN: 0x0d,
  SHIFT: 0x10,
  CONTROL: 0x11,
  MENU: 0x12,
  ESCAPE: 0x1b,
  SPACE: 0x20,
  PRIOR: 0x21,
  NEXT: 0x22,
  END: 0x23,
  HOME: 0x24,
  LEFT: 0x25,
  UP: 0x26,
  RIGHT: 0x27,
  DOWN: 0x28,
  INSERT: 0x2d,
  DELETE: 0x2e,
  LWIN: 0x5b,
  MULTIPLY: 0x6a,
  ADD: 0x6b,
  SUBTRACT: 0x6d,
  DIVIDE: 0x6f,
  F1: 0x70,
} as const;

/** Named keys (the grammar's canonical names, calculator keys too) → virtual key and whether it is an extended key. */
const NAMED: ReadonlyMap<string, { vk: number; extended: boolean }> = new Map([
  ["enter", { vk: VK.RETURN, extended: false }],
  ["escape", { vk: VK.ESCAPE, extended: false }],
  ["tab", { vk: VK.TAB, extended: false }],
  ["backspace", { vk: VK.BACK, extended: false }],
  ["delete", { vk: VK.DELETE, extended: true }],
  ["insert", { vk: VK.INSERT, extended: true }],
  ["space", { vk: VK.SPACE, extended: false }],
  ["arrowup", { vk: VK.UP, extended: true }],
  ["arrowdown", { vk: VK.DOWN, extended: true }],
  ["arrowleft", { vk: VK.LEFT, extended: true }],
  ["arrowright", { vk: VK.RIGHT, extended: true }],
  ["home", { vk: VK.HOME, extended: true }],
  ["end", { vk: VK.END, extended: true }],
  ["pageup", { vk: VK.PRIOR, extended: true }],
  ["pagedown", { vk: VK.NEXT, extended: true }],
  ["plus", { vk: VK.ADD, extended: false }],
  ["minus", { vk: VK.SUBTRACT, extended: false }],
  ["times", { vk: VK.MULTIPLY, extended: false }],
  ["divide", { vk: VK.DIVIDE, extended: true }],
  ["equals", { vk: VK.RETURN, extended: false }],
  ["clear", { vk: VK.ESCAPE, extended: false }],
]);

export type KeyModifier = "ctrl" | "alt" | "shift" | "meta" | "mod";

const MODIFIER_VK: Readonly<Record<KeyModifier, { vk: number; extended: boolean }>> = {
  ctrl: { vk: VK.CONTROL, extended: false },
  mod: { vk: VK.CONTROL, extended: false },
  alt: { vk: VK.MENU, extended: false },
  shift: { vk: VK.SHIFT, extended: false },
  meta: { vk: VK.LWIN, extended: true },
};

/** The virtual key for a key name: a named key, F1–F24, a letter or a digit. Undefined when there is none. */
export function virtualKey(key: string): { vk: number; extended: boolean } | undefined {
  const named = NAMED.get(key.toLowerCase());
  if (named !== undefined) return named;
  const f = /^f([1-9]|1[0-9]|2[0-4])$/i.exec(key);
  if (f !== null) return { vk: VK.F1 + Number(f[1]) - 1, extended: false };
  if (/^[a-z0-9]$/i.test(key)) return { vk: key.toUpperCase().charCodeAt(0), extended: false };
  return undefined;
}

const keyEvent = (vk: number, extended: boolean, up: boolean): InputEvent => ({
  type: "key",
  vk,
  scan: 0,
  flags: (extended ? KEYEVENTF_EXTENDEDKEY : 0) | (up ? KEYEVENTF_KEYUP : 0),
});

/** Down and up for each UTF-16 unit of `text` as KEYEVENTF_UNICODE; a line break is the Enter key, a tab the Tab key. */
export function textInputs(text: string): InputEvent[] {
  const out: InputEvent[] = [];
  const normalised = text.replace(/\r\n?/g, "\n");
  for (let i = 0; i < normalised.length; i++) {
    const unit = normalised.charCodeAt(i);
    if (unit === 0x0a || unit === 0x09) {
      const vk = unit === 0x0a ? VK.RETURN : VK.TAB;
      out.push(keyEvent(vk, false, false), keyEvent(vk, false, true));
      continue;
    }
    out.push({ type: "key", vk: 0, scan: unit, flags: KEYEVENTF_UNICODE }, { type: "key", vk: 0, scan: unit, flags: KEYEVENTF_UNICODE | KEYEVENTF_KEYUP });
  }
  return out;
}

/** A key chord: modifiers down in order, the key down and up, modifiers up in reverse. Throws for a key with no virtual key. */
export function chordInputs(key: string, modifiers: readonly KeyModifier[] = []): InputEvent[] {
  const k = virtualKey(key);
  if (k === undefined)
    throw new FlowproofError({
      code: "unsupported-step",
      message: `no virtual key for "${key}"`,
      hint: "press a named key such as Enter or F4, a letter or a digit",
    });
  const mods = [...new Map(modifiers.map((m) => [MODIFIER_VK[m].vk, MODIFIER_VK[m]])).values()];
  return [
    ...mods.map((m) => keyEvent(m.vk, m.extended, false)),
    keyEvent(k.vk, k.extended, false),
    keyEvent(k.vk, k.extended, true),
    ...[...mods].reverse().map((m) => keyEvent(m.vk, m.extended, true)),
  ];
}

/** A click (or double click) at screen point (x, y): an absolute move, then button down/up `count` times. */
export function clickInputs(
  x: number,
  y: number,
  screen: { width: number; height: number },
  button: "left" | "right" = "left",
  count: 1 | 2 = 1,
): InputEvent[] {
  // Absolute coordinates are 0..65535 across the primary screen.
  const nx = Math.round((x * 65535) / Math.max(1, screen.width - 1));
  const ny = Math.round((y * 65535) / Math.max(1, screen.height - 1));
  const [down, up] = button === "left" ? [MOUSEEVENTF_LEFTDOWN, MOUSEEVENTF_LEFTUP] : [MOUSEEVENTF_RIGHTDOWN, MOUSEEVENTF_RIGHTUP];
  const out: InputEvent[] = [{ type: "mouse", dx: nx, dy: ny, flags: MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE }];
  for (let i = 0; i < count; i++)
    out.push({ type: "mouse", dx: nx, dy: ny, flags: down | MOUSEEVENTF_ABSOLUTE }, { type: "mouse", dx: nx, dy: ny, flags: up | MOUSEEVENTF_ABSOLUTE });
  return out;
}

/**
 * The INPUT array for `events`, 40 bytes each. Keyboard: wVk u16 @8, wScan u16 @10, dwFlags u32 @12.
 * Mouse: dx i32 @8, dy i32 @12, mouseData u32 @16, dwFlags u32 @20.
 */
export function encodeInputs(events: readonly InputEvent[]): Uint8Array {
  const out = new Uint8Array(events.length * INPUT_SIZE);
  const view = new DataView(out.buffer);
  events.forEach((e, i) => {
    const at = i * INPUT_SIZE;
    if (e.type === "key") {
      view.setUint32(at, INPUT_KEYBOARD, true);
      view.setUint16(at + 8, e.vk, true);
      view.setUint16(at + 10, e.scan, true);
      view.setUint32(at + 12, e.flags, true);
    } else {
      view.setUint32(at, INPUT_MOUSE, true);
      view.setInt32(at + 8, e.dx, true);
      view.setInt32(at + 12, e.dy, true);
      view.setUint32(at + 20, e.flags, true);
    }
  });
  return out;
}
