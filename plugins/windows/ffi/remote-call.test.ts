// The routine runs inside Wine's notepad in test/e2e/windows-controls.test.ts (its menus are read
// through it). Here: the batch layout the routine reads and writes, and the routine's shape.
import { describe, expect, test } from "bun:test";
import { batchBytes, CALL_ROUTINE, decodeResults, encodeCalls } from "./remote-call.ts";

describe("remote calls", () => {
  test("a batch is the count, then per call the function, four arguments and the result slot", () => {
    const bytes = encodeCalls([
      { fn: 0x7ff0_0010, args: [1, -1] },
      { fn: 0x7ff0_0020, args: [2, 3, 4, 5] },
    ]);
    expect(bytes.byteLength).toBe(batchBytes(2));
    const v = new DataView(bytes.buffer);
    expect(v.getBigUint64(0, true)).toBe(2n);
    expect(v.getBigUint64(8, true)).toBe(0x7ff0_0010n);
    expect(v.getBigInt64(16, true)).toBe(1n);
    expect(v.getBigInt64(24, true)).toBe(-1n);
    expect(v.getBigUint64(56, true)).toBe(0x7ff0_0020n);
    expect(v.getBigInt64(56 + 32, true)).toBe(5n);
  });

  test("results are read from each record's last word as 32-bit signed values", () => {
    const bytes = encodeCalls([
      { fn: 1, args: [] },
      { fn: 2, args: [] },
    ]);
    const v = new DataView(bytes.buffer);
    v.setBigUint64(8 + 40, 0xdead_0000_0005n, true);
    v.setBigUint64(8 + 48 + 40, 0xffff_ffffn, true);
    expect(decodeResults(bytes, 2)).toEqual([5, -1]);
  });

  test("more than four arguments are refused", () => {
    expect(() => encodeCalls([{ fn: 1, args: [1, 2, 3, 4, 5] }])).toThrow(/four arguments/);
  });

  test("the routine keeps the stack aligned and returns: it saves two registers and reserves 0x28 bytes, and ends with ret", () => {
    expect([...CALL_ROUTINE.slice(0, 6)]).toEqual([0x53, 0x56, 0x48, 0x83, 0xec, 0x28]);
    expect(CALL_ROUTINE.at(-1)).toBe(0xc3);
    // Both jumps land inside the routine: jz to the epilogue, jmp back to the loop test.
    expect(21 + CALL_ROUTINE[20]!).toBe(52);
    expect(52 + (CALL_ROUTINE[51]! - 256)).toBe(16);
  });
});
