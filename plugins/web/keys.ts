// Key definitions for trusted keyboard input (Input.dispatchKeyEvent): key, code, virtual key
// code and the text a key produces. Pure data and lookups.
import type { KeyModifier } from "../../src/plugins/api.ts";

export interface KeyDefinition {
  readonly key: string;
  readonly code: string;
  readonly keyCode: number;
  /** Text the key inserts (Enter inserts "\r"), absent for non-printing keys. */
  readonly text?: string;
}

const NAMED: Record<string, KeyDefinition> = {
  Enter: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  Tab: { key: "Tab", code: "Tab", keyCode: 9 },
  Escape: { key: "Escape", code: "Escape", keyCode: 27 },
  Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
  Delete: { key: "Delete", code: "Delete", keyCode: 46 },
  Space: { key: " ", code: "Space", keyCode: 32, text: " " },
  ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  Home: { key: "Home", code: "Home", keyCode: 36 },
  End: { key: "End", code: "End", keyCode: 35 },
  PageUp: { key: "PageUp", code: "PageUp", keyCode: 33 },
  PageDown: { key: "PageDown", code: "PageDown", keyCode: 34 },
  Insert: { key: "Insert", code: "Insert", keyCode: 45 },
};
// A modifier pressed alone (`Press Shift`); pressChord holds its own bit while it is down.
NAMED["Shift"] = { key: "Shift", code: "ShiftLeft", keyCode: 16 };
NAMED["Control"] = { key: "Control", code: "ControlLeft", keyCode: 17 };
NAMED["Alt"] = { key: "Alt", code: "AltLeft", keyCode: 18 };
NAMED["Meta"] = { key: "Meta", code: "MetaLeft", keyCode: 91 };
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

const SHIFTED_PUNCT: Record<string, [string, number]> = {
  "!": ["Digit1", 49],
  "@": ["Digit2", 50],
  "#": ["Digit3", 51],
  $: ["Digit4", 52],
  "%": ["Digit5", 53],
  "^": ["Digit6", 54],
  "&": ["Digit7", 55],
  "*": ["Digit8", 56],
  "(": ["Digit9", 57],
  ")": ["Digit0", 48],
  _: ["Minus", 189],
  "+": ["Equal", 187],
  "{": ["BracketLeft", 219],
  "}": ["BracketRight", 221],
  "|": ["Backslash", 220],
  ":": ["Semicolon", 186],
  '"': ["Quote", 222],
  "<": ["Comma", 188],
  ">": ["Period", 190],
  "?": ["Slash", 191],
  "~": ["Backquote", 192],
};
const PUNCT: Record<string, [string, number]> = {
  "-": ["Minus", 189],
  "=": ["Equal", 187],
  "[": ["BracketLeft", 219],
  "]": ["BracketRight", 221],
  "\\": ["Backslash", 220],
  ";": ["Semicolon", 186],
  "'": ["Quote", 222],
  ",": ["Comma", 188],
  ".": ["Period", 190],
  "/": ["Slash", 191],
  "`": ["Backquote", 192],
};

/** The definition of a named key or a single character; `shift` says whether Shift is implied. */
export function keyDefinition(name: string): (KeyDefinition & { shift: boolean }) | undefined {
  const named = NAMED[name];
  if (named) return { ...named, shift: false };
  if ([...name].length !== 1) return undefined;
  const ch = name;
  if (/[a-z]/.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch, shift: false };
  if (/[A-Z]/.test(ch)) return { key: ch, code: `Key${ch}`, keyCode: ch.charCodeAt(0), text: ch, shift: true };
  if (/[0-9]/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch, shift: false };
  if (ch === " ") return { ...NAMED["Space"]!, shift: false };
  const p = PUNCT[ch];
  if (p) return { key: ch, code: p[0], keyCode: p[1], text: ch, shift: false };
  const s = SHIFTED_PUNCT[ch];
  if (s) return { key: ch, code: s[0], keyCode: s[1], text: ch, shift: true };
  // Any other character (accents, CJK, emoji): no physical key; the text is inserted as typed.
  return { key: ch, code: "", keyCode: 0, text: ch, shift: false };
}

/** A physical modifier key (`mod` resolves to one of these per platform). */
export type PhysicalModifier = "alt" | "ctrl" | "meta" | "shift";

/** CDP's modifier bits (Input.dispatchKeyEvent / dispatchMouseEvent `modifiers`). */
export const MODIFIER_BITS: Readonly<Record<PhysicalModifier, number>> = { alt: 1, ctrl: 2, meta: 4, shift: 8 };

/** The bits of the modifiers that turn a key into a shortcut (no text): Alt, Ctrl and Meta. */
export const SHORTCUT_BITS = MODIFIER_BITS.alt | MODIFIER_BITS.ctrl | MODIFIER_BITS.meta;

/** CDP modifier bit mask (see MODIFIER_BITS). `mod` is Meta on macOS, Ctrl elsewhere. */
export function modifierMask(modifiers: readonly KeyModifier[], platform: string = process.platform): number {
  let mask = 0;
  for (const m of modifiers) mask |= MODIFIER_BITS[m === "mod" ? (platform === "darwin" ? "meta" : "ctrl") : m];
  return mask;
}

export const MODIFIER_KEYS: Readonly<Record<PhysicalModifier, KeyDefinition>> = {
  alt: { key: "Alt", code: "AltLeft", keyCode: 18 },
  ctrl: { key: "Control", code: "ControlLeft", keyCode: 17 },
  meta: { key: "Meta", code: "MetaLeft", keyCode: 91 },
  shift: { key: "Shift", code: "ShiftLeft", keyCode: 16 },
};
