// Role and state naming; the IAccessible calls run against the fixture's controls under Wine in test/e2e/wine-bed.test.ts.
import { expect, test } from "bun:test";
import { ROLE, STATE, roleName, stateNames } from "./oleacc.ts";

test("roles have names; an unlisted role is shown in hex", () => {
  expect(roleName(ROLE.PUSHBUTTON)).toBe("pushbutton");
  expect(roleName(0x2c)).toBe("checkbutton");
  expect(roleName(0x99)).toBe("role-0x99");
});

test("state bits are named", () => {
  expect(stateNames(STATE.CHECKED | STATE.FOCUSABLE)).toEqual(["checked", "focusable"]);
  expect(stateNames(STATE.PROTECTED | STATE.UNAVAILABLE)).toEqual(["unavailable", "protected"]);
  expect(stateNames(0)).toEqual([]);
});
