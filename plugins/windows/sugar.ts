// Calculator and Notepad sugar: the calculator's keys and display, Notepad's editor. Pure.

/** Calculator operator keys (the grammar's canonical words) → the button's AutomationId. */
export const CALC_BUTTONS: ReadonlyMap<string, string> = new Map([
  ["plus", "plusButton"],
  ["minus", "minusButton"],
  ["times", "multiplyButton"],
  ["divide", "divideButton"],
  ["equals", "equalButton"],
  ["clear", "clearButton"],
]);

/** The calculator's result display (`display shows <number>`). */
export const CALC_DISPLAY_ID = "CalculatorResults";

/** Notepad's editor control (`Type …` and `document contains …`). */
export const NOTEPAD_EDITOR_ID = "15";

/** The buttons `Type 12.5` presses on the calculator (`num1Button`, …, `decimalSeparatorButton`), or why it cannot. */
export function calcTypeButtons(text: string): string[] | string {
  const out: string[] = [];
  for (const ch of text) {
    if (ch >= "0" && ch <= "9") out.push(`num${ch}Button`);
    else if (ch === "." || ch === ",") out.push("decimalSeparatorButton");
    else return `the calculator takes digits and "." only; ${JSON.stringify(ch)} is not a calculator key (press an operator with \`Press plus\`)`;
  }
  return out.length > 0 ? out : "nothing to type on the calculator";
}
