import { describe, expect, test } from "bun:test";
import { parseRedactionRules, Redactor, PASSWORD_TARGET, SECRET_FIELDS_TARGET, MASK_RGB } from "./redactor.ts";
import { isUniform, solidImage } from "./image.ts";

describe("parseRedactionRules", () => {
  test("accepts css, text and rect rules", () => {
    expect(
      parseRedactionRules([
        { target: { css: "#ssn" }, mode: "mask" },
        { target: { text: "IBAN" }, mode: "mask" },
        { target: { rect: [1, 2, 3, 4] }, mode: "mask" },
      ]),
    ).toEqual({
      ok: true,
      rules: [
        { target: { css: "#ssn" }, mode: "mask" },
        { target: { text: "IBAN" }, mode: "mask" },
        { target: { rect: [1, 2, 3, 4] }, mode: "mask" },
      ],
    });
  });

  test.each([
    [[{ target: { automation_id: "Pin" }, mode: "mask" }], 'redaction rule 1: target "automation_id" is not one this version can resolve (css, text, rect)'],
    [[{ target: { text: " " }, mode: "mask" }], "redaction rule 1: target.text must be a non-empty text"],
    [[{ target: { css: "#a" }, mode: "blur" }], 'redaction rule 1: mode must be "mask", not "blur"'],
    [
      [
        { target: { css: "#a" }, mode: "mask" },
        { target: { rect: [0, 0, 0, 5] }, mode: "mask" },
      ],
      "redaction rule 2: target.rect must be [x, y, width, height] with a positive width and height",
    ],
    [["#ssn"], "redaction rule 1: must be a mapping with `target` and `mode`"],
    [[{ target: { css: "#a" }, mode: "mask", colour: "red" }], 'redaction rule 1: unknown key "colour"'],
  ])("refuses the whole set when one rule cannot be applied (%j)", (raw, detail) => {
    expect(parseRedactionRules(raw)).toEqual({ ok: false, detail });
  });
});

describe("Redactor.targetsNow", () => {
  const env: Record<string, string> = { CANARY_PW: "Pw-1234-x" };
  const secrets = (values: string[]) => ({
    values: () => values,
    resolve: (text: string) =>
      text.replace(/\$\{(\w+)\}/g, (_, name: string) => {
        const v = env[name];
        if (v === undefined) throw new Error(`\${${name}} is not set`);
        return v;
      }),
  });

  test("adds every secret value and every `${VAR}` rule's value as one secretText target, after the rules' own", () => {
    const r = new Redactor(
      [
        { target: { css: "#ssn" }, mode: "mask" },
        { target: { text: "${CANARY_PW}" }, mode: "mask" },
      ],
      secrets(["tok-9f8e", "tok-9f8e"]),
    );
    expect(r.targets).toEqual([PASSWORD_TARGET, SECRET_FIELDS_TARGET, { css: "#ssn" }]);
    expect(r.targetsNow()).toEqual({ ok: true, targets: [PASSWORD_TARGET, SECRET_FIELDS_TARGET, { css: "#ssn" }, { secretText: ["tok-9f8e", "Pw-1234-x"] }] });
  });

  test("a run without secrets resolves the rules' targets only", () => {
    expect(new Redactor([], secrets([])).targetsNow()).toEqual({ ok: true, targets: [PASSWORD_TARGET, SECRET_FIELDS_TARGET] });
  });

  test("a `${VAR}` rule that cannot be resolved fails the frame, saying why", () => {
    expect(new Redactor([{ target: { text: "${UNSET_PW}" }, mode: "mask" }], secrets([])).targetsNow()).toEqual({
      ok: false,
      detail: 'the redaction rule text "${UNSET_PW}": ${UNSET_PW} is not set',
    });
    expect(new Redactor([{ target: { text: "${CANARY_PW}" }, mode: "mask" }]).targetsNow()).toEqual({
      ok: false,
      detail: 'the redaction rule text "${CANARY_PW}" cannot be resolved here',
    });
  });

  test("an unresolved secretText answer fails the plan without naming the values", () => {
    const r = new Redactor([], secrets(["tok-9f8e"]));
    const plan = r.targetsNow();
    if (!plan.ok) throw new Error(plan.detail);
    const answers = [
      { ok: true as const, rects: [] },
      { ok: true as const, rects: [] },
      { ok: false as const, detail: "Range failed" },
    ];
    expect(r.masksFor([answers, answers], plan.targets)).toEqual({ ok: false, detail: "a secret the screen shows: Range failed" });
  });
});

describe("Redactor", () => {
  test("always resolves the password and secret-field rules first", () => {
    expect(new Redactor([]).targets).toEqual([PASSWORD_TARGET, SECRET_FIELDS_TARGET]);
    expect(new Redactor([{ target: { css: "#ssn" }, mode: "mask" }]).targets).toEqual([PASSWORD_TARGET, SECRET_FIELDS_TARGET, { css: "#ssn" }]);
    expect(new Redactor([{ target: { text: "IBAN" }, mode: "mask" }]).targets).toEqual([PASSWORD_TARGET, SECRET_FIELDS_TARGET, { text: "IBAN" }]);
  });

  test("fills fixed rects and every resolved rect with solid black", () => {
    const image = solidImage(100, 100, [255, 255, 255]);
    const redactor = new Redactor([
      { target: { rect: [0, 0, 10, 10] }, mode: "mask" },
      { target: { css: "#ssn" }, mode: "mask" },
    ]);
    const answers = [
      { ok: true as const, rects: [{ x: 20, y: 20, width: 5, height: 5 }] },
      { ok: true as const, rects: [] },
      { ok: true as const, rects: [{ x: 50, y: 60, width: 30, height: 8 }] },
    ];
    const outcome = redactor.mask(image, [answers, answers]);
    expect(outcome).toEqual({ ok: true, masked: 3 });
    expect(isUniform(image, { x: 0, y: 0, width: 10, height: 10 }, MASK_RGB)).toBe(true);
    expect(isUniform(image, { x: 20, y: 20, width: 5, height: 5 }, MASK_RGB)).toBe(true);
    expect(isUniform(image, { x: 50, y: 60, width: 30, height: 8 }, MASK_RGB)).toBe(true);
    expect(isUniform(image, { x: 30, y: 30, width: 10, height: 10 }, [255, 255, 255])).toBe(true);
  });

  test("fails the frame when any target could not be resolved, masking nothing", () => {
    const image = solidImage(10, 10, [255, 255, 255]);
    const redactor = new Redactor([{ target: { css: "#ssn[" }, mode: "mask" }]);
    const outcome = redactor.mask(image, [
      [
        { ok: true, rects: [] },
        { ok: true, rects: [] },
        { ok: false, detail: "not a valid selector" },
      ],
    ]);
    expect(outcome).toEqual({ ok: false, detail: "#ssn[: not a valid selector" });
  });

  test.each([
    ["moved", [{ x: 20, y: 20, width: 5, height: 5 }], [{ x: 60, y: 20, width: 5, height: 5 }]],
    ["appeared", [], [{ x: 20, y: 20, width: 5, height: 5 }]],
    ["went", [{ x: 20, y: 20, width: 5, height: 5 }], []],
  ])("fails the frame when a target %s between the reads around the capture (the area it crossed is unknown)", (_, before, after) => {
    const image = solidImage(100, 100, [255, 255, 255]);
    const redactor = new Redactor([{ target: { css: "#badge" }, mode: "mask" }]);
    const outcome = redactor.mask(image, [
      [
        { ok: true, rects: [] },
        { ok: true, rects: [] },
        { ok: true, rects: before },
      ],
      [
        { ok: true, rects: [] },
        { ok: true, rects: [] },
        { ok: true, rects: after },
      ],
    ]);
    expect(outcome).toEqual({ ok: false, detail: "#badge: moved while the frame was taken" });
    expect(isUniform(image, { x: 0, y: 0, width: 100, height: 100 }, [255, 255, 255])).toBe(true);
  });

  test("keeps the frame when a target moved less than a pixel boundary", () => {
    const redactor = new Redactor([{ target: { css: "#badge" }, mode: "mask" }]);
    const plan = redactor.masksFor([
      [
        { ok: true, rects: [] },
        { ok: true, rects: [] },
        { ok: true, rects: [{ x: 20.2, y: 20, width: 5.5, height: 5 }] },
      ],
      [
        { ok: true, rects: [] },
        { ok: true, rects: [] },
        { ok: true, rects: [{ x: 20.4, y: 20, width: 5.5, height: 5 }] },
      ],
    ]);
    expect(plan).toEqual({ ok: true, rects: [{ x: 20.2, y: 20, width: 5.5, height: 5 }] });
  });

  test("masks a field a secret was typed into, and fails the frame when the surface cannot tell where it is", () => {
    const image = solidImage(100, 100, [255, 255, 255]);
    const field = { x: 10, y: 40, width: 60, height: 12 };
    const redactor = new Redactor([]);
    const answers = [
      { ok: true as const, rects: [] },
      { ok: true as const, rects: [field] },
    ];
    expect(redactor.mask(image, [answers, answers])).toEqual({ ok: true, masked: 1 });
    expect(isUniform(image, field, MASK_RGB)).toBe(true);
    const lost = [
      { ok: true as const, rects: [] },
      { ok: false as const, detail: "a field a secret was typed into could not be tracked" },
    ];
    expect(redactor.masksFor([lost, lost])).toEqual({
      ok: false,
      detail: "fields a secret was typed into: a field a secret was typed into could not be tracked",
    });
  });

  test("fails the frame when a batch does not answer every target", () => {
    expect(new Redactor([]).mask(solidImage(2, 2, [0, 0, 0]), [[]]).ok).toBe(false);
  });
});
