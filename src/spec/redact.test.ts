import { describe, expect, test } from "bun:test";
import { loadFlowText } from "../../test/support/surfaces.ts";

const flow = (redact: string) => `name: R\napp: web\nurl: http://127.0.0.1/\nredact:\n${redact}\nsteps:\n  - rules: Press Enter\n`;

describe("loadRedact", () => {
  test("loads css, text and rect rules, mode defaulting to mask", () => {
    const r = loadFlowText(
      "r.flow.yaml",
      flow('  - target: { css: "#ssn" }\n    mode: mask\n  - target: { text: IBAN }\n  - target: { rect: [0, 10, 200, 40] }'),
    );
    expect(r.ok && r.flow.redact).toEqual([
      { target: { css: "#ssn" }, mode: "mask" },
      { target: { text: "IBAN" }, mode: "mask" },
      { target: { rect: [0, 10, 200, 40] }, mode: "mask" },
    ]);
  });

  test("a surface with no css (it lacks `css` targets) takes text and rect rules and refuses css ones, saying what to write", () => {
    const vision = (redact: string) =>
      loadFlowText("v.flow.yaml", `name: V\napp: vision\nwindow: {title: Payments}\nredact:\n${redact}\nsteps:\n  - rules: Press Enter\n`);
    const ok = vision("  - target: { text: Invoice 1001 }\n  - target: { rect: [0, 0, 10, 10] }");
    expect(ok.ok && ok.flow.redact).toEqual([
      { target: { text: "Invoice 1001" }, mode: "mask" },
      { target: { rect: [0, 0, 10, 10] }, mode: "mask" },
    ]);
    const css = vision('  - target: { css: "#iban" }');
    expect(css.ok ? [] : css.diagnostics.map((d) => [d.code, d.message, d.span?.line, d.span?.column, d.hint])).toEqual([
      [
        "unsupported-feature",
        "a `css` redaction target cannot be used on a window seen only as pixels: it has no CSS selectors (grammar form `css`)",
        5,
        15,
        'mask what shows a text with `target: { text: "IBAN" }`, or a fixed region with `target: { rect: [x, y, width, height] }`',
      ],
    ]);
  });

  test("a text rule may name a `${VAR}`: kept as written, resolved only when frames are taken", () => {
    const r = loadFlowText("r.flow.yaml", flow('  - target: { text: "${CANARY_PW}" }\n  - target: { text: "IBAN ${IBAN}" }'));
    expect(r.ok && r.flow.redact).toEqual([
      { target: { text: "${CANARY_PW}" }, mode: "mask" },
      { target: { text: "IBAN ${IBAN}" }, mode: "mask" },
    ]);
  });

  test("a flow without redact: has no rules", () => {
    const r = loadFlowText("r.flow.yaml", "name: R\napp: web\nurl: http://127.0.0.1/\nsteps:\n  - rules: Press Enter\n");
    expect(r.ok && r.flow.redact).toBeUndefined();
  });

  test.each([
    ['  - target: { css: "" }', "bad-value", "`css` must be a non-empty selector", 5],
    ["  - target: { rect: [0, 0, 0, 10] }", "bad-value", "`rect` must be [x, y, width, height] with a positive width and height", 5],
    ['  - target: { css: "#a" }\n    mode: blur', "bad-value", "`mode` must be `mask` (a solid fill)", 6],
    [
      "  - target: { automation_id: Pin }",
      "unsupported-feature",
      "`automation_id` is not a redaction target: a rule masks an element by `css` (where the surface has CSS selectors), a text wherever it shows (`text`), or a fixed region (`rect`)",
      5,
    ],
    ['  - target: { xpath: "//a" }', "bad-value", "unknown redaction target `xpath`", 5],
    ['  - target: { text: "" }', "bad-value", "`text` must be the non-empty text whose place is masked", 5],
    [
      '  - target: { text: "${captured.iban}" }',
      "bad-value",
      "`text` can name a `${VAR}` from the environment, not a `${captured.…}` value (frames are masked from the first step on, before anything is remembered)",
      5,
    ],
    ['  - target: { css: "#a" }\n    colour: red', "unknown-key", "unknown key `colour` in a redaction rule", 6],
    ["  - '#ssn'", "bad-value", "a redaction rule is a mapping with `target` and `mode`", 5],
  ])("refuses %j with %s at its line", (text, code, message, line) => {
    const r = loadFlowText("r.flow.yaml", flow(text));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.line])).toEqual([[code, message, line]]);
  });

  test("refuses a redact: that is not a list", () => {
    const r = loadFlowText("r.flow.yaml", "name: R\napp: web\nurl: http://127.0.0.1/\nredact: '#ssn'\nsteps:\n  - rules: Press Enter\n");
    expect(!r.ok && r.diagnostics[0]!.message).toBe("`redact` must be a list of rules");
  });
});
