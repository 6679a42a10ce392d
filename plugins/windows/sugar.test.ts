import { expect, test } from "bun:test";
import { CALC_BUTTONS, calcTypeButtons } from "./sugar.ts";

test("calculator typing maps digits and the decimal point to buttons", () => {
  expect(calcTypeButtons("12.5")).toEqual(["num1Button", "num2Button", "decimalSeparatorButton", "num5Button"]);
  expect(calcTypeButtons("5x")).toContain('"x" is not a calculator key');
  expect(CALC_BUTTONS.get("equals")).toBe("equalButton");
});
