import { describe, expect, test } from "bun:test";
import type { Attempt } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import type { ProbeAnswer, ValueAnswer } from "./injected/protocol.ts";
import { dragOnto, hoverOver, setCheckedState, type GesturePage } from "./pointer-gestures.ts";

const SOURCE = [{ tier: "text_anchor", provenance: "rules", payload: { text: "Card" } }] as const;
const TARGET = [{ tier: "text_anchor", provenance: "rules", payload: { text: "Done" } }] as const;

type Probed = Attempt<ProbeAnswer & { ok: true }>;
const at = (x: number, y: number, checked?: boolean): Probed => ({
  ok: true,
  value: { ok: true, tier: "text_anchor", x, y, tag: "div", kind: "generic", ...(checked === undefined ? {} : { checked }) },
  tier: "text_anchor",
});

/** A page whose probes answer `probes` in turn and whose reads answer `read`, recording what was done. */
function page(probes: Probed[], read: ValueAnswer | { transient: string } = { ok: true, tier: "css", value: "true" }) {
  const done: unknown[] = [];
  const send = async (method: string, params: unknown) => void done.push([method, params]);
  const p: GesturePage = {
    session: { send, on: () => () => undefined } as unknown as Session,
    probe: async (ladder, purpose) => {
      done.push(["probe", ladder === SOURCE ? "source" : "target", purpose]);
      return probes.shift()!;
    },
    click: async (point) => void done.push(["click", point.x, point.y]),
    read: async (method) => {
      done.push(["read", method]);
      return read;
    },
    afterInput: async () => void done.push("afterInput"),
    nextFrame: async () => void done.push("nextFrame"),
    takeDialog: () => undefined,
  };
  return { page: p, done };
}

describe("hoverOver", () => {
  test("moves the pointer onto the target and checks that it is hovered there", async () => {
    const ok = page([at(10, 20)]);
    expect(await hoverOver(ok.page, TARGET)).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(ok.done).toContainEqual(["Input.dispatchMouseEvent", { type: "mouseMoved", x: 10, y: 20 }]);
    const away = page([at(10.4, 20.6)], { ok: true, tier: "css", value: "false" });
    const moved = await hoverOver(away.page, TARGET);
    expect(moved.ok).toBe(false);
    expect(!moved.ok && moved.failed).toBe("receives-pointer");
    expect(!moved.ok && moved.detail).toContain("at (10, 21)");
  });
});

describe("dragOnto", () => {
  test("reads the source again after the drop target came into view, and names the drop target when it fails", async () => {
    const d = page([at(1, 1), at(50, 50), at(1, 2)]);
    expect((await dragOnto(d.page, SOURCE, TARGET)).ok).toBe(true);
    expect(d.done.filter((x) => Array.isArray(x) && x[0] === "probe")).toEqual([
      ["probe", "source", "drag"],
      ["probe", "target", "pointer"],
      ["probe", "source", "drag"],
    ]);
    expect(d.done.at(-1)).toBe("afterInput");
    const missing = page([at(1, 1), { ok: false, failed: "not-found", detail: "no Done", retryable: true }]);
    expect(await dragOnto(missing.page, SOURCE, TARGET)).toEqual({ ok: false, failed: "not-found", detail: "the drop target: no Done", retryable: true });
  });
});

describe("setCheckedState", () => {
  test("clicks only a box not yet in the asked state, and fails when the click did not change it", async () => {
    const already = page([at(5, 5, true)]);
    expect((await setCheckedState(already.page, TARGET, true)).ok).toBe(true);
    expect(already.done.some((x) => Array.isArray(x) && x[0] === "click")).toBe(false);
    const flips = page([at(5, 5, false)], { ok: true, tier: "css", value: "true" });
    expect((await setCheckedState(flips.page, TARGET, true)).ok).toBe(true);
    expect(flips.done).toContainEqual(["click", 5, 5]);
    const stuck = page([at(5, 5, false)], { ok: true, tier: "css", value: "false" });
    expect(await setCheckedState(stuck.page, TARGET, true)).toEqual({
      ok: false,
      failed: "unsupported",
      detail: "clicking did not check it; it is still unchecked",
      retryable: true,
    });
    const notABox = await setCheckedState(page([at(5, 5)]).page, TARGET, true);
    expect(!notABox.ok && notABox.retryable).toBe(false);
  });
});
