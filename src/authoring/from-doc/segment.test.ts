import { describe, expect, test } from "bun:test";
import { cleanText, plainText, segment, splitNumbered } from "./segment.ts";

describe("segment", () => {
  test("reads an HP ALM table under a title row, in document order", () => {
    const r = segment([
      { kind: "lines", lines: ["Test: Login"] },
      {
        kind: "table",
        rows: [
          ["Test Login", "", ""],
          ["Step Name", "Description", "Expected Result"],
          ["Step 1", "Go to /login.", "page shows Sign in"],
          ["Step 2", "Click “Sign in”", ""],
        ],
      },
    ]);
    expect(r).toEqual({
      ok: true,
      shape: "hp-alm",
      steps: [
        { index: 1, name: "Step 1", action: "Go to /login", expected: "page shows Sign in", where: "table 2, row 3" },
        { index: 2, name: "Step 2", action: 'Click "Sign in"', where: "table 2, row 4" },
      ],
    });
  });

  test("reads an Azure DevOps export: the test-case row has no action, the actions are HTML", () => {
    const r = segment([
      {
        kind: "table",
        rows: [
          ["ID", "Work Item Type", "Title", "Test Step", "Step Action", "Step Expected"],
          ["12", "Test Case", "Log in", "", "", ""],
          ["", "", "", "1", "<DIV><P>Open the login&nbsp;page</P></DIV>", "<P>The &quot;Sign in&quot; form shows</P>"],
          ["", "", "", "2", 'Press the "Sign in" button', ""],
        ],
      },
    ]);
    expect(r.ok && r.shape).toBe("azure-devops");
    expect(r.ok && r.steps.map((s) => [s.name, s.action, s.expected])).toEqual([
      ["1", "Open the login page", 'The "Sign in" form shows'],
      ["2", 'Press the "Sign in" button', undefined],
    ]);
  });

  test("keeps an Xray data cell apart from the action", () => {
    const r = segment([
      {
        kind: "table",
        rows: [
          ["Action", "Data", "Expected Result"],
          ["Enter the user name", "ada", "The name is accepted"],
        ],
      },
    ]);
    expect(r.ok && r.steps[0]).toEqual({ index: 1, action: "Enter the user name", data: "ada", expected: "The name is accepted", where: "table 1, row 2" });
  });

  test("splits a TestRail cell holding a numbered list into steps, pairing numbered expectations", () => {
    const r = segment([
      {
        kind: "table",
        rows: [
          ["Steps (Step)", "Steps (Expected Result)"],
          ['1. Go to /login\n2. Click "Sign in"\n   on the form', "1. page shows Sign in\n2. page shows Welcome"],
        ],
      },
    ]);
    expect(r.ok && r.shape).toBe("testrail");
    expect(r.ok && r.steps.map((s) => [s.action, s.expected])).toEqual([
      ["Go to /login", "page shows Sign in"],
      ['Click "Sign in" on the form', "page shows Welcome"],
    ]);
  });

  test("skips a header repeated on a later page", () => {
    const r = segment([
      {
        kind: "table",
        rows: [
          ["Step", "Expected Result"],
          ["Go to /a", ""],
          ["Step", "Expected Result"],
          ["Go to /b", ""],
        ],
      },
    ]);
    expect(r.ok && r.steps.map((s) => s.action)).toEqual(["Go to /a", "Go to /b"]);
  });

  test("reads labelled lines, a value running on over unlabelled lines, and no actual result", () => {
    const r = segment([
      {
        kind: "lines",
        lines: [
          "Test Plan report",
          "Step Name: Step 1",
          "Description: Go to",
          "/login",
          "Expected Result: page shows Sign in",
          "Actual Result: as expected",
          "Step Name: Step 2",
          'Description: Click "Sign in"',
        ],
      },
    ]);
    expect(r.ok && r.steps.map((s) => [s.name, s.action, s.expected ?? ""])).toEqual([
      ["Step 1", "Go to /login", "page shows Sign in"],
      ["Step 2", 'Click "Sign in"', ""],
    ]);
  });

  test("reads `Step N:` lines with expected labels", () => {
    const r = segment([{ kind: "lines", lines: ["Step 1: Go to /login", "Expected: page shows Sign in", "Step 2 - Press Enter"] }]);
    expect(r.ok && r.steps.map((s) => [s.name, s.action, s.expected ?? ""])).toEqual([
      ["Step 1", "Go to /login", "page shows Sign in"],
      ["Step 2", "Press Enter", ""],
    ]);
  });

  test("a document without steps is refused, saying what was looked for and what its tables start with", () => {
    const r = segment([
      {
        kind: "table",
        rows: [
          ["Name", "Owner"],
          ["Login", "QA"],
        ],
      },
      { kind: "lines", lines: ["Description: checks the login"] },
    ]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toBe("found no test steps in the document; its tables start with `Name | Owner`");
    expect(r.hint).toContain("Expected Result");
    expect(r.hint).toContain("Step Action");
  });
});

describe("text helpers", () => {
  test("cleanText straightens quotes, collapses whitespace and drops one closing full stop", () => {
    expect(cleanText("  Click\n “Save”.\u0007 ")).toBe('Click "Save"');
    expect(cleanText("Wait...")).toBe("Wait...");
  });
  test("plainText leaves text without markup alone", () => {
    expect(plainText("a < b")).toBe("a < b");
    expect(plainText("<p>a &lt; b</p><p>c</p>")).toBe("a < b\nc\n");
  });
  test("splitNumbered needs two numbered items", () => {
    expect(splitNumbered("1. one")).toBeUndefined();
    expect(splitNumbered("Intro\n1. one\n2. two")).toBeUndefined();
    expect(splitNumbered("1) one\n2) two")).toEqual(["one", "two"]);
  });
});

describe("segment with markup", () => {
  test("reads a header whose cells are HTML, as a Word table converts", () => {
    const r = segment([
      {
        kind: "table",
        rows: [
          ["<p>Step Name</p>", "<p>Description</p>"],
          ["<p>Step 1</p>", "<p>Press Enter</p>"],
        ],
      },
    ]);
    expect(r.ok && r.steps.map((s) => [s.name, s.action])).toEqual([["Step 1", "Press Enter"]]);
  });
});
