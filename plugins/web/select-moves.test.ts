import { describe, expect, test } from "bun:test";
import type { SelectAnswer } from "./injected/protocol.ts";
import { selectOptions, type SelectPage } from "./select-moves.ts";

const LADDER = [{ tier: "text_anchor", provenance: "rules", payload: { text: "Plan", role: "dropdown" } }] as const;

/** A page whose page script answers `answers` in turn; records the moves made. */
function page(answers: (SelectAnswer | { transient: string })[]): SelectPage & { moves: string[]; afters: unknown[] } {
  const moves: string[] = [];
  const afters: unknown[] = [];
  return {
    moves,
    afters,
    call: async (arg) => {
      afters.push(arg.after);
      const next = answers.shift();
      if (next === undefined) throw new Error("no more answers scripted");
      return next as SelectAnswer;
    },
    click: async (at) => void moves.push(`click ${at.what} ${at.x},${at.y}`),
    press: async (key) => void moves.push(`press ${key}`),
    type: async (text) => void moves.push(`type ${text}`),
    nextFrame: async () => undefined,
    takeDialog: () => undefined,
  };
}

describe("selectOptions", () => {
  test("opens the popup, picks the option, and reports the label the control shows", async () => {
    const p = page([
      { ok: true, click: { x: 10, y: 20, what: "open" }, tier: "text_anchor" },
      { ok: true, click: { x: 10, y: 60, what: "option" }, tier: "text_anchor" },
      { ok: true, chosen: ["Pro"], tier: "text_anchor" },
    ] as SelectAnswer[]);
    expect(await selectOptions(LADDER, ["Pro"], undefined, p)).toEqual({ ok: true, value: ["Pro"], tier: "text_anchor" });
    expect(p.moves).toEqual(["click open 10,20", "click option 10,60"]);
    expect(p.afters).toEqual([undefined, "open", "option"]);
  });

  test("a failure the page names is the step's; a document going away is transient; a control that never settles is named", async () => {
    expect(
      await selectOptions(
        LADDER,
        ["Gold"],
        undefined,
        page([{ ok: false, failed: "not-found", detail: 'no option "Gold" (options: "Free", "Pro")' } as SelectAnswer]),
      ),
    ).toEqual({ ok: false, failed: "not-found", detail: 'no option "Gold" (options: "Free", "Pro")', retryable: true });
    expect(await selectOptions(LADDER, ["Pro"], undefined, page([{ transient: "navigating" }]))).toMatchObject({ ok: false, failed: "attached" });
    const endless = Array.from({ length: 10 }, () => ({ ok: true, click: { x: 1, y: 1, what: "open" }, tier: "text_anchor" }) as SelectAnswer);
    expect(await selectOptions(LADDER, ["Pro"], undefined, page(endless))).toEqual({
      ok: false,
      failed: "unsupported",
      detail: 'the dropdown did not settle on "Pro" after 6 moves',
      retryable: true,
    });
  });
});
