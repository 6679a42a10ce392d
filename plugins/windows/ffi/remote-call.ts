// Calls made inside another 64-bit process, for Wine only: Wine keeps a menu in the process that
// made it, and its menu functions (GetMenuItemCount, GetMenuItemInfoW, GetMenuItemRect) answer
// only there (on Windows they answer from any process, so this is never used there). A batch of
// calls is written into a block of that process with a small x64 routine that makes them one
// after the other and stores each result; one remote thread runs the routine.
import type { RemoteMemory } from "./process-memory.ts";

/**
 * The routine, x64 machine code (Windows calling convention). Its argument (rcx) points at
 * `count` followed by `count` records of six 8-byte words {fn, a1, a2, a3, a4, result}:
 *
 *   push rbx; push rsi; sub rsp,0x28          ; shadow space, stack 16-byte aligned
 *   mov rbx,rcx; mov rsi,[rbx]; add rbx,8
 *   loop: test rsi,rsi; jz done
 *   mov rcx,[rbx+8]; mov rdx,[rbx+16]; mov r8,[rbx+24]; mov r9,[rbx+32]
 *   call [rbx]; mov [rbx+40],rax
 *   add rbx,48; dec rsi; jmp loop
 *   done: xor eax,eax; add rsp,0x28; pop rsi; pop rbx; ret
 */
export const CALL_ROUTINE = Uint8Array.from([
  0x53, 0x56, 0x48, 0x83, 0xec, 0x28, 0x48, 0x89, 0xcb, 0x48, 0x8b, 0x33, 0x48, 0x83, 0xc3, 0x08, 0x48, 0x85, 0xf6, 0x74, 0x1f, 0x48, 0x8b, 0x4b, 0x08, 0x48,
  0x8b, 0x53, 0x10, 0x4c, 0x8b, 0x43, 0x18, 0x4c, 0x8b, 0x4b, 0x20, 0xff, 0x13, 0x48, 0x89, 0x43, 0x28, 0x48, 0x83, 0xc3, 0x30, 0x48, 0xff, 0xce, 0xeb, 0xdc,
  0x31, 0xc0, 0x48, 0x83, 0xc4, 0x28, 0x5e, 0x5b, 0xc3,
]);

/** One call: the function's address in the other process and up to four integer or pointer arguments. */
export interface RemoteCall {
  readonly fn: number;
  readonly args: readonly number[];
}

const RECORD_BYTES = 48;

/** Bytes a batch of `n` calls takes (count word and records). */
export const batchBytes = (n: number): number => 8 + n * RECORD_BYTES;

/** Pure: the batch as the routine reads it. */
export function encodeCalls(calls: readonly RemoteCall[]): Uint8Array {
  const out = new Uint8Array(batchBytes(calls.length));
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(calls.length), true);
  calls.forEach((call, i) => {
    if (call.args.length > 4) throw new RangeError("a remote call takes at most four arguments");
    const at = 8 + i * RECORD_BYTES;
    view.setBigUint64(at, BigInt(call.fn), true);
    call.args.forEach((a, k) => view.setBigInt64(at + 8 + k * 8, BigInt(a), true));
  });
  return out;
}

/** Pure: the results the routine stored, one per call (each a 64-bit return value, sign-extended from 32 bits). */
export function decodeResults(bytes: Uint8Array, n: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(view.getInt32(8 + i * RECORD_BYTES + 40, true));
  return out;
}

/**
 * Makes `calls` inside the process of `memory` (opened executable, 64-bit), the routine and the
 * batch placed at `offset` of its block; answers each call's 32-bit result, or undefined when
 * the thread did not run to its end within `timeoutMs`.
 */
export function callRemote(memory: RemoteMemory, offset: number, calls: readonly RemoteCall[], timeoutMs = 2_000): number[] | undefined {
  if (memory.pointerSize !== 8) return undefined;
  const batchAt = offset + ((CALL_ROUTINE.length + 15) & ~15);
  const batch = encodeCalls(calls);
  memory.write(offset, CALL_ROUTINE);
  memory.write(batchAt, batch);
  if (!memory.runThread(offset, memory.base + batchAt, timeoutMs)) return undefined;
  return decodeResults(memory.read(batchAt, batch.byteLength), calls.length);
}
