import { describe, expect, test } from "bun:test";
import { readMarkdown } from "./read-markdown.ts";

const md = (text: string) => readMarkdown(new TextEncoder().encode(text));

describe("readMarkdown", () => {
  test("reads a pipe table and the lines around it", () => {
    expect(
      md(
        '# Login\n\n| Step | Expected Result |\n| --- | :---: |\n| Go to `/login` | page shows **Sign in** |\n| Type a\\|b into the "Name" field | |\n\nEnd.\n',
      ),
    ).toEqual([
      { kind: "lines", lines: ["Login"] },
      {
        kind: "table",
        rows: [
          ["Step", "Expected Result"],
          ["Go to /login", "page shows Sign in"],
          ['Type a|b into the "Name" field', ""],
        ],
      },
      { kind: "lines", lines: ["End."] },
    ]);
  });

  test("reads a table without outer pipes", () => {
    expect(md("Action | Expected\n--- | ---\nPress Enter | page shows Done")).toEqual([
      {
        kind: "table",
        rows: [
          ["Action", "Expected"],
          ["Press Enter", "page shows Done"],
        ],
      },
    ]);
  });

  test("a pipe in prose is not a table", () => {
    expect(md("either | or\nnothing else")).toEqual([{ kind: "lines", lines: ["either | or", "nothing else"] }]);
  });
});
