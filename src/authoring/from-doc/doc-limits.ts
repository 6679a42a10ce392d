// The bounds author-from-doc holds a document to (docs/flow-format.md, "Limits"), the error a
// reader throws past one, and how many bytes a zip archive (a .docx, an .xlsx) unzips to, read
// from its central directory before anything is inflated: a zip bomb of a few kilobytes that
// unzips to gigabytes is refused by what it declares. Pure.
import { FlowproofError, diagnostic } from "../../diagnostics/diagnostic.ts";
import { LIMITS, limitText, type LimitName } from "../../diagnostics/limits.ts";

/** The bounds a reader holds a document to (docs/flow-format.md, "Limits"). */
export interface DocumentBounds {
  readonly rows: number;
  readonly pages: number;
}

/**
 * A document past one of its bounds: `what` it holds (`12000 rows`), against the limit, which
 * the message names with the variable that raises it. Readers throw it; readDocument reports it.
 */
export class DocumentTooLarge extends FlowproofError {
  constructor(what: string, limit: LimitName, value: number) {
    super(
      diagnostic("limit-exceeded", `${what}, more than author-from-doc reads: ${limitText(limit, value)}`, {
        hint: `export only the test case's steps${LIMITS[limit].env ? `, or set ${LIMITS[limit].env} higher` : ""}; see docs/flow-format.md, "Limits"`,
      }),
    );
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const ZIP64_LOCATOR = 0x07064b50;
/** A 32-bit size field holding this defers to the entry's zip64 extra field. */
const ZIP64_MARK = 0xffffffff;

/**
 * The sum of the uncompressed sizes the central directory of the zip in `bytes` declares, or
 * undefined when no central directory can be found (the reader then reports the damaged file). A
 * zip64 size the record does not carry counts as infinite: it is refused rather than trusted.
 */
export function declaredUnzippedBytes(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: 22 bytes plus a comment of up to 65535, at the end.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const zip64 = eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR;
  const entries = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  if (zip64 || at === ZIP64_MARK) return Infinity;
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) return undefined;
    const size = view.getUint32(at + 24, true);
    if (size === ZIP64_MARK) return Infinity;
    total += size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}
