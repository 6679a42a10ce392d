import { describe, expect, test } from "bun:test";
import type { Session } from "./cdp/connection.ts";
import { INSERT_CHUNK, KEYED_ENDS, KEYED_TEXT_MAX, modifierEvents, strokeEvents, textStrokes, typeText, typingPlan, type TypingPiece } from "./keyboard.ts";
import { MODIFIER_BITS } from "./keys.ts";

describe("textStrokes", () => {
  test("one stroke per character, a newline typed as Enter", () => {
    expect(textStrokes("a\nÉ")).toEqual([
      { key: "a", modifiers: 0 },
      { key: "Enter", modifiers: 0 },
      { key: "É", modifiers: 0 },
    ]);
  });
});

describe("strokeEvents", () => {
  test("a character is a keyDown carrying its text, then a keyUp", () => {
    expect(strokeEvents([{ key: "a", modifiers: 0 }])).toEqual([
      { type: "keyDown", key: "a", code: "KeyA", windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65, modifiers: 0, text: "a", unmodifiedText: "a" },
      { type: "keyUp", key: "a", code: "KeyA", windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65, modifiers: 0 },
    ]);
  });

  test("an upper-case letter or shifted punctuation holds Shift", () => {
    expect(
      strokeEvents([
        { key: "Z", modifiers: 0 },
        { key: "?", modifiers: 0 },
      ]).map((e) => e.modifiers),
    ).toEqual([8, 8, 8, 8]);
  });

  test("a Ctrl, Alt or Meta chord produces no text; Shift alone still does", () => {
    for (const m of ["ctrl", "alt", "meta"] as const)
      expect(strokeEvents([{ key: "a", modifiers: MODIFIER_BITS[m] }])[0]).toMatchObject({ type: "rawKeyDown", modifiers: MODIFIER_BITS[m] });
    expect(strokeEvents([{ key: "a", modifiers: MODIFIER_BITS.shift }])[0]).toMatchObject({ type: "keyDown", text: "a" });
  });

  test("a named key without text is a rawKeyDown", () => {
    expect(strokeEvents([{ key: "Tab", modifiers: 0 }])[0]).toMatchObject({ type: "rawKeyDown", key: "Tab", windowsVirtualKeyCode: 9 });
  });

  test("an unknown key name is refused before any event", () => {
    expect(() => strokeEvents([{ key: "NoSuchKey", modifiers: 0 }])).toThrow(
      expect.objectContaining({ code: "unsupported-step", message: 'no key definition for "NoSuchKey" in the web adapter' }),
    );
  });
});

describe("modifierEvents", () => {
  test("modifiers go down in a fixed order, accumulating, and come up in reverse", () => {
    const { down, up } = modifierEvents(MODIFIER_BITS.shift | MODIFIER_BITS.ctrl);
    expect(down.map((e) => [e.type, e.key, e.modifiers])).toEqual([
      ["rawKeyDown", "Control", 2],
      ["rawKeyDown", "Shift", 10],
    ]);
    expect(up.map((e) => [e.type, e.key, e.modifiers])).toEqual([
      ["keyUp", "Shift", 2],
      ["keyUp", "Control", 0],
    ]);
  });

  test("no modifier, no events", () => {
    expect(modifierEvents(0)).toEqual({ down: [], up: [] });
  });
});

describe("typingPlan", () => {
  const typed = (plan: readonly TypingPiece[]) =>
    plan.map((p) => ("keys" in p ? p.keys.map((k) => (k.key === "Enter" ? "\n" : k.key)).join("") : p.insert)).join("");

  test("a text of up to KEYED_TEXT_MAX characters is typed key by key", () => {
    const text = "é".repeat(KEYED_TEXT_MAX);
    const plan = typingPlan(text);
    expect(plan.every((p) => "keys" in p)).toBe(true);
    expect(typed(plan)).toBe(text);
  });

  test("a longer one: its ends as keys, the middle inserted in chunks, a newline in the middle pressed as Enter", () => {
    const text = `${"a".repeat(KEYED_ENDS)}${"b".repeat(INSERT_CHUNK + 10)}\n${"c".repeat(5)}${"d".repeat(KEYED_ENDS)}`;
    const plan = typingPlan(text);
    expect(typed(plan)).toBe(text);
    const kinds = plan.map((p) => ("keys" in p ? `keys:${p.keys.map((k) => k.key).join("")}` : `insert:${p.insert.length}`));
    expect(kinds.filter((k) => k.startsWith("insert"))).toEqual([`insert:${INSERT_CHUNK}`, "insert:10", "insert:5"]);
    expect(kinds).toContain("keys:Enter");
    expect(kinds[0]).toStartWith("keys:a");
    expect(kinds.at(-1)).toStartWith("keys:d");
  });

  test("20,000 characters take a handful of insertions, never a key per character", () => {
    const plan = typingPlan("x".repeat(20_000));
    expect(plan.filter((p) => "insert" in p).length).toBe(Math.ceil((20_000 - 2 * KEYED_ENDS) / INSERT_CHUNK));
    expect(plan.filter((p) => "keys" in p).flatMap((p) => ("keys" in p ? p.keys : [])).length).toBe(2 * KEYED_ENDS);
  });

  test("characters outside the BMP are never split between pieces", () => {
    const text = "😀".repeat(KEYED_TEXT_MAX + INSERT_CHUNK);
    expect(typed(typingPlan(text))).toBe(text);
  });
});

describe("typeText", () => {
  /** A session that answers each key event after `answerMs` (never, when undefined), noting the most events unanswered at once. */
  function session(answerMs: number | undefined) {
    const seen = { sent: 0, inFlight: 0, most: 0 };
    const send = (_method: string) => {
      seen.sent++;
      seen.inFlight++;
      seen.most = Math.max(seen.most, seen.inFlight);
      return new Promise((resolve) => {
        if (answerMs === undefined) return;
        setTimeout(() => {
          seen.inFlight--;
          resolve({});
        }, answerMs);
      });
    };
    return { session: { send } as unknown as Session, seen };
  }

  test("keeps a window of key presses in flight, never waiting for a batch before sending the next key", async () => {
    const { session: s, seen } = session(1);
    expect(await typeText(s, "x".repeat(100), 10_000)).toEqual({ done: true });
    expect(seen.sent).toBe(200);
    // 16 key presses (32 events) in flight: more than a batch of 8, never the whole text.
    expect(seen.most).toBe(32);
  });

  test("a page that takes no input stops the typing at its bound with the keys answered so far, a window at most sent", async () => {
    const { session: s, seen } = session(undefined);
    expect(await typeText(s, "x".repeat(100), 50)).toEqual({ done: false, typed: 0 });
    expect(seen.sent).toBe(32);
  });
});
