// Trusted keyboard input (Input.dispatchKeyEvent): text typed key by key, and key chords held
// with modifiers. The event lists are pure; sending pipelines them (CDP applies them in order).
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

const MODIFIER_OWN_BITS: Readonly<Record<string, number>> = { Shift: MODIFIER_BITS.shift, Control: MODIFIER_BITS.ctrl, Alt: MODIFIER_BITS.alt, Meta: MODIFIER_BITS.meta };

/** keyDown/keyUp pairs for `strokes`; throws on a key with no definition. */
export function strokeEvents(strokes: readonly Stroke[]): KeyEvent[] {
  const events: KeyEvent[] = [];
  for (const stroke of strokes) {
    const def = keyDefinition(stroke.key);
    if (!def) throw new FlowproofError({ code: "unsupported-step", message: `no key definition for ${JSON.stringify(stroke.key)} in the web adapter`, hint: "press a named key (Enter, Tab, Escape, Backspace, an arrow, F1–F12, …) or one character" });
    // A modifier key's own bit is set while it is down (a browser reports shiftKey on Shift's keydown), not on its release.
    const own = MODIFIER_OWN_BITS[def.key] ?? 0;
    const modifiers = stroke.modifiers | (def.shift ? MODIFIER_BITS.shift : 0);
    // Ctrl/Alt/Meta chords produce no text (they are shortcuts, not characters).
    const producesText = def.text !== undefined && (stroke.modifiers & SHORTCUT_BITS) === 0;
    const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode, modifiers };
    events.push(producesText ? { type: "keyDown", ...base, text: def.text, unmodifiedText: def.text } : { type: "rawKeyDown", ...base, modifiers: modifiers | own }, { type: "keyUp", ...base });
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
