// Another process's memory through kernel32: a scratch block allocated in it (VirtualAllocEx),
// written and read (WriteProcessMemory/ReadProcessMemory), so that a common control's messages
// carrying a pointer (TCM_GETITEMW, TVM_GETITEMW, LVM_GETITEMTEXTW, SB_GETTEXTW, …) can be sent
// to a control of another process; whether that process is 32-bit (its structures then hold
// 4-byte pointers); where a module is loaded in it; and whether this is Wine. kernel32.dll is
// opened on first use.
import { dlopen, FFIType, type Pointer } from "bun:ffi";
import { fromWide, wideBuffer, wstr } from "./wide.ts";
import { FlowproofError } from "../../../src/plugins/api.ts";

const PROCESS_CREATE_THREAD = 0x0002;
const PROCESS_VM_OPERATION = 0x0008;
const PROCESS_VM_READ = 0x0010;
const PROCESS_VM_WRITE = 0x0020;
const PROCESS_QUERY_INFORMATION = 0x0400;
const MEM_COMMIT_RESERVE = 0x3000;
const MEM_RELEASE = 0x8000;
const PAGE_READWRITE = 0x04;
const PAGE_EXECUTE_READWRITE = 0x40;
const LIST_MODULES_ALL = 0x03;
const WAIT_OBJECT_0 = 0;

function open() {
  const P = FFIType.ptr;
  const { i32, u32, u64 } = FFIType;
  return dlopen("kernel32.dll", {
    OpenProcess: { args: [u32, i32, u32], returns: P },
    CloseHandle: { args: [P], returns: i32 },
    VirtualAllocEx: { args: [P, P, u64, u32, u32], returns: P },
    VirtualFreeEx: { args: [P, P, u64, u32], returns: i32 },
    ReadProcessMemory: { args: [P, P, P, u64, P], returns: i32 },
    WriteProcessMemory: { args: [P, P, P, u64, P], returns: i32 },
    IsWow64Process: { args: [P, P], returns: i32 },
    GetModuleHandleW: { args: [P], returns: P },
    GetProcAddress: { args: [P, P], returns: P },
    K32EnumProcessModulesEx: { args: [P, P, u32, P, u32], returns: i32 },
    K32GetModuleBaseNameW: { args: [P, P, P, u32], returns: u32 },
    CreateRemoteThread: { args: [P, P, u64, P, P, u32, P], returns: P },
    WaitForSingleObject: { args: [P, u32], returns: u32 },
    GetLastError: { args: [], returns: u32 },
  }).symbols;
}

let lib: ReturnType<typeof open> | undefined;
const k32 = (): ReturnType<typeof open> => (lib ??= open());
const at = (address: number): Pointer => address as Pointer;

/** A scratch block in another process, for the pointers a cross-process message carries. */
export interface RemoteMemory {
  readonly pid: number;
  /** 8 for a 64-bit process, 4 for a 32-bit one (WOW64): the pointer size of its structures. */
  readonly pointerSize: 4 | 8;
  /** The block's address in the other process. */
  readonly base: number;
  readonly size: number;
  /** Writes `bytes` at `offset` into the block. */
  write(offset: number, bytes: Uint8Array): void;
  /** Reads `length` bytes at `offset` of the block. */
  read(offset: number, length: number): Uint8Array;
  /**
   * Runs the code at `offset` of the block on a new thread of the other process with `param`
   * as its argument, waiting at most `timeoutMs`; false when it could not start or did not end.
   * Only for a block opened `executable`.
   */
  runThread(offset: number, param: number, timeoutMs: number): boolean;
  /** Frees the block and the process handle. */
  close(): void;
}

/** Whether the process behind `handle` is a 32-bit one on 64-bit Windows. */
function isWow64(handle: Pointer): boolean {
  const flag = new Int32Array(1);
  return k32().IsWow64Process(handle, flag) !== 0 && flag[0] !== 0;
}

/**
 * A block of `size` bytes in process `pid` (read-write; also executable when asked), or a
 * sentence saying why not (the process is gone, or this process may not open it).
 */
export function openRemoteMemory(pid: number, size: number, options: { readonly executable?: boolean } = {}): RemoteMemory | string {
  const access = PROCESS_VM_OPERATION | PROCESS_VM_READ | PROCESS_VM_WRITE | PROCESS_QUERY_INFORMATION | (options.executable ? PROCESS_CREATE_THREAD : 0);
  const raw = k32().OpenProcess(access, 0, pid);
  if (raw === null || Number(raw) === 0) return `process ${pid} cannot be opened (error ${k32().GetLastError()})`;
  const handle = at(Number(raw));
  const block = k32().VirtualAllocEx(handle, null, size, MEM_COMMIT_RESERVE, options.executable ? PAGE_EXECUTE_READWRITE : PAGE_READWRITE);
  if (block === null || Number(block) === 0) {
    const error = k32().GetLastError();
    k32().CloseHandle(handle);
    return `no memory could be allocated in process ${pid} (error ${error})`;
  }
  const base = Number(block);
  // flowproof itself is always a 64-bit program: a WOW64 process is a 32-bit one.
  const wow = isWow64(handle);
  let closed = false;
  const done = new BigUint64Array(1);
  const check = (offset: number, length: number) => {
    // plain Error on purpose: a use after release is a flowproof bug, not something a flow can cause.
    if (closed) throw new Error(`the memory of process ${pid} was already released`);
    if (offset < 0 || length < 0 || offset + length > size) throw new RangeError(`${offset}+${length} is outside the ${size}-byte block`);
  };
  return {
    pid,
    pointerSize: wow ? 4 : 8,
    base,
    size,
    write(offset, bytes) {
      check(offset, bytes.byteLength);
      if (k32().WriteProcessMemory(handle, at(base + offset), bytes, bytes.byteLength, done) === 0)
        throw new FlowproofError({ code: "driver-error", message: `writing into process ${pid} failed (error ${k32().GetLastError()})` });
    },
    read(offset, length) {
      check(offset, length);
      const out = new Uint8Array(length);
      if (k32().ReadProcessMemory(handle, at(base + offset), out, length, done) === 0)
        throw new FlowproofError({ code: "driver-error", message: `reading process ${pid} failed (error ${k32().GetLastError()})` });
      return out;
    },
    runThread(offset, param, timeoutMs) {
      check(offset, 1);
      const thread = k32().CreateRemoteThread(handle, null, 0, at(base + offset), at(param), 0, null);
      if (thread === null || Number(thread) === 0) return false;
      try {
        return k32().WaitForSingleObject(thread, timeoutMs) === WAIT_OBJECT_0;
      } finally {
        k32().CloseHandle(thread);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      k32().VirtualFreeEx(handle, at(base), 0, MEM_RELEASE);
      k32().CloseHandle(handle);
    },
  };
}

/** Runs `fn` with a block in process `pid`, always released afterwards; the sentence saying why not when none could be had. */
export function withRemoteMemory<T>(pid: number, size: number, fn: (memory: RemoteMemory) => T, options: { readonly executable?: boolean } = {}): T | string {
  const memory = openRemoteMemory(pid, size, options);
  if (typeof memory === "string") return memory;
  try {
    return fn(memory);
  } finally {
    memory.close();
  }
}

/** Where `module` (a system DLL such as user32.dll) is loaded in this process; 0 when it is not. */
function localModule(module: string): number {
  return Number(k32().GetModuleHandleW(wstr(module)) ?? 0);
}

/**
 * The address of `module`'s export `name` in process `pid`: its offset in this process's copy,
 * moved to where `module` is loaded there. 0 when either process lacks it.
 */
export function remoteProcAddress(pid: number, module: string, name: string): number {
  const local = localModule(module);
  if (local === 0) return 0;
  const fn = Number(k32().GetProcAddress(at(local), Buffer.from(`${name}\0`, "latin1")) ?? 0);
  if (fn === 0) return 0;
  const raw = k32().OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, 0, pid);
  if (raw === null || Number(raw) === 0) return 0;
  const handle = at(Number(raw));
  try {
    const modules = new BigUint64Array(1024);
    const needed = new Uint32Array(1);
    if (k32().K32EnumProcessModulesEx(handle, modules, modules.byteLength, needed, LIST_MODULES_ALL) === 0) return 0;
    const count = Math.min(modules.length, (needed[0] ?? 0) / 8);
    const wanted = module.toLowerCase();
    for (let i = 0; i < count; i++) {
      const base = Number(modules[i] ?? 0n);
      const buf = wideBuffer(260);
      const n = k32().K32GetModuleBaseNameW(handle, at(base), buf, 260);
      if (fromWide(buf, n).toLowerCase() === wanted) return base + (fn - local);
    }
    return 0;
  } finally {
    k32().CloseHandle(handle);
  }
}

let wine: boolean | undefined;
/** Whether this process runs under Wine (its ntdll exports `wine_get_version`). */
export function isWine(): boolean {
  if (wine !== undefined) return wine;
  const ntdll = localModule("ntdll.dll");
  wine = ntdll !== 0 && Number(k32().GetProcAddress(at(ntdll), Buffer.from("wine_get_version\0", "latin1")) ?? 0) !== 0;
  return wine;
}
