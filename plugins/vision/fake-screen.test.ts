import { expect, test } from "bun:test";
import { FakeScreen } from "./fake-screen.ts";

const frame = { width: 2, height: 1, rgba: new Uint8Array(8) };

test("records inputs in order, refuses them all when told to, and closes its window", async () => {
  const s = new FakeScreen(frame, "Payments");
  await s.click(s.window, 1, 2, "left", 1);
  await s.typeText(s.window, "hi");
  expect(s.inputs).toEqual([{ kind: "click", x: 1, y: 2, button: "left", count: 1 }, { kind: "type", text: "hi" }]);
  s.refuse = { ok: false, failed: "visible", detail: "covered" };
  expect(await s.pressKey(s.window, "Enter", [])).toEqual(s.refuse);
  expect(s.inputs.length).toBe(2);
  expect((await s.windows()).map((w) => w.title)).toEqual(["Payments"]);
  await s.close();
  expect(await s.windows()).toEqual([]);
  expect(await s.rect()).toBeUndefined();
});
