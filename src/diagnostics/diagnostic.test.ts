import { describe, expect, test } from "bun:test";
import {
  DIAGNOSTIC_CODES,
  FlowproofError,
  PluginError,
  ProtocolError,
  diagnosticsOf,
  SpecError,
  TraceError,
  diagnostic,
  type Diagnostic,
  type SourceSpan,
} from "./diagnostic.ts";

const span: SourceSpan = { file: "a.flow.yaml", line: 3, column: 5, length: 4, lineText: "  - Blur it" };

describe("diagnostic", () => {
  test("keeps only code and message when no extras are given", () => {
    const d = diagnostic("unknown-key", "unknown key `nmae`");
    expect(d).toEqual({ code: "unknown-key", message: "unknown key `nmae`" });
    expect(Object.keys(d)).toEqual(["code", "message"]);
  });

  test("omits extras that are explicitly undefined", () => {
    const d = diagnostic("bad-value", "bad", { span: undefined, hint: undefined, notes: undefined });
    expect(Object.keys(d)).toEqual(["code", "message"]);
    expect("span" in d).toBe(false);
    expect("hint" in d).toBe(false);
    expect("notes" in d).toBe(false);
  });

  test("omits an empty hint and an empty notes list", () => {
    const d = diagnostic("bad-value", "bad", { hint: "", notes: [] });
    expect(Object.keys(d)).toEqual(["code", "message"]);
  });

  test("carries span, hint and notes when given", () => {
    const notes = [{ message: "previous definition here", span }];
    const d = diagnostic("refused-step", "Blur is not something a user does", { span, hint: "write `Press Tab`", notes });
    expect(d).toEqual({ code: "refused-step", message: "Blur is not something a user does", span, hint: "write `Press Tab`", notes });
  });
});

describe("FlowproofError", () => {
  test("takes code and message from the first diagnostic and keeps them all", () => {
    const list: Diagnostic[] = [diagnostic("missing-key", "a flow needs `name`"), diagnostic("unknown-key", "unknown key `x`")];
    const e = new FlowproofError(list);
    expect(e.code).toBe("missing-key");
    expect(e.message).toBe("a flow needs `name`");
    expect(e.diagnostics).toEqual(list);
    expect(e).toBeInstanceOf(Error);
  });

  test("wraps a single diagnostic in a list", () => {
    const d = diagnostic("io-error", "no flow file at x.yaml");
    const e = new FlowproofError(d);
    expect(e.diagnostics).toEqual([d]);
    expect(e.code).toBe("io-error");
  });

  test("falls back to io-error and a generic message for an empty list", () => {
    const e = new FlowproofError([]);
    expect(e.code).toBe("io-error");
    expect(e.message).toBe("unknown error");
    expect(e.diagnostics).toEqual([]);
  });

  test("keeps the cause it is chained to", () => {
    const cause = new Error("ENOENT");
    const e = new SpecError(diagnostic("io-error", "no flow file"), { cause });
    expect(e.cause).toBe(cause);
  });

  test.each([
    ["FlowproofError", new FlowproofError(diagnostic("usage", "x"))],
    ["SpecError", new SpecError(diagnostic("bad-value", "x"))],
    ["TraceError", new TraceError(diagnostic("bad-trace", "x"))],
    ["PluginError", new PluginError(diagnostic("plugin-error", "x"))],
  ] as const)("names a %s after its class", (name, error) => {
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(FlowproofError);
  });

  test("makes ProtocolError a browser-error that names the CDP method", () => {
    const e = new ProtocolError("Page.navigate", "Cannot navigate to invalid URL");
    expect(e.name).toBe("ProtocolError");
    expect(e.code).toBe("browser-error");
    expect(e.method).toBe("Page.navigate");
    expect(e.message).toBe("Page.navigate: Cannot navigate to invalid URL");
    expect(e).toBeInstanceOf(FlowproofError);
  });
});

describe("diagnosticsOf", () => {
  test("keeps a FlowproofError's diagnostics, code and hint included", () => {
    const d = diagnostic("no-browser", "no Chromium-family browser found", { hint: "set FLOWPROOF_CHROME" });
    expect(diagnosticsOf(new FlowproofError(d))).toEqual([d]);
  });
  test("makes anything else one io-error with its message", () => {
    expect(diagnosticsOf(new Error("EACCES: /x"))).toEqual([{ code: "io-error", message: "EACCES: /x" }]);
    expect(diagnosticsOf("plain")).toEqual([{ code: "io-error", message: "plain" }]);
  });
});

describe("DIAGNOSTIC_CODES", () => {
  test("lists only kebab-case codes, each with a one-line description", () => {
    for (const [code, description] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(description.length).toBeGreaterThan(0);
      expect(description).not.toContain("\n");
    }
  });
});
