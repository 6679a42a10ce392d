import { describe, expect, test } from "bun:test";
import { findActionRefusal, findTextRefusal } from "./refusal.ts";

const slice = (text: string) => ({ text, offset: 0 });

describe("findActionRefusal", () => {
  test.each([
    ['Click "Next" until the "Status" shows Done', "repetition is a block", "until", 13],
    ['While the "Spinner" is visible, press the "Retry" button', "repetition is a block", "While", 0],
    ['Click "Retry" while the "Spinner" is visible', "repetition is a block", "while", 14],
    ['If the "Banner" is visible, click "Dismiss"', "a branch is a block", "If", 0],
    ['Click "A" otherwise click "B"', "a branch is a block", "otherwise", 10],
    ['Click "A" else click "B"', "a branch is a block", "else", 10],
    ['Remember the "Total" matching /[0-9.]+/ as amount', "pattern extraction", "matching /", 21],
    ['Remember the "Total" matching regex \\d+ as amount', "pattern extraction", "matching regex", 21],
    ['Remember the "Total" by regex as amount', "pattern extraction", "regex", 24],
    ['Remember the text between "total of" and "to your" as amount', "pattern matching", "the text between", 9],
    ['Remember between "a" and "b" as x', "pattern matching", "between", 9],
    ['Type {Date[tomorrow]} into the "Due" field', "date expression", "{Date[", 5],
    ['Click the "Move" without hovering', "no user could produce", "without hovering", 17],
    ['Click the "Move" without the pointer', "no user could produce", "without the pointer", 17],
    ['Blur the "Email" field', "Blur is not something a user does", "Blur", 0],
    ["Run JavaScript document.title='x'", "not something a user does", "Run JavaScript", 0],
    ["page.evaluate(() => 1)", "not something a user does", "page.evaluate", 0],
  ])("refuses %s", (text, reason, word, offset) => {
    const r = findActionRefusal(slice(text));
    expect(r?.error.code).toBe("refused-step");
    expect(r?.error.message).toContain(reason);
    expect(r?.error.offset).toBe(offset);
    expect(r?.error.length).toBe(word.length);
  });

  test.each([
    "Wait until page shows Saved",
    "Wait until the download completes as report",
    'Type Ada into the "Elsewhere" field',
    'Click "Update between runs"',
    'Click "Go until done"',
    'Click "If only"',
    "Type meanwhile",
    'Click "Look at this"',
  ])("does not refuse %s", (text) => {
    expect(findActionRefusal(slice(text))).toBeUndefined();
  });

  test("refuses a second until after a leading Wait until", () => {
    expect(findActionRefusal(slice("Wait until page shows A until B"))?.error.offset).toBe(24);
  });

  test("gives the repeat: alternative for loops and the when: alternative for branches", () => {
    expect(findActionRefusal(slice('Click "N" until done'))?.error.hint).toContain("`repeat:`");
    expect(findActionRefusal(slice('If x, click "D"'))?.error.hint).toContain("`when: <condition>`");
  });
});

describe("findTextRefusal", () => {
  test.each([
    ['the "Total" matching /\\d+/ shows 5', "pattern extraction"],
    ['the text between "a" and "b" shows 5', "pattern matching"],
  ])("refuses %s in assertions and conditions", (text, reason) => {
    expect(findTextRefusal(slice(text))?.error.message).toContain(reason);
  });
  test.each(["page shows Saved else", "page does not show while loading", 'the "Status" shows Done'])("leaves %s to the assertion grammar", (text) => {
    expect(findTextRefusal(slice(text))).toBeUndefined();
  });
});
