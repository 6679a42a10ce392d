// Trusted keyboard input (Input.dispatchKeyEvent): text typed key by key (a long text's middle
// inserted as a paste would, Input.insertText), and key chords held with modifiers. The event lists
// and the typing plan are pure; sending pipelines them (CDP applies them in order).
import type { Protocol } from "devtools-protocol/types/protocol";
import { FlowproofError, type KeyModifier } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import { keyDefinition, modifierMask, MODIFIER_BITS, MODIFIER_KEYS, SHORTCUT_BITS, type PhysicalModifier } from "./keys.ts";

type KeyEvent = Protocol.Input.DispatchKeyEventRequest;

/** One key pressed and released with `modifiers` (CDP bits) held. */
export interface Stroke {
  readonly key: string;
  readonly modifiers: number;
}

/** The strokes that type `text`: one per character, a newline as Enter. */
export function textStrokes(text: string): Stroke[] {
  return [...text].map((ch) => ({ key: ch === "\n" ? "Enter" : ch, modifiers: 0 }));
}

const MODIFIER_OWN_BITS: Readonly<Record<string, number>> = {
  Shift: MODIFIER_BITS.shift,
  Control: MODIFIER_BITS.ctrl,
  Alt: MODIFIER_BITS.alt,
  Meta: MODIFIER_BITS.meta,
};

/** keyDown/keyUp pairs for `strokes`; throws on a key with no definition. */
export function strokeEvents(strokes: readonly Stroke[]): KeyEvent[] {
  const events: KeyEvent[] = [];
  for (const stroke of strokes) {
    const def = keyDefinition(stroke.key);
    if (!def)
      throw new FlowproofError({
        code: "unsupported-step",
        message: `no key definition for ${JSON.stringify(stroke.key)} in the web adapter`,
        hint: "press a named key (Enter, Tab, Escape, Backspace, an arrow, F1–F12, …) or one character",
      });
    // A modifier key's own bit is set while it is down (a browser reports shiftKey on Shift's keydown), not on its release.
    const own = MODIFIER_OWN_BITS[def.key] ?? 0;
    const modifiers = stroke.modifiers | (def.shift ? MODIFIER_BITS.shift : 0);
    // Ctrl/Alt/Meta chords produce no text (they are shortcuts, not characters).
    const producesText = def.text !== undefined && (stroke.modifiers & SHORTCUT_BITS) === 0;
    const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode, modifiers };
    events.push(
      producesText ? { type: "keyDown", ...base, text: def.text, unmodifiedText: def.text } : { type: "rawKeyDown", ...base, modifiers: modifiers | own },
      { type: "keyUp", ...base },
    );
  }
  return events;
}

/**
 * The modifier presses around a chord: `down` holds each modifier in turn (ctrl, alt, meta, shift),
 * `up` releases them in reverse, each event carrying the modifiers still held.
 */
export function modifierEvents(mask: number): { down: KeyEvent[]; up: KeyEvent[] } {
  const held = (["ctrl", "alt", "meta", "shift"] as const satisfies readonly PhysicalModifier[]).filter((m) => mask & MODIFIER_BITS[m]);
  const down: KeyEvent[] = [];
  const up: KeyEvent[] = [];
  let bits = 0;
  for (const m of held) {
    const def = MODIFIER_KEYS[m];
    bits |= MODIFIER_BITS[m];
    down.push({ type: "rawKeyDown", key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers: bits });
  }
  for (const m of [...held].reverse()) {
    const def = MODIFIER_KEYS[m];
    bits &= ~MODIFIER_BITS[m];
    up.push({ type: "keyUp", key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers: bits });
  }
  return { down, up };
}

/** A text of at most this many characters is typed key by key, every character its own key press. */
export const KEYED_TEXT_MAX = 256;
/** A longer text: this many characters at its start and at its end are typed as keys; the middle is inserted. */
export const KEYED_ENDS = 32;
/** Characters one insertion carries (one `input` event each). */
export const INSERT_CHUNK = 2_000;
/** Key presses per keyed piece of a typing plan. */
const KEY_BATCH = 8;

/** One piece of typing: key presses, or text inserted at once as a paste would (an `input` event, no key events). */
export type TypingPiece = { readonly keys: readonly Stroke[] } | { readonly insert: string };

/** A piece of typing by its characters: pressed as keys, or inserted at once. */
export type TypingSplit = { readonly keys: string } | { readonly insert: string };

/**
 * How `text` is typed, on every engine: up to KEYED_TEXT_MAX characters key by key; a longer one
 * its first and last KEYED_ENDS characters as keys and the middle inserted in INSERT_CHUNK-character
 * pieces, a newline in the middle still pressed as Enter. So typing costs a few round trips per
 * thousand characters, and what listens to keys still sees the text start and end being typed.
 */
export function typingSplit(text: string): TypingSplit[] {
  const chars = [...text];
  if (chars.length <= KEYED_TEXT_MAX) return [{ keys: text }];
  const middle: TypingSplit[] = [];
  let run: string[] = [];
  const flush = () => {
    for (let i = 0; i < run.length; i += INSERT_CHUNK) middle.push({ insert: run.slice(i, i + INSERT_CHUNK).join("") });
    run = [];
  };
  for (const ch of chars.slice(KEYED_ENDS, chars.length - KEYED_ENDS)) {
    if (ch !== "\n") {
      run.push(ch);
      continue;
    }
    flush();
    middle.push({ keys: ch });
  }
  flush();
  return [{ keys: chars.slice(0, KEYED_ENDS).join("") }, ...middle, { keys: chars.slice(chars.length - KEYED_ENDS).join("") }];
}

/** The typing split as Chromium sends it: key presses in KEY_BATCH pieces, insertions as they are. */
export function typingPlan(text: string): TypingPiece[] {
  return typingSplit(text).flatMap((piece): TypingPiece[] => {
    if ("insert" in piece) return [piece];
    const chars = [...piece.keys];
    const out: TypingPiece[] = [];
    for (let i = 0; i < chars.length; i += KEY_BATCH) out.push({ keys: textStrokes(chars.slice(i, i + KEY_BATCH).join("")) });
    return out;
  });
}

/** How long typing may take once its field has focus when the engine names no bound. */
const TYPING_TIMEOUT_MS = 35_000;

/**
 * Types `text` by its plan into what has focus within `timeoutMs` (default TYPING_TIMEOUT_MS);
 * answers why it stopped short (naming the typing, not the app), or undefined once all is typed.
 */
export async function typeWithin(session: Session, text: string, timeoutMs = TYPING_TIMEOUT_MS): Promise<string | undefined> {
  const r = await typeText(session, text, timeoutMs);
  if (r.done) return undefined;
  const total = [...text].length;
  return `typing ${total} characters did not finish within ${timeoutMs} ms (${r.typed} of ${total} typed): the page took too long to take the input, so flowproof stopped typing`;
}

/** Key presses (or insertions) in flight at once while typing: the next is sent as each one is answered. */
const TYPING_WINDOW = 2 * KEY_BATCH;

/** One unit of typing on the wire: a key press (its down and up) or one insertion, and the characters it types. */
interface TypingUnit {
  readonly chars: number;
  send(): Promise<unknown>;
}

function typingUnits(session: Session, text: string): TypingUnit[] {
  return typingPlan(text).flatMap((piece): TypingUnit[] =>
    "keys" in piece
      ? piece.keys.map((stroke) => {
          const events = strokeEvents([stroke]);
          return { chars: 1, send: () => sendKeys(session, events) };
        })
      : [{ chars: [...piece.insert].length, send: () => session.send("Input.insertText", { text: piece.insert }) }],
  );
}

/**
 * Types `text` by its plan into what has focus, within `timeoutMs`. The key presses go out as a
 * sliding window (TYPING_WINDOW in flight, the next sent as each is answered; CDP applies them in
 * order), so typing waits for no round trip of its own, and a page that stalls the input holds at
 * most a window of them when the bound runs out. Answers how many characters were typed then.
 */
export async function typeText(
  session: Session,
  text: string,
  timeoutMs: number,
): Promise<{ readonly done: true } | { readonly done: false; readonly typed: number }> {
  const units = typingUnits(session, text);
  return await new Promise((resolve, reject) => {
    let typed = 0;
    let next = 0;
    let inFlight = 0;
    let over = false;
    const end = (): boolean => {
      if (over) return false;
      over = true;
      clearTimeout(timer);
      return true;
    };
    const timer = setTimeout(() => end() && resolve({ done: false, typed }), Math.max(0, timeoutMs));
    const pump = (): void => {
      while (!over && inFlight < TYPING_WINDOW && next < units.length) {
        const unit = units[next++]!;
        inFlight++;
        unit.send().then(
          () => {
            inFlight--;
            typed += unit.chars;
            pump();
          },
          (error: unknown) => end() && reject(error),
        );
      }
      if (!over && inFlight === 0 && next === units.length && end()) resolve({ done: true });
    };
    if (timeoutMs <= 0) return void (end() && resolve({ done: false, typed }));
    pump();
  });
}

/** Sends `events` pipelined: CDP applies them in order. */
export async function sendKeys(session: Session, events: readonly KeyEvent[]): Promise<void> {
  await Promise.all(events.map((e) => session.send("Input.dispatchKeyEvent", e)));
}

/** Types `text` over what the focused field holds: select-all (Mod+A), then the text key by key. */
export async function typeOver(session: Session, text: string): Promise<void> {
  await pressChord(session, "a", ["mod"]);
  await sendKeys(session, strokeEvents(textStrokes(text)));
}

/** Presses `key` with `modifiers` held: modifiers down, the key, modifiers up. */
export async function pressChord(session: Session, key: string, modifiers: readonly KeyModifier[]): Promise<void> {
  const mask = modifierMask(modifiers);
  const { down, up } = modifierEvents(mask);
  await sendKeys(session, down);
  await sendKeys(session, strokeEvents([{ key, modifiers: mask }]));
  await sendKeys(session, up);
}
