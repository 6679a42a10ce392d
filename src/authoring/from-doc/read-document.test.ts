import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { FlowproofError } from "../../diagnostics/diagnostic.ts";
import { formatOf, readDocument } from "./read-document.ts";
import { tmpProject } from "../../../test/support/tmp-project.ts";

const p = tmpProject("flowproof-read-document-");
afterAll(() => p.remove());

const failure = async (path: string) => {
  try {
    await readDocument(path);
  } catch (error) {
    if (error instanceof FlowproofError) return error.diagnostics[0];
    throw error;
  }
  throw new Error("no error");
};

describe("readDocument", () => {
  test("reads by extension", async () => {
    const path = p.write("case.MD", "| Step | Expected |\n| --- | --- |\n| Press Enter | page shows Done |\n");
    expect(await readDocument(path)).toEqual({
      format: "markdown",
      blocks: [
        {
          kind: "table",
          rows: [
            ["Step", "Expected"],
            ["Press Enter", "page shows Done"],
          ],
        },
      ],
    });
  });

  test("an old binary format says what to save it as", async () => {
    expect(await failure(p.write("case.xls", "x"))).toEqual({
      code: "document-unreadable",
      message: `${join(p.dir, "case.xls")}: \`.xls\` is not a format author-from-doc reads`,
      hint: "save it as .xlsx and pass that file",
    });
  });

  test("a damaged file names its format", async () => {
    const d = await failure(p.write("case.pdf", "not a pdf"));
    expect(d?.code).toBe("document-unreadable");
    expect(d?.message).toStartWith(`${join(p.dir, "case.pdf")} could not be read as PDF: `);
  });

  test("a missing file is an io-error", async () => {
    expect(await failure(join(p.dir, "missing.docx"))).toEqual({
      code: "io-error",
      message: `cannot read ${join(p.dir, "missing.docx")}: no such file`,
      hint: "pass the path of the exported test case",
    });
  });

  test("formatOf", () => {
    expect([formatOf("a.pdf"), formatOf("a.XLSX"), formatOf("a.csv"), formatOf("a.markdown"), formatOf("a.txt")]).toEqual([
      "pdf",
      "xlsx",
      "csv",
      "markdown",
      undefined,
    ]);
  });
});
