import { describe, expect, test } from "bun:test";
import { FlowproofError, diagnostic, type Diagnostic, type SourceSpan } from "./diagnostic.ts";
import {
  MAX_ECHO_CHARS,
  MAX_FRAME_CHARS,
  boundText,
  diagnosticToJson,
  errorToJson,
  frameWindow,
  renderDiagnostic,
  renderDiagnostics,
  terminalSafe,
} from "./render.ts";

const span: SourceSpan = { file: "checkout.flow.yaml", line: 14, column: 12, length: 4, lineText: '  - rules: Blur the "Email" field' };
const blur = diagnostic("refused-step", "Blur is not something a user does", { span, hint: "write `Press Tab`" });

describe("renderDiagnostic", () => {
  test("prints location, code frame with a caret under the span, and the hint", () => {
    expect(renderDiagnostic(blur)).toBe(
      [
        "checkout.flow.yaml:14:12: error[refused-step] Blur is not something a user does",
        '  14 |   - rules: Blur the "Email" field',
        "     |            ^^^^",
        "  hint: write `Press Tab`",
      ].join("\n"),
    );
  });

  test("puts the first caret exactly under the span's column", () => {
    const lines = renderDiagnostic(blur).split("\n");
    const source = lines[1]!;
    const caret = lines[2]!;
    const bar = source.indexOf("| ") + 2;
    expect(caret.indexOf("^") - bar).toBe(span.column - 1);
    expect(source.slice(caret.indexOf("^"), caret.lastIndexOf("^") + 1)).toBe("Blur");
  });

  test("draws at least one caret for a zero-length span", () => {
    const d = diagnostic("bad-value", "empty", { span: { ...span, column: 1, length: 0 } });
    expect(renderDiagnostic(d).split("\n")[2]).toBe("     | ^");
  });

  test("widens the gutter padding to the line number's width", () => {
    const d = diagnostic("bad-value", "x", { span: { ...span, line: 1234, column: 3, length: 2, lineText: "abcdef" } });
    expect(renderDiagnostic(d).split("\n").slice(1)).toEqual(["  1234 | abcdef", "       |   ^^"]);
  });

  test("prints `error: … [code]` and the hint when there is no span", () => {
    const d = diagnostic("missing-trace", "no trace at a.trace.jsonl", { hint: "record it first: flowproof record a.flow.yaml" });
    expect(renderDiagnostic(d)).toBe("error: no trace at a.trace.jsonl [missing-trace]\n  hint: record it first: flowproof record a.flow.yaml");
  });

  test("prints only the head line when there is neither span nor hint", () => {
    expect(renderDiagnostic(diagnostic("io-error", "disk full"))).toBe("error: disk full [io-error]");
  });

  test("prints notes with their location", () => {
    const d = diagnostic("unknown-key", "duplicate", { notes: [{ message: "first here", span: { ...span, line: 2, column: 1 } }, { message: "no place" }] });
    expect(renderDiagnostic(d).split("\n").slice(1)).toEqual(["  note: checkout.flow.yaml:2:1: first here", "  note: no place"]);
  });
});

describe("renderDiagnostics", () => {
  const many = (n: number): Diagnostic[] => Array.from({ length: n }, (_, i) => diagnostic("unknown-key", `problem ${i + 1}`));

  test("separates diagnostics with a blank line", () => {
    expect(renderDiagnostics(many(2))).toBe("error: problem 1 [unknown-key]\n\nerror: problem 2 [unknown-key]");
  });

  test("prints all of exactly ten without a summary line", () => {
    const out = renderDiagnostics(many(10));
    expect(out).toContain("problem 10");
    expect(out).not.toContain("more");
  });

  test("prints the first ten then `… and N more`", () => {
    const out = renderDiagnostics(many(13));
    expect(out).toContain("problem 10 [");
    expect(out).not.toContain("problem 11");
    expect(out.endsWith("\n\n… and 3 more")).toBe(true);
  });
});

describe("errorToJson", () => {
  test("gives the first diagnostic's code and message and every diagnostic, hint included", () => {
    const e = new FlowproofError(diagnostic("no-browser", "no Chromium-family browser found", { hint: "set FLOWPROOF_CHROME" }));
    expect(errorToJson(e)).toEqual({
      code: "no-browser",
      message: "no Chromium-family browser found",
      diagnostics: [{ code: "no-browser", message: "no Chromium-family browser found", hint: "set FLOWPROOF_CHROME" }],
    });
  });
  test("gives a thrown value that is not a FlowproofError as an io-error", () => {
    expect(errorToJson(new Error("disk gone"))).toEqual({ code: "io-error", message: "disk gone", diagnostics: [{ code: "io-error", message: "disk gone" }] });
  });
});

describe("diagnosticToJson", () => {
  test("flattens the span into file, line and column and keeps the hint", () => {
    expect(diagnosticToJson(blur)).toEqual({
      code: "refused-step",
      message: "Blur is not something a user does",
      file: "checkout.flow.yaml",
      line: 14,
      column: 12,
      hint: "write `Press Tab`",
    });
  });

  test("never includes lineText, so the authored line is not echoed", () => {
    expect(JSON.stringify(diagnosticToJson(blur))).not.toContain("lineText");
  });

  test("gives only code and message for a bare diagnostic", () => {
    expect(diagnosticToJson(diagnostic("usage", "bad flag"))).toEqual({ code: "usage", message: "bad flag" });
  });

  test("maps notes with and without a span", () => {
    const d = diagnostic("unknown-key", "dup", { notes: [{ message: "here", span }, { message: "elsewhere" }] });
    expect(diagnosticToJson(d)["notes"]).toEqual([{ message: "here", file: "checkout.flow.yaml", line: 14, column: 12 }, { message: "elsewhere" }]);
  });
});

describe("bounded echo", () => {
  const huge = "x".repeat(1_000_000);
  const line = `  - rules: Click "${huge}" now please`;
  const d = diagnostic("unknown-step", `Unexpected text after the target: \`${huge} now please\`.`, {
    span: { file: "big.flow.yaml", line: 5, column: line.indexOf("now") + 1, length: 10, lineText: line },
    hint: `end the step after \`${huge}\``,
    notes: [{ message: huge }],
  });

  test("a code frame of a 1 MB line shows a window around the caret, and messages keep their start and end", () => {
    const out = renderDiagnostic(d);
    expect(out.length).toBeLessThan(4 * MAX_ECHO_CHARS + 2 * MAX_FRAME_CHARS);
    const [head, source, caret] = out.split("\n");
    expect(head).toStartWith("big.flow.yaml:5:1000021: error[unknown-step] Unexpected text after the target: `xxx");
    expect(head).toEndWith("xxx now please`.");
    expect(head).toContain("… (999");
    expect(source).toStartWith("  5 | …xxx");
    expect(source!.slice(caret!.indexOf("^"), caret!.lastIndexOf("^") + 1)).toBe("now please");
    expect(JSON.stringify(diagnosticToJson(d)).length).toBeLessThan(4 * MAX_ECHO_CHARS);
  });

  test.each([
    ["a short line", "abc", 2, 1, { text: "abc", caretAt: 1, caretLength: 1 }],
    ["a span near the start of a long line", "y".repeat(400), 3, 2, { text: `${"y".repeat(MAX_FRAME_CHARS)}…`, caretAt: 2, caretLength: 2 }],
    ["a span running past the line's end", "z".repeat(400), 391, 50, { text: `…${"z".repeat(50)}`, caretAt: 41, caretLength: 10 }],
  ])("frameWindow keeps %s readable", (_what, text, column, length, expected) => {
    expect(frameWindow(text, column, length)).toEqual(expected);
  });

  test("boundText leaves short text alone and never splits a surrogate pair", () => {
    expect(boundText("short")).toBe("short");
    const bounded = boundText("😀".repeat(1000), 100);
    expect(bounded).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe("terminalSafe", () => {
  test.each([
    ["a title change", "Invoice\u001b]0;pwned\u0007 ok", "Invoice\\u001b]0;pwned\\u0007 ok"],
    ["a colour change and a carriage return", "\u001b[31mred\rover", "\\u001b[31mred\\u000dover"],
    ["a C1 CSI and a bidi override", "a\u009b2Jb \u202Eevil", "a\\u009b2Jb \\u202eevil"],
    ["a lone surrogate", "x\uD800y", "x\\ud800y"],
    ["tabs, newlines and emoji", "a\tb\n😀 漢", "a\tb\n😀 漢"],
  ])("escapes %s visibly", (_what, input, output) => {
    expect(terminalSafe(input)).toBe(output);
  });

  test("keeps a JSON document's meaning exact", () => {
    const value = { title: "x\u001b]0;t\u0007\u009b\u2028y" };
    const safe = terminalSafe(JSON.stringify(value));
    expect(safe).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028]/);
    expect(JSON.parse(safe)).toEqual(value);
  });
});
