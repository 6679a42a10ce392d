import { describe, expect, test } from "bun:test";
import type { Session } from "./cdp/connection.ts";
import { MARK_PASSWORD_FIELD, MARK_SECRET_FIELD } from "./redaction-rects.ts";
import { TypedSecrets } from "./typed-secrets.ts";

const RECT = { x: 1, y: 2, width: 3, height: 4 };

/** A session whose marking scripts answer `marks`, whose rects script answers `rects`, recording each expression. */
function session(marks: boolean | Error, rects: unknown[]): { session: Session; expressions: string[] } {
  const expressions: string[] = [];
  const send = async (_method: string, params: { expression: string }) => {
    expressions.push(params.expression);
    if (params.expression === MARK_SECRET_FIELD || params.expression === MARK_PASSWORD_FIELD) {
      if (marks instanceof Error) throw marks;
      return { result: { value: marks } };
    }
    return { result: { value: rects } };
  };
  return { session: { send } as unknown as Session, expressions };
}

describe("TypedSecrets", () => {
  test("a marked secret field leaves the rects as the page answers them", async () => {
    const secrets = new TypedSecrets();
    const s = session(true, [{ ok: true, rects: [RECT] }]);
    expect(await secrets.markField(s.session)).toBe(true);
    expect(s.expressions).toEqual([MARK_SECRET_FIELD]);
    expect(await secrets.rectsFor(s.session, [{ secretFields: true }])).toEqual([{ ok: true, rects: [RECT] }]);
  });

  test("a secret field that could not be marked fails every later secret-field rect, and only those", async () => {
    const secrets = new TypedSecrets();
    const s = session(new Error("gone"), [
      { ok: true, rects: [RECT] },
      { ok: true, rects: [] },
    ]);
    expect(await secrets.markField(s.session)).toBe(false);
    expect(await secrets.rectsFor(s.session, [{ secretFields: true }, { css: "#x" }])).toEqual([
      { ok: false, detail: "a field a secret was typed into could not be tracked" },
      { ok: true, rects: [] },
    ]);
  });

  test("a password typed as written into a password field is masked where the page shows it too", async () => {
    const secrets = new TypedSecrets();
    const s = session(true, [
      { ok: true, rects: [RECT] },
      { ok: true, rects: [{ ...RECT, x: 9 }] },
    ]);
    await secrets.notePassword(s.session, "hunter2");
    expect(s.expressions).toEqual([MARK_PASSWORD_FIELD]);
    expect(await secrets.rectsFor(s.session, [{ secretFields: true }])).toEqual([{ ok: true, rects: [RECT, { ...RECT, x: 9 }] }]);
    expect(s.expressions[1]).toContain("hunter2");
  });

  test("a short text, or one not typed into a password field, is not remembered", async () => {
    const secrets = new TypedSecrets();
    const short = session(true, []);
    await secrets.notePassword(short.session, " ab ");
    expect(short.expressions).toEqual([]);
    const plain = session(false, [{ ok: true, rects: [] }]);
    await secrets.notePassword(plain.session, "not a password");
    expect(await secrets.rectsFor(plain.session, [{ secretFields: true }])).toEqual([{ ok: true, rects: [] }]);
    expect(plain.expressions[1]).not.toContain("not a password");
  });
});
