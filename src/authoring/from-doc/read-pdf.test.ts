import { describe, expect, test } from "bun:test";
import { readPdf } from "./read-pdf.ts";
import { buildPdf } from "../../../test/support/pdf.ts";

describe("readPdf", () => {
  test("reads a PDF's positioned text into a step table and its lines", async () => {
    const pdf = buildPdf([
      [
        { x: 40, y: 780, text: "Login test (Test Plan export)" },
        { x: 40, y: 740, text: "Step Name" },
        { x: 140, y: 740, text: "Description" },
        { x: 400, y: 740, text: "Expected Result" },
        { x: 40, y: 720, text: "Step 1" },
        { x: 140, y: 720, text: "Go to /login" },
        { x: 400, y: 720, text: "page shows Sign in" },
        { x: 40, y: 700, text: "Step 2" },
        { x: 140, y: 700, text: 'Press the "Sign in" button' },
      ],
    ]);
    const blocks = await readPdf(pdf);
    expect(blocks[0]).toEqual({
      kind: "table",
      rows: [
        ["Step Name", "Description", "Expected Result"],
        ["Step 1", "Go to /login", "page shows Sign in"],
        ["Step 2", 'Press the "Sign in" button', ""],
      ],
    });
    expect(blocks.at(-1)).toMatchObject({ kind: "lines", lines: expect.arrayContaining(["Login test (Test Plan export)"]) });
  });

  test("reads every page", async () => {
    const blocks = await readPdf(buildPdf([[{ x: 40, y: 780, text: "first page" }], [{ x: 40, y: 780, text: "second page" }]]));
    expect(blocks).toEqual([{ kind: "lines", lines: ["first page", "second page"] }]);
  });

  test("bytes that are not a PDF are an error", async () => {
    await expect(readPdf(new TextEncoder().encode("not a pdf"))).rejects.toThrow();
  });
});
