// UTF-16LE strings as Win32 "W" functions take and return them. Pure: no library is opened.
import { toArrayBuffer, type Pointer } from "bun:ffi";

/** `text` as a NUL-terminated UTF-16LE buffer, ready for an LPCWSTR argument. */
export function wstr(text: string): Buffer {
  return Buffer.from(`${text}\0`, "utf16le");
}

/** The string in a UTF-16LE buffer, up to its first NUL (or the end). */
export function fromWide(bytes: Uint8Array, units?: number): string {
  const view = new Uint16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 2));
  const limit = units === undefined ? view.length : Math.min(units, view.length);
  let end = 0;
  while (end < limit && view[end] !== 0) end++;
  return Buffer.from(bytes.buffer, bytes.byteOffset, end * 2).toString("utf16le");
}

/** A UTF-16LE buffer of `units` code units (NUL included), for a function to write into. */
export function wideBuffer(units: number): Buffer {
  return Buffer.alloc(units * 2);
}

/** `units` UTF-16 code units read from native memory at `p` (no NUL needed). */
export function readWide(p: Pointer | number, units: number): string {
  if (p === 0 || units <= 0) return "";
  return Buffer.from(toArrayBuffer(p, 0, units * 2)).toString("utf16le");
}
