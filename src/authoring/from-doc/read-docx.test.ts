import { describe, expect, test } from "bun:test";
import { htmlBlocks, readDocx } from "./read-docx.ts";
import { plainText } from "./segment.ts";
import { buildDocx } from "../../../test/support/docx.ts";

describe("readDocx", () => {
  test("reads tables and the paragraphs around them, in document order", async () => {
    const docx = buildDocx([
      "Test case: Login",
      {
        table: [
          ["Step Name", "Description", "Expected Result"],
          ["Step 1", "Type “Ada” into the “Name” field\nthen wait", "page shows <Ada> & co"],
        ],
      },
      "Reviewed by QA",
    ]);
    const blocks = await readDocx(docx);
    expect(blocks.map((b) => b.kind)).toEqual(["lines", "table", "lines"]);
    expect(blocks[0]).toEqual({ kind: "lines", lines: ["Test case: Login"] });
    const table = blocks[1]!;
    if (table.kind !== "table") throw new Error("expected a table");
    expect(table.rows.map((r) => r.map((c) => plainText(c).trim()))).toEqual([
      ["Step Name", "Description", "Expected Result"],
      ["Step 1", "Type “Ada” into the “Name” field\nthen wait", "page shows <Ada> & co"],
    ]);
  });

  test("bytes that are not a Word document are an error", async () => {
    await expect(readDocx(new TextEncoder().encode("plain text"))).rejects.toThrow();
  });
});

describe("htmlBlocks", () => {
  test("splits list items and line breaks into lines", () => {
    expect(htmlBlocks("<h1>Login</h1><ul><li>Step 1: Go to /login</li></ul><p>a<br />b</p>")).toEqual([
      { kind: "lines", lines: ["Login", "Step 1: Go to /login", "a", "b"] },
    ]);
  });
});
