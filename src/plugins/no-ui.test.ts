import { expect, test } from "bun:test";
import { noUiAnswers } from "./no-ui.ts";

test("a no-UI surface refuses every action and read with its reason, counts nothing and navigates nowhere", async () => {
  const a = noUiAnswers("no UI here");
  const refusal = { ok: false, failed: "unsupported", detail: "no UI here", retryable: false } as const;
  for (const act of [a.reload, a.click, a.hover, a.fill, a.typeFocused, a.pressKey, a.select, a.setChecked, a.readText]) expect(await act()).toEqual(refusal);
  expect(await a.navigate()).toEqual({ ok: true, value: undefined });
  expect(await a.count()).toBe(0);
  expect(await a.check()).toEqual({ pass: false, actual: "no UI here", retryable: false });
  expect(a.capabilities.size).toBe(0);
});
