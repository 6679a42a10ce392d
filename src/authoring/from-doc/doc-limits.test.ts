import { describe, expect, test } from "bun:test";
import { storedZip } from "../../../test/support/docx.ts";
import { declaredUnzippedBytes, DocumentTooLarge } from "./doc-limits.ts";

const bytes = (n: number) => new Uint8Array(n).fill(65);

describe("declaredUnzippedBytes", () => {
  test("sums the sizes the central directory declares", () => {
    expect(
      declaredUnzippedBytes(
        storedZip([
          { name: "a.xml", data: bytes(10) },
          { name: "b.xml", data: bytes(32) },
        ]),
      ),
    ).toBe(42);
  });

  test("a declared size larger than the data is taken as declared (a bomb declares what it inflates to)", () => {
    const zip = storedZip([{ name: "a.xml", data: bytes(4) }]);
    const view = new DataView(zip.buffer);
    const central = zip.length - 22 - 46 - "a.xml".length;
    view.setUint32(central + 24, 3_000_000_000, true);
    expect(declaredUnzippedBytes(zip)).toBe(3_000_000_000);
  });

  test("a zip64 size is refused rather than trusted; bytes that are no zip have no directory", () => {
    const zip = storedZip([{ name: "a.xml", data: bytes(4) }]);
    new DataView(zip.buffer).setUint32(zip.length - 22 - 46 - "a.xml".length + 24, 0xffffffff, true);
    expect(declaredUnzippedBytes(zip)).toBe(Infinity);
    expect(declaredUnzippedBytes(new TextEncoder().encode("not a zip at all"))).toBeUndefined();
  });
});

test("DocumentTooLarge names the limit and the variable that raises it", () => {
  const e = new DocumentTooLarge("the CSV has 12 rows", "docRows", 10);
  expect(e.diagnostics[0]).toEqual({
    code: "limit-exceeded",
    message: "the CSV has 12 rows, more than author-from-doc reads: 10 rows (raise it with FLOWPROOF_DOC_MAX_ROWS=<n>)",
    hint: 'export only the test case\'s steps, or set FLOWPROOF_DOC_MAX_ROWS higher; see docs/flow-format.md, "Limits"',
  });
});
