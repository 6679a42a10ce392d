import { describe, expect, test } from "bun:test";
import { toVariant } from "./com-engine.ts";

// The engine itself runs only on Windows: test/e2e/sap.test.ts drives it under Wine against the
// scripting simulator (test/fixtures/sap/mocksap.c). Importing it opens no library on Linux.
describe("toVariant", () => {
  test.each<[string | number | boolean, unknown]>([
    ["wnd[0]", { kind: "bstr", value: "wnd[0]" }],
    [0, { kind: "i4", value: 0 }],
    [1.5, { kind: "r8", value: 1.5 }],
    [false, { kind: "bool", value: false }],
  ])("%p", (arg, variant) => {
    expect(toVariant(arg)).toEqual(variant as never);
  });
});
