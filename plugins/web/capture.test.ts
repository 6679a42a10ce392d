import { describe, expect, test } from "bun:test";
import { CaptureGate, pageRects } from "./capture.ts";
import type { Session } from "./cdp/connection.ts";

/** A session whose screenshots answer only when released; counts how many were in flight at once. */
function slowSession() {
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  let most = 0;
  const session = {
    send: () =>
      new Promise((resolve) => {
        inFlight++;
        most = Math.max(most, inFlight);
        waiting.push(() => {
          inFlight--;
          resolve({ data: Buffer.from([1, 2]).toString("base64") });
        });
      }),
  } as unknown as Session;
  return { session, release: () => waiting.splice(0).forEach((go) => go()), most: () => most };
}

describe("CaptureGate", () => {
  test("held waits for every capture it was told about, failed ones too", async () => {
    const gate = new CaptureGate();
    let settleA!: () => void;
    let failB!: (e: Error) => void;
    gate.hold(new Promise<void>((r) => (settleA = r)));
    gate.hold(new Promise<void>((_, reject) => (failB = reject)));
    let released = false;
    void gate.held.then(() => (released = true));
    settleA();
    await Bun.sleep(1);
    expect(released).toBe(false);
    failB(new Error("no pixels"));
    await Bun.sleep(1);
    expect(released).toBe(true);
  });

  test("captures overlap at device scale factor 1 and run one at a time at any other", async () => {
    const tick = () => Bun.sleep(1);
    for (const [dsf, most] of [
      [1, 2],
      [3, 1],
    ] as const) {
      const s = slowSession();
      const gate = new CaptureGate();
      const frames = [gate.capture(s.session, dsf), gate.capture(s.session, dsf)];
      await tick();
      s.release();
      await tick();
      s.release();
      const got = await Promise.all(frames);
      expect(got.map((f) => [...f.png])).toEqual([
        [1, 2],
        [1, 2],
      ]);
      expect(s.most()).toBe(most);
    }
  });
});

describe("pageRects", () => {
  /** A session answering one Runtime.evaluate with `answers`, keeping the expression it was sent. */
  const answering = (answers: unknown[]) => {
    const sent: string[] = [];
    const session = {
      send: async (_: string, p: { expression: string }) => {
        sent.push(p.expression);
        return { result: { value: answers } };
      },
    } as unknown as Session;
    return { session, sent };
  };

  test("asks where a password typed as written shows in the same round trip, and counts it as a secret field", async () => {
    const rect = (x: number) => ({ x, y: 0, width: 5, height: 5 });
    const { session, sent } = answering([
      { ok: true, rects: [rect(1)] },
      { ok: true, rects: [rect(2)] },
      { ok: true, rects: [rect(3)] },
    ]);
    expect(await pageRects(session, [{ passwordFields: true }, { secretFields: true }], ["Lit-Pass-9931"])).toEqual([
      { ok: true, rects: [rect(1)] },
      { ok: true, rects: [rect(2), rect(3)] },
    ]);
    expect(sent.length).toBe(1);
    expect(sent[0]).toContain('{"secretText":["Lit-Pass-9931"]}');
  });

  test("a typed password the page could not be searched for fails the secret fields' answer", async () => {
    const { session } = answering([
      { ok: true, rects: [] },
      { ok: false, detail: "Range failed" },
    ]);
    expect(await pageRects(session, [{ secretFields: true }], ["Lit-Pass-9931"])).toEqual([{ ok: false, detail: "a password typed as written: Range failed" }]);
  });

  test("without typed passwords asks for the targets only", async () => {
    const { session, sent } = answering([{ ok: true, rects: [] }]);
    expect(await pageRects(session, [{ secretFields: true }])).toEqual([{ ok: true, rects: [] }]);
    expect(sent[0]).not.toContain('secretText":[');
  });
});
