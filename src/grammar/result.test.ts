import { describe, expect, test } from "bun:test";
import { findOutsideQuotes, maskQuoted, matchAt, splitWithin, trimSlice } from "./result.ts";

describe("maskQuoted", () => {
  test.each([
    ['Click "Update between runs"', 'Click "xxxxxxxxxxxxxxxxxxx"'],
    ['a "b" c "d"', 'a "x" c "x"'],
    ['open "quote', 'open "xxxxx'],
  ])("masks the inside of quotes in %s", (text, masked) => {
    expect(maskQuoted(text)).toBe(masked);
  });
  test("with pairedOnly, leaves the text after a lone last quote unmasked", () => {
    expect(maskQuoted('5" screen within 2s', true)).toBe('5" screen within 2s');
    expect(maskQuoted('a "b" 5" c', true)).toBe('a "x" 5" c');
  });
});

describe("findOutsideQuotes", () => {
  test("finds keywords only outside quoted labels", () => {
    expect(findOutsideQuotes('Type a into "b into c" into the x', /\sinto\s/)).toEqual([6, 22]);
  });
});

describe("matchAt", () => {
  test("matches case-insensitively at exactly the given index", () => {
    expect(matchAt(/press/, "x PRESS", 2)?.[0]).toBe("PRESS");
    expect(matchAt(/press/, "x PRESS", 0)).toBeNull();
  });
});

describe("trimSlice", () => {
  test("keeps the offset of the first non-blank character", () => {
    expect(trimSlice({ text: "  ab ", offset: 3 })).toEqual({ text: "ab", offset: 5 });
  });
});

describe("splitWithin", () => {
  test.each([
    ["page shows X within 30s", "page shows X", 30_000],
    ["page shows X within 2 seconds", "page shows X", 2_000],
    ["page shows X within 1 second", "page shows X", 1_000],
    ["page shows X within 5 sec", "page shows X", 5_000],
    ["page shows X within 86400s", "page shows X", 86_400_000],
    ['page shows 5" screen within 2s', 'page shows 5" screen', 2_000],
    ["page shows X WITHIN 1.5s", "page shows X", 1_500],
  ])("splits %s into its body and bound", (text, body, timeoutMs) => {
    expect(splitWithin({ text, offset: 0 })).toEqual({ ok: true, value: { body: { text: body, offset: 0 }, timeoutMs } });
  });
  test.each(["page shows within budget", 'the "within 5s" is visible', "page shows X"])("leaves %s without a bound", (text) => {
    expect(splitWithin({ text, offset: 0 })).toEqual({ ok: true, value: { body: { text, offset: 0 } } });
  });
  test.each([
    ["page shows X within 0s", "more than 0"],
    ["page shows X within 5 minutes", "in seconds"],
    ["page shows Finished within 2200000s", "longest bound flowproof can wait, 86400 s (24 h)"],
    ["page shows Finished within 86400.5s", "longest bound"],
  ])("rejects %s", (text, words) => {
    const r = splitWithin({ text, offset: 0 });
    expect(r.ok ? "" : r.error.message).toContain(words);
  });
});
