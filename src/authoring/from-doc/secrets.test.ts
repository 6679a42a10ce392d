import { describe, expect, test } from "bun:test";
import { findSecretValues, redactSecrets } from "./secrets.ts";
import type { SourceStep } from "./segment.ts";

describe("findSecretValues", () => {
  test.each([
    ["Enter password Welcome1!", ["Welcome1!"]],
    ["Log in with user admin and password: hunter", ["hunter"]],
    ['The password is "correct horse"', ["correct horse"]],
    ['Type S3cret! into the "Password" field', ["S3cret!"]],
    ["Type 'pa ss' into the \"New password\" field", ["pa ss"]],
    ["Enter Tr0ub4dor as the new password", ["Tr0ub4dor"]],
    ["Enter PIN 4711", ["4711"]],
    ["Enter the password for user admin", []],
    ["The password is accepted", []],
    ["Passwords do not match", []],
    ['Click the "Reset password" link', []],
    ['Type ${PASSWORD} into the "Password" field', []],
  ])("%j gives %j", (text, values) => {
    expect(findSecretValues(text)).toEqual(values);
  });
});

const step = (index: number, action: string, extra: Partial<SourceStep> = {}): SourceStep => ({ index, action, where: `row ${index}`, ...extra });

describe("redactSecrets", () => {
  test("replaces a password everywhere it appears, quotes included, with one variable", () => {
    const { steps, secrets } = redactSecrets([
      step(1, 'Type "Welcome1!" into the "Password" field'),
      step(2, 'Type Welcome1! into the "Confirm" field', { expected: "page does not show Welcome1!" }),
      step(3, "Enter PIN 4711"),
    ]);
    expect(steps.map((s) => [s.action, s.expected])).toEqual([
      ['Type ${PASSWORD} into the "Password" field', undefined],
      ['Type ${PASSWORD} into the "Confirm" field', "page does not show ${PASSWORD}"],
      ["Enter PIN ${PIN}", undefined],
    ]);
    expect(secrets).toEqual([
      { variable: "PASSWORD", steps: [1, 2] },
      { variable: "PIN", steps: [3] },
    ]);
    expect(JSON.stringify(steps)).not.toContain("Welcome1");
  });

  test("takes a one-word data cell beside an action asking for a password", () => {
    const { steps, secrets } = redactSecrets([step(1, "Enter the password", { data: "Xy_9" }), step(2, "Enter the user name", { data: "ada" })]);
    expect(steps.map((s) => s.data)).toEqual(["${PASSWORD}", "ada"]);
    expect(secrets).toEqual([{ variable: "PASSWORD", steps: [1] }]);
  });

  test("numbers a second password", () => {
    const { secrets } = redactSecrets([step(1, "Enter password Old-1"), step(2, "Enter password New-2")]);
    expect(secrets.map((s) => s.variable)).toEqual(["PASSWORD", "PASSWORD_2"]);
  });

  test("a document without secrets is unchanged", () => {
    const steps = [step(1, "Go to /login", { expected: "page shows Sign in" })];
    expect(redactSecrets(steps)).toEqual({ steps, secrets: [] });
  });
});
