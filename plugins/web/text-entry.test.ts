import { describe, expect, test } from "bun:test";
import type { Session } from "./cdp/connection.ts";
import { HAS_FOCUS, fillField, typeIntoFocus, type TextPage } from "./text-entry.ts";
import type { TypedSecrets } from "./typed-secrets.ts";

const FIELD = [{ tier: "text_anchor", provenance: "rules", payload: { text: "Name" } }] as const;

/** A page where focus is `focused` (in turn, per look) and marking a secret field answers `marks`, recording what was done. */
function page(focused: boolean[], marks = true, lost: (string | undefined)[] = []) {
  const done: unknown[] = [];
  const send = async (method: string, params: { expression?: string }) => {
    if (method === "Runtime.evaluate" && params.expression === HAS_FOCUS) return { result: { value: focused.shift() ?? false } };
    done.push(method);
    return {};
  };
  const secrets = {
    markField: async () => {
      done.push("markField");
      return marks;
    },
    notePassword: async (_s: Session, text: string) => void done.push(["notePassword", text]),
    passwordCheck: (text: string) => (text.trim().length < 3 ? undefined : "PASSWORD_CHECK"),
    passwordChecked: (text: string, answer: unknown) => void done.push(["passwordChecked", text, answer]),
  } as unknown as TypedSecrets;
  const p: TextPage = {
    session: { send } as unknown as Session,
    secrets,
    assign: async (_ladder, value) => {
      done.push(["assign", value]);
      return { ok: true, value: undefined };
    },
    focus: async (_ladder, afterward) => {
      if (afterward !== undefined) done.push(["focus", afterward]);
      return { ok: true, value: afterward === undefined ? undefined : { afterward: true }, tier: "text_anchor" };
    },
    typingLost: async () => lost.shift(),
    nextFrame: async () => void done.push("nextFrame"),
    takeDialog: () => undefined,
  };
  return { page: p, done };
}

describe("fillField", () => {
  test("types into the focused field, asking whether it is a password field in the round trip that focuses it", async () => {
    const p = page([]);
    expect(await fillField(p.page, FIELD, "abc", {})).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(p.done.slice(0, 2)).toEqual([
      ["focus", "PASSWORD_CHECK"],
      ["passwordChecked", "abc", true],
    ]);
    expect(p.done).toContain("Input.dispatchKeyEvent");
  });

  test("keys the field did not get because the page moved the focus fail the attempt, to be tried again", async () => {
    const lostIt = '<input#note> lost the keyboard focus to <button> "Close" while the text was typed (it holds 1 of 3 characters)';
    const p = page([], true, [lostIt]);
    expect(await fillField(p.page, FIELD, "abc", {})).toEqual({ ok: false, failed: "editable", detail: lostIt, retryable: true });
    expect(await fillField(p.page, FIELD, "abc", {})).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
  });

  test("a secret whose field cannot be marked is not typed at all", async () => {
    const p = page([], false);
    const r = await fillField(p.page, FIELD, "s3cret", { secret: true });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.failed).toBe("editable");
    expect(p.done).toEqual(["markField"]);
  });

  test("inside a frame the value is assigned, and a secret's field marked afterwards", async () => {
    const framed = [{ tier: "structural", provenance: "rules", payload: { kind: "framed", frame_text: "Editor", css: "input" } }] as never;
    const p = page([]);
    expect((await fillField(p.page, framed, "v", { secret: true })).ok).toBe(true);
    expect(p.done).toEqual([["assign", "v"], "markField"]);
  });
});

describe("typeIntoFocus", () => {
  test("waits one frame for focus the page moves itself, then types", async () => {
    const p = page([false, true]);
    expect(await typeIntoFocus(p.page, "x", {})).toEqual({ ok: true, value: undefined });
    expect(p.done[0]).toBe("nextFrame");
    expect(p.done).toContain("Input.dispatchKeyEvent");
  });

  test("fails at once, final, when nothing has focus after that frame", async () => {
    const p = page([false, false]);
    const r = await typeIntoFocus(p.page, "x", {});
    expect(!r.ok && r.failed).toBe("editable");
    expect(!r.ok && r.retryable).toBe(false);
    expect(p.done).toEqual(["nextFrame"]);
  });
});
