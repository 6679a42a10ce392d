import { describe, expect, test } from "bun:test";
import { layoutPdf, type PdfTextItem } from "./pdf-layout.ts";

const run = (str: string, x: number, y: number, width: number, page = 1): PdfTextItem => ({ page, str, x, y, width, height: 12 });

// The runs Chromium prints for a bordered HTML table with centred headers and middle-aligned cells:
// the `Step Name` header wraps over two lines, and long cells wrap inside their column.
const ALM: PdfTextItem[] = [
  run("Test: Login", 34, 737, 116),
  run("Step", 47, 675, 23),
  run("Name", 44, 662, 30),
  run("Description", 255, 668, 59),
  run(" ", 314, 668, 235),
  run("Expected Result", 490, 668, 83),
  run("Step 1", 37, 637, 30),
  run("Go to /login", 84, 637, 58),
  run("page shows Sign", 489, 644, 81),
  run("in", 489, 630, 9),
  run("Step 2", 37, 605, 30),
  run("Enter the user name admin in the user name field which is long", 84, 612, 392),
  run("and wraps", 84, 599, 50),
  run("The user name is", 489, 612, 82),
  run("accepted", 489, 599, 42),
  run("Step 3", 37, 581, 30),
  run("Press Enter", 84, 581, 60),
  run("A closing paragraph that runs across every column of the page", 34, 540, 500),
];

describe("layoutPdf", () => {
  test("rebuilds a printed table: wrapped header, wrapped cells, rows by their gaps", () => {
    const [table] = layoutPdf(ALM);
    expect(table).toEqual({
      kind: "table",
      rows: [
        ["Step Name", "Description", "Expected Result"],
        ["Step 1", "Go to /login", "page shows Sign\nin"],
        ["Step 2", "Enter the user name admin in the user name field which is long\nand wraps", "The user name is\naccepted"],
        ["Step 3", "Press Enter", ""],
      ],
    });
  });

  test("ends with every line of text, in reading order", () => {
    const blocks = layoutPdf(ALM);
    const lines = blocks.at(-1)!;
    expect(lines.kind).toBe("lines");
    if (lines.kind !== "lines") return;
    expect(lines.lines[0]).toBe("Test: Login");
    expect(lines.lines.at(-1)).toBe("A closing paragraph that runs across every column of the page");
  });

  test("a second name in a row without wider gaps starts a row of its own", () => {
    const tight: PdfTextItem[] = [
      run("Step Name", 40, 700, 50),
      run("Description", 120, 700, 60),
      run("Expected", 300, 700, 50),
      run("1", 40, 687, 6),
      run("Go to /a", 120, 687, 40),
      run("2", 40, 674, 6),
      run("Go to /b", 120, 674, 40),
      run("page shows B", 300, 674, 60),
    ];
    const [table] = layoutPdf(tight);
    expect(table?.kind === "table" && table.rows).toEqual([
      ["Step Name", "Description", "Expected"],
      ["1", "Go to /a", ""],
      ["2", "Go to /b", "page shows B"],
    ]);
  });

  test("a table continues on the next page", () => {
    const paged: PdfTextItem[] = [
      run("Action", 40, 700, 40),
      run("Expected Result", 200, 700, 80),
      run("Go to /a", 40, 680, 40),
      run("Go to /b", 40, 760, 40, 2),
      run("page shows B", 200, 760, 60, 2),
    ];
    const [table] = layoutPdf(paged);
    expect(table?.kind === "table" && table.rows).toEqual([
      ["Action", "Expected Result"],
      ["Go to /a", ""],
      ["Go to /b", "page shows B"],
    ]);
  });

  test("text without a step header gives lines only", () => {
    expect(layoutPdf([run("Just a letter", 40, 700, 80), run("Regards", 40, 680, 40)])).toEqual([{ kind: "lines", lines: ["Just a letter", "Regards"] }]);
  });
});
