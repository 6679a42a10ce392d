import { expect, test } from "bun:test";
import { CALC_BUTTONS, calcTypeButtons, readNumber } from "./sugar.ts";

test("calculator typing maps digits and the decimal point to buttons", () => {
  expect(calcTypeButtons("12.5")).toEqual(["num1Button", "num2Button", "decimalSeparatorButton", "num5Button"]);
  expect(calcTypeButtons("5x")).toContain("\"x\" is not a calculator key");
  expect(CALC_BUTTONS.get("equals")).toBe("equalButton");
});

test("the display's number is read whatever surrounds it", () => {
  expect(readNumber("Display is 8")).toBe(8);
  expect(readNumber("Display is 1,234.5")).toBe(1234.5);
  expect(readNumber("\u22123")).toBe(-3);
  expect(readNumber("Display is empty")).toBeUndefined();
});
