import { describe, expect, test } from "bun:test";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";
import { AdapterUnavailableError } from "../plugins/api.ts";
import { EXIT } from "./exit-codes.ts";
import { UsageError } from "./flags.ts";
import { MAX_LINE_CHARS, boundLines, reportError, type Io } from "./io.ts";

function capture(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
}

const span = { file: "a.flow.yaml", line: 5, column: 12, length: 4, lineText: '  - rules: Blur the "Email" field' };
const blur = diagnostic("refused-step", "Blur is not something a user does", { span, hint: "write `Press Tab`" });

describe("reportError", () => {
  test("renders a FlowproofError's diagnostic as a code frame on stderr and returns 2", () => {
    const io = capture();
    expect(reportError(io, new SpecError(blur), false)).toBe(EXIT.error);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toEqual([
      [
        "a.flow.yaml:5:12: error[refused-step] Blur is not something a user does",
        '  5 |   - rules: Blur the "Email" field',
        "    |            ^^^^",
        "  hint: write `Press Tab`",
      ].join("\n"),
    ]);
  });

  test("counts several problems before listing them", () => {
    const io = capture();
    reportError(io, new SpecError([blur, diagnostic("missing-key", "a flow needs `name`")]), false);
    expect(io.stderr[0]).toStartWith("error: 2 problems:\n\na.flow.yaml:5:12: error[refused-step]");
    expect(io.stderr[0]).toEndWith("error: a flow needs `name` [missing-key]");
  });

  test("renders a UsageError as a usage diagnostic with its hint", () => {
    const io = capture();
    expect(reportError(io, new UsageError("unknown flag --x", "usage: flowproof run <flow.yaml>"), false)).toBe(2);
    expect(io.stderr).toEqual(["error: unknown flag --x [usage]\n  hint: usage: flowproof run <flow.yaml>"]);
  });

  test("renders an unavailable adapter with the code of its cause and its hint", () => {
    const io = capture();
    expect(reportError(io, new AdapterUnavailableError("no Chromium-family browser found", "set FLOWPROOF_CHROME", { code: "no-browser" }), false)).toBe(2);
    expect(io.stderr).toEqual(["error: no Chromium-family browser found [no-browser]\n  hint: set FLOWPROOF_CHROME"]);
    const plugin = capture();
    reportError(plugin, new AdapterUnavailableError("the `app: notes` adapter could not open: no notes server", "check what it needs"), false);
    expect(plugin.stderr).toEqual(["error: the `app: notes` adapter could not open: no notes server [adapter-unavailable]\n  hint: check what it needs"]);
  });

  test("renders an unresolved reference as unresolved-reference", () => {
    const io = capture();
    reportError(io, new UnresolvedReferenceError("${PASSWORD} is not set"), true);
    expect(JSON.parse(io.stdout[0]!).error).toMatchObject({ code: "unresolved-reference", message: "${PASSWORD} is not set" });
  });

  test.each<[string, unknown, string]>([
    ["a plain Error", new Error("EACCES: permission denied"), "EACCES: permission denied"],
    ["a thrown string", "something odd", "something odd"],
  ])("renders %s as io-error", (_what, error, message) => {
    const io = capture();
    expect(reportError(io, error, false)).toBe(2);
    expect(io.stderr).toEqual([`error: ${message} [io-error]`]);
  });

  test("prints one JSON document on stdout in JSON mode", () => {
    const io = capture();
    expect(reportError(io, new SpecError([blur, diagnostic("missing-key", "a flow needs `name`")]), true)).toBe(2);
    expect(io.stderr).toEqual([]);
    expect(io.stdout).toHaveLength(1);
    expect(JSON.parse(io.stdout[0]!)).toEqual({
      error: {
        code: "refused-step",
        message: "Blur is not something a user does",
        diagnostics: [
          { code: "refused-step", message: "Blur is not something a user does", file: "a.flow.yaml", line: 5, column: 12, hint: "write `Press Tab`" },
          { code: "missing-key", message: "a flow needs `name`" },
        ],
      },
    });
  });

  test("gives a UsageError the usage code in JSON mode", () => {
    const io = capture();
    reportError(io, new UsageError("bad", "usage: x"), true);
    expect(JSON.parse(io.stdout[0]!)).toEqual({ error: { code: "usage", message: "bad", diagnostics: [{ code: "usage", message: "bad", hint: "usage: x" }] } });
  });

  test("gives a plain error the io-error code in JSON mode", () => {
    const io = capture();
    reportError(io, new Error("disk full"), true);
    expect(JSON.parse(io.stdout[0]!).error.code).toBe("io-error");
  });
});

describe("boundLines", () => {
  test("bounds each line of human text on its own and keeps short lines whole", () => {
    const out = boundLines(`  [FAIL] s0001 ${"x".repeat(1_000_000)} — expected Paid\n  [PASS] s0002 Click "Save"`).split("\n");
    expect(out[0]!.length).toBeLessThan(MAX_LINE_CHARS + 40);
    expect(out[0]).toStartWith("  [FAIL] s0001 xxx");
    expect(out[0]).toEndWith("xxx — expected Paid");
    expect(out[1]).toBe('  [PASS] s0002 Click "Save"');
  });
});
