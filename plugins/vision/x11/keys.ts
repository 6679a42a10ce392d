// Keys as X11 names them: the grammar's canonical key names and modifiers → keysym names, and a
// character → its keysym (Latin-1 directly, anything else in the Unicode keysym range). Pure.

/** Canonical key names (src/grammar/keys.ts) → X keysym names. */
const NAMED: ReadonlyMap<string, string> = new Map([
  ["enter", "Return"],
  ["escape", "Escape"],
  ["tab", "Tab"],
  ["backspace", "BackSpace"],
  ["delete", "Delete"],
  ["insert", "Insert"],
  ["space", "space"],
  ["arrowup", "Up"],
  ["arrowdown", "Down"],
  ["arrowleft", "Left"],
  ["arrowright", "Right"],
  ["home", "Home"],
  ["end", "End"],
  ["pageup", "Prior"],
  ["pagedown", "Next"],
]);

export type X11Modifier = "ctrl" | "alt" | "shift" | "meta" | "mod";

/** Modifiers → the keysym of the key held for them (`mod` is Control on X11). */
export const MODIFIER_KEYSYMS: Readonly<Record<X11Modifier, string>> = {
  ctrl: "Control_L",
  mod: "Control_L",
  alt: "Alt_L",
  shift: "Shift_L",
  meta: "Super_L",
};

/** The keysym name for a key: a named key, F1–F35, a letter or digit; undefined when there is none. */
export function keysymName(key: string): string | undefined {
  const named = NAMED.get(key.toLowerCase());
  if (named !== undefined) return named;
  const f = /^f([1-9]|[12][0-9]|3[0-5])$/i.exec(key);
  if (f) return `F${f[1]}`;
  if (/^[a-z0-9]$/i.test(key)) return key.toLowerCase();
  return undefined;
}

/** The keysym that types `char` (one code point): Latin-1 is its own keysym, the rest 0x01000000 + code point. */
export function charKeysym(char: string): number {
  const cp = char.codePointAt(0) ?? 0;
  if (char === "\n") return 0xff0d; // Return
  if (char === "\t") return 0xff09; // Tab
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return 0x01000000 + cp;
}
