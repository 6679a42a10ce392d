// SAP virtual keys (GuiFrameWindow.SendVKey): which key chord of a `Press …` step maps to which
// VKey number. Pure.
import type { KeyModifier } from "../../src/plugins/api.ts";

/** Keys that are not F-keys, by the grammar's canonical name (no modifier). */
const PLAIN: Readonly<Record<string, number>> = { Enter: 0, Escape: 12, PageUp: 81, PageDown: 82 };
/** Control+letter chords SAP GUI assigns a VKey (Ctrl+S is Save, VKey 11). */
const CTRL: Readonly<Record<string, number>> = { s: 11, e: 70, f: 71, n: 74, o: 75, x: 76, c: 77, v: 78, z: 79, g: 84, r: 85, p: 86, PageUp: 80, PageDown: 83 };

/** The VKey of a key chord, or undefined when SAP GUI has none for it. */
export function vkeyFor(key: string, modifiers: readonly KeyModifier[]): number | undefined {
  const mods = new Set(modifiers.map((m) => (m === "mod" ? "ctrl" : m)));
  if (mods.has("alt") || mods.has("meta")) return undefined;
  const ctrl = mods.has("ctrl");
  const shift = mods.has("shift");
  const f = /^F(\d{1,2})$/.exec(key);
  if (f) {
    const n = Number(f[1]);
    if (n < 1 || n > 12) return undefined;
    return n + (ctrl && shift ? 36 : ctrl ? 24 : shift ? 12 : 0);
  }
  if (shift) return undefined;
  if (ctrl) return CTRL[key.length === 1 ? key.toLowerCase() : key];
  return PLAIN[key];
}

/** The chords `vkeyFor` knows, for hints. */
export const VKEY_HINT =
  "SAP GUI takes Enter, Escape, PageUp, PageDown, F1–F12 with Shift and/or Control, and Control+S (save), C, V, X, Z, F, G, N, O, P, R, E";
