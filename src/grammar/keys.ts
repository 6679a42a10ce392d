// `Press <Key>` / `Press <Mod>+…+<Key>`: named keys, chords, F-keys and calculator keys,
// stored canonically. Pure: no I/O; which app kind may press what is decided from ParseContext.

import type { AppKind, Modifier, ParseResult } from "./ast.ts";
import { fail, ok, type Slice } from "./result.ts";

export interface KeyChord {
  readonly key: string;
  readonly modifiers: readonly Modifier[];
}

/** Named keys by lowercase spelling → canonical name. */
const NAMED_KEYS: ReadonlyMap<string, string> = new Map(
  [
    "Enter", "Escape", "Tab", "Backspace", "Delete", "Space", "ArrowUp", "ArrowDown", "ArrowLeft",
    "ArrowRight", "Home", "End", "PageUp", "PageDown",
  ].map((k): [string, string] => [k.toLowerCase(), k]),
);

const MODIFIERS: ReadonlyMap<string, Modifier> = new Map<string, Modifier>([
  ["ctrl", "ctrl"], ["control", "ctrl"],
  ["alt", "alt"], ["option", "alt"],
  ["shift", "shift"],
  ["meta", "meta"], ["win", "meta"], ["cmd", "meta"], ["command", "meta"],
  ["mod", "mod"], ["ctrlormeta", "mod"], ["controlormeta", "mod"],
]);

/** Canonical modifier order, so `Shift+Alt+X` and `Alt+Shift+X` are the same step. */
const MODIFIER_ORDER: readonly Modifier[] = ["mod", "ctrl", "alt", "shift", "meta"];

/** Calculator operator words (calc sugar) → canonical key. */
const CALC_KEYS: ReadonlyMap<string, string> = new Map([
  ["plus", "plus"], ["add", "plus"],
  ["minus", "minus"], ["subtract", "minus"],
  ["times", "times"], ["multiply", "times"],
  ["divide", "divide"],
  ["equals", "equals"], ["equal", "equals"],
  ["clear", "clear"],
]);

/** App kinds that can be sent F1–F12 (UIA apps, SAP, vision); the web refuses them. */
const F_KEY_APPS: ReadonlySet<AppKind> = new Set<AppKind>(["windows", "calc", "notepad", "sap", "vision"]);

const KEY_LIST = "Enter, Escape, Tab, Backspace, Delete, Space, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown";

/** Parses the text after `Press` as a key or chord for the given app kind. */
export function parseKeys(s: Slice, app: AppKind): ParseResult<KeyChord> {
  const text = s.text;
  if (app === "calc") {
    const calc = CALC_KEYS.get(text.toLowerCase());
    if (calc !== undefined) return ok({ key: calc, modifiers: [] });
  }
  if (text.length === 1 && text !== "+") {
    return fail(
      "unknown-step",
      `\`Press ${text}\` presses a single character, which is typing.`,
      `write \`Type ${text}\``,
      s.offset,
      1,
    );
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
      if (mod === undefined) return notAKey(word, start, app, true);
      if (modifiers.includes(mod)) {
        return fail("unknown-step", `The modifier \`${word}\` appears twice in the chord.`, "name each modifier once, e.g. `Press Control+Shift+P`", start, word.length);
      }
      modifiers.push(mod);
      at += piece.length + 1;
      continue;
    }
    const key = finalKey(word, modifiers.length > 0);
    if (key === undefined) {
      if (MODIFIERS.has(word.toLowerCase())) {
        return fail("unknown-step", `\`${word}\` is a modifier, not a key.`, "press it together with a key, e.g. `Press Shift+Tab`", start, Math.max(word.length, 1));
      }
      return notAKey(word, start, app, modifiers.length > 0);
    }
    if (/^F\d+$/.test(key) && !F_KEY_APPS.has(app)) {
      return fail(
        "unsupported-step",
        `Function key \`${key}\` is desktop-only and cannot be pressed on a ${app} app.`,
        key === "F5"
          ? 'write `Reload the page`, or press the control the key would trigger, e.g. `Press the "Refresh" button` or `Click "Refresh"`'
          : 'press the control the key would trigger instead, e.g. `Press the "Close" button` or `Click "Close"`',
        start,
        word.length,
      );
    }
    const sorted = MODIFIER_ORDER.filter((m) => modifiers.includes(m));
    return ok({ key, modifiers: sorted });
  }
  return notAKey(text, s.offset, app, false);
}

/** The canonical final key of a chord, or undefined when `word` names none. */
function finalKey(word: string, inChord: boolean): string | undefined {
  const named = NAMED_KEYS.get(word.toLowerCase());
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

function notAKey(word: string, offset: number, app: AppKind, inChord: boolean) {
  if (app === "calc" && !inChord) {
    return fail(
      "unknown-step",
      `\`${word}\` is not a calculator key.`,
      "press one of plus, minus, times, divide, equals, clear (e.g. `Press plus`), type digits with `Type 53`, or click a button with `Press the \"Square root\" button`",
      offset,
      word.length,
    );
  }
  return fail(
    "unknown-step",
    `\`${word}\` is not a key.`,
    `name a key (${KEY_LIST}, or F1–F12 on desktop apps), e.g. \`Press Enter\` or \`Press Control+V\`; to press a control write \`Press the "Save" button\``,
    offset,
    word.length,
  );
}
