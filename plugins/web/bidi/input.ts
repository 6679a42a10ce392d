// Trusted input over WebDriver BiDi (`input.performActions`): pointer clicks, moves and drags by
// viewport coordinates, and keys by their WebDriver key values. Action lists are pure; sending
// them is one command each (the browser dispatches them in order).
import { FlowproofError, type KeyModifier, type PointerOptions } from "../../../src/plugins/api.ts";
import { typingSplit } from "../keyboard.ts";
import { keyDefinition, modifierMask, MODIFIER_BITS, type PhysicalModifier } from "../keys.ts";
import { dragPath, type Point } from "../pointer.ts";
import { BidiError, type BidiConnection } from "./connection.ts";

/** The WebDriver key values of named keys (W3C WebDriver, "Keyboard actions"). */
const SPECIAL: Readonly<Record<string, string>> = {
  Enter: "\uE007",
  Tab: "\uE004",
  Escape: "\uE00C",
  Backspace: "\uE003",
  Delete: "\uE017",
  ArrowUp: "\uE013",
  ArrowDown: "\uE015",
  ArrowLeft: "\uE012",
  ArrowRight: "\uE014",
  Home: "\uE011",
  End: "\uE010",
  PageUp: "\uE00E",
  PageDown: "\uE00F",
  Insert: "\uE016",
  Shift: "\uE008",
  Control: "\uE009",
  Alt: "\uE00A",
  Meta: "\uE03D",
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, String.fromCharCode(0xe031 + i)])),
};

const MODIFIER_VALUES: Readonly<Record<PhysicalModifier, string>> = { ctrl: "\uE009", alt: "\uE00A", meta: "\uE03D", shift: "\uE008" };

/** The WebDriver key value of a flowproof key name or one character; throws on a key with no definition. */
export function keyValue(name: string): string {
  const def = keyDefinition(name);
  if (!def)
    throw new FlowproofError({
      code: "unsupported-step",
      message: `no key definition for ${JSON.stringify(name)} in the web adapter`,
      hint: "press a named key (Enter, Tab, Escape, Backspace, an arrow, F1–F12, …) or one character",
    });
  return SPECIAL[def.key] ?? def.key;
}

type KeyAction = { type: "keyDown" | "keyUp"; value: string };
type PointerAction =
  | { type: "pointerMove"; x: number; y: number; duration?: number }
  | { type: "pointerDown" | "pointerUp"; button: number }
  | { type: "pause"; duration: number };

/** The key actions that type `text`, one press per character (a newline as Enter). */
export function textActions(text: string): KeyAction[] {
  return [...text].flatMap((ch) => {
    const value = ch === "\n" ? SPECIAL["Enter"]! : keyValue(ch);
    return [
      { type: "keyDown" as const, value },
      { type: "keyUp" as const, value },
    ];
  });
}

/** Modifiers down (ctrl, alt, meta, shift), the key, modifiers up in reverse. */
export function chordActions(key: string, modifiers: readonly KeyModifier[], platform: string = process.platform): KeyAction[] {
  const mask = modifierMask(modifiers, platform);
  const held = (["ctrl", "alt", "meta", "shift"] as const).filter((m) => mask & MODIFIER_BITS[m]).map((m) => MODIFIER_VALUES[m]);
  const value = keyValue(key);
  return [
    ...held.map((v) => ({ type: "keyDown" as const, value: v })),
    { type: "keyDown", value },
    { type: "keyUp", value },
    ...[...held].reverse().map((v) => ({ type: "keyUp" as const, value: v })),
  ];
}

/** WebDriver pointer coordinates are whole CSS pixels of the viewport. */
const at = (p: Point) => ({ x: Math.round(p.x), y: Math.round(p.y) });

/** Move, then press and release `clickCount` times. */
export function clickActions(p: Point, options: Pick<PointerOptions, "button" | "clickCount">): PointerAction[] {
  const button = options.button === "left" ? 0 : 2;
  const actions: PointerAction[] = [{ type: "pointerMove", ...at(p), duration: 0 }];
  for (let n = 0; n < options.clickCount; n++) actions.push({ type: "pointerDown", button }, { type: "pointerUp", button });
  return actions;
}

/** Press at `a`, move through the drag path with the button held (paced as a hand moves), release at `b`. */
export function dragActions(a: Point, b: Point): PointerAction[] {
  return [
    { type: "pointerMove", ...at(a), duration: 0 },
    { type: "pointerDown", button: 0 },
    ...dragPath(a, b).flatMap((p): PointerAction[] => [{ type: "pointerMove", ...at(p), duration: 20 }]),
    { type: "pause", duration: 50 },
    { type: "pointerUp", button: 0 },
  ];
}

/** A one-pixel move where the pointer stands (none before its first move, or when it is already at `to`). */
export function stir(from: { x: number; y: number } | undefined, to: { x: number; y: number }): PointerAction[] {
  if (!from || (from.x === to.x && from.y === to.y)) return [];
  return [{ type: "pointerMove", x: from.x > 0 ? from.x - 1 : from.x + 1, y: from.y, duration: 0 }];
}

export class BidiInput {
  readonly #connection: BidiConnection;
  readonly #context: string;
  /** Where the last pointer action left the pointer (whole viewport pixels), once one was sent. */
  #pointerAt: { x: number; y: number } | undefined;

  constructor(connection: BidiConnection, context: string) {
    this.#connection = connection;
    this.#context = context;
  }

  async #perform(actions: readonly unknown[]): Promise<void> {
    await this.#connection.send("input.performActions", { context: this.#context, actions });
  }

  pointer(actions: readonly PointerAction[]): Promise<void> {
    // The last move (a project's TypeScript may predate Array.prototype.findLast).
    for (let i = actions.length - 1; i >= 0; i--) {
      const a = actions[i]!;
      if (a.type !== "pointerMove") continue;
      this.#pointerAt = { x: a.x, y: a.y };
      break;
    }
    return this.#perform([{ type: "pointer", id: "flowproof-mouse", parameters: { pointerType: "mouse" }, actions }]);
  }

  keys(actions: readonly KeyAction[]): Promise<void> {
    return this.#perform([{ type: "key", id: "flowproof-keyboard", actions }]);
  }

  click(p: Point, options: Pick<PointerOptions, "button" | "clickCount">): Promise<void> {
    return this.pointer(clickActions(p, options));
  }

  /**
   * Moves the pointer onto `p`. Firefox does not notice content moving away from under a pointer
   * that stands still (no mouseleave, `:hover` kept), so an element that jumped away on hover
   * would not see the pointer enter it again; Chromium and a person's Firefox re-test what is under
   * the pointer after layout. So the pointer first stirs by one pixel where it stands, which
   * settles what it is over now, and then moves. Where the pointer stood may be outside the
   * viewport now (it shrank since): Firefox refuses the whole sequence before any of it, and the
   * pointer just moves.
   */
  async move(p: Point): Promise<void> {
    const onto: PointerAction = { type: "pointerMove", ...at(p), duration: 0 };
    const stirred = stir(this.#pointerAt, at(p));
    if (stirred.length > 0) {
      try {
        return await this.pointer([...stirred, onto]);
      } catch (error) {
        if (!(error instanceof BidiError) || error.error !== "move target out of bounds") throw error;
      }
    }
    return this.pointer([onto]);
  }

  drag(a: Point, b: Point): Promise<void> {
    return this.pointer(dragActions(a, b));
  }

  press(key: string, modifiers: readonly KeyModifier[]): Promise<void> {
    return this.keys(chordActions(key, modifiers));
  }

  /**
   * Types `text` by its typing split (keyboard.ts, as on Chromium): keys in batches, so that a bound
   * can be checked between them, and a long text's middle through `insert` (typed as keys when it
   * answers that nothing took the text). Answers how many characters went in.
   */
  async type(text: string, timeoutMs: number, insert?: (text: string) => Promise<boolean>): Promise<{ done: boolean; typed: number }> {
    const deadline = performance.now() + timeoutMs;
    let typed = 0;
    for (const piece of typingSplit(text)) {
      if ("insert" in piece && insert) {
        if (performance.now() > deadline) return { done: false, typed };
        if (await insert(piece.insert)) {
          typed += [...piece.insert].length;
          continue;
        }
      }
      const chars = [...("insert" in piece ? piece.insert : piece.keys)];
      for (let i = 0; i < chars.length; i += 64) {
        if (performance.now() > deadline) return { done: false, typed };
        const keys = chars.slice(i, i + 64).join("");
        await this.keys(textActions(keys));
        typed += [...keys].length;
      }
    }
    return { done: true, typed };
  }

  /** Releases every key and button still held (between steps a held key must never leak). */
  async release(): Promise<void> {
    await this.#connection.send("input.releaseActions", { context: this.#context }).catch(() => undefined);
  }
}
