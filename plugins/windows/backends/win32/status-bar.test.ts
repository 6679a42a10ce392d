import { expect, test } from "bun:test";
import { statusText } from "./status-bar.ts";

test("the parts' texts join into the status bar's value, empty parts left out", () => {
  expect(statusText(["Ready", "", " Ln 1, Col 1 "])).toBe("Ready | Ln 1, Col 1");
  expect(statusText([])).toBe("");
});
