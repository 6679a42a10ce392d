import { describe, expect, test } from "bun:test";
import { a1, canonicalCell, findCell, numericText, parseA1 } from "./cells.ts";

const grid = [
  ["Material", "Net Price ", "Currency"],
  ["100-100", "12.5", "EUR"],
  ["100-200", "7", "EUR"],
];

describe("cells", () => {
  test("canonical text of exceljs values", () => {
    expect(canonicalCell(12.5)).toBe("12.5");
    expect(canonicalCell({ formula: "A1*2", result: 25 })).toBe("25");
    expect(canonicalCell({ richText: [{ text: "a" }, { text: "b" }] })).toBe("ab");
    expect(canonicalCell(new Date("2026-01-15T00:00:00Z"))).toBe("2026-01-15");
    expect(canonicalCell(null)).toBe("");
  });

  test("numeric text drops trailing zeros; words are not numbers", () => {
    expect(numericText("12.50")).toBe("12.5");
    expect(numericText("100-100")).toBeUndefined();
  });

  test("A1 references both ways", () => {
    expect(parseA1("B2")).toEqual({ row: 1, col: 1 });
    expect(parseA1("$AA$10")).toEqual({ row: 9, col: 26 });
    expect(a1(9, 26)).toBe("AA10");
  });

  test("finds a cell by header (exact after trim, then unique substring) and a unique row", () => {
    expect(findCell(grid, { column: "Net Price", row_contains: "100-200" })).toEqual({ ok: true, text: "7", where: "B3 (column 'Net Price ')" });
    expect(findCell(grid, { column: "Curr", row_contains: "100-100" })).toMatchObject({ ok: true, text: "EUR" });
    expect(findCell(grid, { column: "Currency", row_contains: "EUR" })).toEqual({
      ok: false,
      error: "2 data rows contain 'EUR' (rows 2, 3); make row_contains unique",
    });
    expect(findCell(grid, { at: "D9" })).toEqual({ ok: false, error: "cell D9 is empty" });
  });
});
