import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import type { DialogSuffix } from "./ast.ts";
import { splitDialogSuffix } from "./dialog-suffix.ts";

const slice = (text: string) => ({ text, offset: 0 });

describe("splitDialogSuffix", () => {
  test.each<[string, string, DialogSuffix]>([
    ['"Delete", accepting the "Are you sure?" dialog', '"Delete"', { disposition: "accept", message: "Are you sure?" }],
    ['"Delete", accepting the dialog', '"Delete"', { disposition: "accept" }],
    ['"Cancel", dismissing the dialog', '"Cancel"', { disposition: "dismiss" }],
    ['"Cancel", Dismissing the "Leave page?" dialog', '"Cancel"', { disposition: "dismiss", message: "Leave page?" }],
    [
      'the "Rename" button, answering the prompt with "New name"',
      'the "Rename" button',
      { disposition: "accept", reply: { raw: "New name", parts: [{ kind: "literal", text: "New name" }] } },
    ],
    [
      'the "Rename" button, answering the prompt with "${NEW_NAME}"',
      'the "Rename" button',
      { disposition: "accept", reply: { raw: "${NEW_NAME}", parts: [{ kind: "env", name: "NEW_NAME" }] } },
    ],
    [
      'the "Rename" button, answering the prompt with "5" screen"',
      'the "Rename" button',
      { disposition: "accept", reply: { raw: '5" screen', parts: [{ kind: "literal", text: '5" screen' }] } },
    ],
  ])("splits %s", (text, body, dialog) => {
    const r = splitDialogSuffix(slice(text), at("web"));
    expect(r.ok && r.value.body.text).toBe(body);
    expect(r.ok && r.value.dialog).toEqual(dialog);
  });

  test.each(['"Save" at 75%,50%', '"Yes, accepting terms"', '"Save"'])("leaves %s without a suffix", (text) => {
    expect(splitDialogSuffix(slice(text), at("web"))).toEqual({ ok: true, value: { body: slice(text) } });
  });

  test.each([
    ['"Delete", accepting the box', "unknown-step", 10, 17],
    ['"Delete", accepting', "unknown-step", 10, 9],
    ['"Delete", then click "Next"', "unknown-step", 10, 17],
    ['"Rename", answering the prompt with New', "unknown-step", 10, 29],
  ])("rejects the malformed suffix in %s listing the three shapes", (text, code, offset, length) => {
    const r = splitDialogSuffix(slice(text), at("web"));
    if (r.ok) throw new Error("expected an error");
    expect<string>(r.error.code).toBe(code);
    expect(r.error.hint).toContain("accepting the");
    expect(r.error.hint).toContain("dismissing the dialog");
    expect(r.error.hint).toContain("answering the prompt with");
    expect([r.error.offset, r.error.length]).toEqual([offset, length]);
  });

  test("refuses native dialogs on desktop app kinds", () => {
    const r = splitDialogSuffix(slice('"OK", accepting the dialog'), at("windows"));
    expect(r.ok ? "" : r.error.code).toBe("unsupported-step");
  });

  test("refuses a date expression in a prompt reply", () => {
    const r = splitDialogSuffix(slice('"R", answering the prompt with "${date:today}"'), at("web"));
    expect(r.ok ? "" : r.error.code).toBe("refused-step");
  });
});
