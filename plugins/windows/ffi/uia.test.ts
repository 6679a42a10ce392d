// The UIA tables; the calls themselves run on Windows (scripts/windows-check.ts) and, as far as Wine
// implements them, under Wine (test/e2e/wine-bed.test.ts: Wine 8 has no CUIAutomation class).
import { expect, test } from "bun:test";
import { formatGuid, parseGuid } from "./com.ts";
import { CLSID_CUIAutomation, ELEMENT, IID_IUIAutomation, PATTERN, UIA } from "./uia.ts";

test("class and interface ids are well-formed GUIDs", () => {
  for (const id of [CLSID_CUIAutomation, IID_IUIAutomation, ...Object.values(PATTERN).map((p) => p.iid)]) {
    expect(formatGuid(parseGuid(id))).toBe(`{${id.toUpperCase()}}`);
  }
});

test("vtable slots match uiautomationclient.h's declaration order", () => {
  // IUIAutomation: IUnknown (0–2), CompareElements, CompareRuntimeIds, GetRootElement, ElementFromHandle …
  expect([UIA.GetRootElement, UIA.ElementFromHandle, UIA.CreateTrueCondition, UIA.CreatePropertyCondition]).toEqual([5, 6, 21, 23]);
  // IUIAutomationElement: IUnknown, SetFocus, GetRuntimeId, FindFirst, FindAll, … GetCurrentPropertyValueEx = 11.
  expect([ELEMENT.FindFirst, ELEMENT.FindAll, ELEMENT.GetCurrentPropertyValueEx, ELEMENT.get_CurrentName]).toEqual([5, 6, 11, 23]);
  for (const p of Object.values(PATTERN)) expect(Math.min(...Object.values(p.slots))).toBe(3);
});
