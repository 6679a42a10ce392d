// `Press <Key>` / `Press <Mod>+…+<Key>`: named keys, chords, F-keys and a surface's own key words,
// stored canonically. Pure: no I/O; what a surface may press comes from its vocabulary.

import type { Modifier, ParseResult, SurfaceGrammar } from "./ast.ts";
import { fail, ok, type Slice } from "./result.ts";

export interface KeyChord {
  readonly key: string;
  readonly modifiers: readonly Modifier[];
}

/** Named keys by lowercase spelling → canonical name. */
const NAMED_KEYS: ReadonlyMap<string, string> = new Map(
  ["Enter", "Escape", "Tab", "Backspace", "Delete", "Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"].map(
    (k): [string, string] => [k.toLowerCase(), k],
  ),
);

/** Other names keyboards and people give the same keys (`Press Esc`, `Press Return`), stored canonically. */
const KEY_ALIASES: ReadonlyMap<string, string> = new Map([
  ["esc", "Escape"],
  ["return", "Enter"],
  ["del", "Delete"],
]);

const MODIFIERS: ReadonlyMap<string, Modifier> = new Map<string, Modifier>([
  ["ctrl", "ctrl"],
  ["control", "ctrl"],
  ["alt", "alt"],
  ["option", "alt"],
  ["shift", "shift"],
  ["meta", "meta"],
  ["win", "meta"],
  ["cmd", "meta"],
  ["command", "meta"],
  ["mod", "mod"],
  ["ctrlormeta", "mod"],
  ["controlormeta", "mod"],
]);

/** The key a modifier names when it is pressed alone, as stored. */
const MODIFIER_KEY_NAMES: Readonly<Record<Exclude<Modifier, "mod">, string>> = { ctrl: "Control", alt: "Alt", shift: "Shift", meta: "Meta" };

/** Canonical modifier order, so `Shift+Alt+X` and `Alt+Shift+X` are the same step. */
const MODIFIER_ORDER: readonly Modifier[] = ["mod", "ctrl", "alt", "shift", "meta"];

const KEY_LIST = "Enter, Escape, Tab, Backspace, Delete, Space, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown";

/** Parses the text after `Press` as a key or chord on the given surface. */
export function parseKeys(s: Slice, surface: SurfaceGrammar): ParseResult<KeyChord> {
  const text = s.text;
  const words = surface.keys?.words;
  const word = words !== undefined && Object.hasOwn(words, text.toLowerCase()) ? words[text.toLowerCase()] : undefined;
  if (word !== undefined) return ok({ key: word, modifiers: [] });
  if (text.length === 1 && text !== "+") {
    return fail("unknown-step", `\`Press ${text}\` presses a single character, which is typing.`, `write \`Type ${text}\``, s.offset, 1);
  }
  // A modifier pressed alone (`Press Shift`): apps that react to the key itself (a shortcut hint, a multi-select mode).
  const alone = MODIFIERS.get(text.trim().toLowerCase());
  if (alone !== undefined) {
    if (alone === "mod")
      return fail(
        "unknown-step",
        `\`${text.trim()}\` stands for Control or Meta in a chord and is not pressed alone.`,
        "press the key itself, e.g. `Press Control` or `Press Meta`, or a chord such as `Press Mod+S`",
        s.offset,
        text.length,
      );
    return ok({ key: MODIFIER_KEY_NAMES[alone], modifiers: [] });
  }
  const pieces = text.split("+");
  const modifiers: Modifier[] = [];
  let at = s.offset;
  for (const [i, piece] of pieces.entries()) {
    const word = piece.trim();
    const start = at + (piece.length - piece.trimStart().length);
    const isLast = i === pieces.length - 1;
    if (!isLast) {
      const mod = MODIFIERS.get(word.toLowerCase());
      if (mod === undefined) return notAKey(word, start, surface, true);
      if (modifiers.includes(mod)) {
        return fail(
          "unknown-step",
          `The modifier \`${word}\` appears twice in the chord.`,
          "name each modifier once, e.g. `Press Control+Shift+P`",
          start,
          word.length,
        );
      }
      modifiers.push(mod);
      at += piece.length + 1;
      continue;
    }
    const key = finalKey(word, modifiers.length > 0);
    if (key === undefined) {
      if (MODIFIERS.has(word.toLowerCase())) {
        return fail(
          "unknown-step",
          `\`${word}\` is a modifier, not the chord's key.`,
          `press it with a key, e.g. \`Press Shift+Tab\`, or alone, e.g. \`Press ${word}\``,
          start,
          Math.max(word.length, 1),
        );
      }
      return notAKey(word, start, surface, modifiers.length > 0);
    }
    if (/^F\d+$/.test(key) && surface.keys?.functionKeys !== true) {
      return fail(
        "unsupported-step",
        `Function key \`${key}\` cannot be pressed on ${surface.name}: it takes no function keys (grammar \`keys.functionKeys\`).`,
        key === "F5" && surface.lacks?.includes("reload") !== true
          ? 'write `Reload the page`, or press the control the key would trigger, e.g. `Press the "Refresh" button` or `Click "Refresh"`'
          : 'press the control the key would trigger instead, e.g. `Press the "Close" button` or `Click "Close"`',
        start,
        word.length,
      );
    }
    const sorted = MODIFIER_ORDER.filter((m) => modifiers.includes(m));
    return ok({ key, modifiers: sorted });
  }
  return notAKey(text, s.offset, surface, false);
}

/** The canonical final key of a chord, or undefined when `word` names none. */
function finalKey(word: string, inChord: boolean): string | undefined {
  const named = NAMED_KEYS.get(word.toLowerCase()) ?? KEY_ALIASES.get(word.toLowerCase());
  if (named !== undefined) return named;
  const f = /^f(\d{1,2})$/i.exec(word);
  if (f?.[1] !== undefined) {
    const n = Number(f[1]);
    return n >= 1 && n <= 12 && !f[1].startsWith("0") ? `F${n}` : undefined;
  }
  // Single characters only make sense inside a chord (`Control+V` → `v`).
  if (inChord && [...word].length === 1 && word.trim() !== "") return word.toLowerCase();
  return undefined;
}

function notAKey(word: string, offset: number, surface: SurfaceGrammar, inChord: boolean) {
  const own = surface.keys?.unknown;
  if (own !== undefined && !inChord) return fail("unknown-step", own.message.replaceAll("{word}", word), own.hint, offset, word.length);
  return fail(
    "unknown-step",
    `\`${word}\` is not a key.`,
    `name a key (${KEY_LIST}, or F1–F12 on desktop apps), e.g. \`Press Enter\` or \`Press Control+V\`; to press a control write \`Press the "Save" button\``,
    offset,
    word.length,
  );
}
