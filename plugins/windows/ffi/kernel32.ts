// kernel32 through bun:ffi: this process and thread, other processes by id (alive, wait, end,
// image path), the kill-on-close job that ties started programs to this process, and
// GetLastError. Programs are started with Bun.spawn, which works the same on Windows and under
// Wine. kernel32.dll is opened on first use.
import { dlopen, FFIType, type Pointer } from "bun:ffi";
import { fromWide, wideBuffer } from "./wide.ts";

export const PROCESS_TERMINATE = 0x0001;
export const PROCESS_SET_QUOTA = 0x0100;
export const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
export const SYNCHRONIZE = 0x00100000;
export const WAIT_OBJECT_0 = 0;
export const WAIT_TIMEOUT = 0x102;
export const STILL_ACTIVE = 259;
/** JOBOBJECTINFOCLASS JobObjectExtendedLimitInformation. */
const JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9;
const JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000;
/** sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION) on x64; LimitFlags is the DWORD at offset 16. */
const EXTENDED_LIMIT_SIZE = 144;
const LIMIT_FLAGS_OFFSET = 16;

function open() {
  const P = FFIType.ptr;
  const { i32, u32 } = FFIType;
  return dlopen("kernel32.dll", {
    GetLastError: { args: [], returns: u32 },
    GetCurrentProcessId: { args: [], returns: u32 },
    GetCurrentThreadId: { args: [], returns: u32 },
    OpenProcess: { args: [u32, i32, u32], returns: P },
    CloseHandle: { args: [P], returns: i32 },
    TerminateProcess: { args: [P, u32], returns: i32 },
    WaitForSingleObject: { args: [P, u32], returns: u32 },
    GetExitCodeProcess: { args: [P, P], returns: i32 },
    QueryFullProcessImageNameW: { args: [P, u32, P, P], returns: i32 },
    CreateJobObjectW: { args: [P, P], returns: P },
    SetInformationJobObject: { args: [P, i32, P, u32], returns: i32 },
    AssignProcessToJobObject: { args: [P, P], returns: i32 },
  }).symbols;
}

let lib: ReturnType<typeof open> | undefined;
const k32 = (): ReturnType<typeof open> => (lib ??= open());

/**
 * The calling thread's last Win32 error. Bun's own runtime may make system calls between two FFI
 * calls, so read it right after the call that failed, and treat it as a hint.
 */
export const lastError = (): number => k32().GetLastError();
export const currentProcessId = (): number => k32().GetCurrentProcessId();
export const currentThreadId = (): number => k32().GetCurrentThreadId();

function withProcess<T>(pid: number, access: number, fallback: T, fn: (handle: Pointer) => T): T {
  const raw = k32().OpenProcess(access, 0, pid);
  if (raw === null || Number(raw) === 0) return fallback;
  const handle = Number(raw) as Pointer;
  try {
    return fn(handle);
  } finally {
    k32().CloseHandle(handle);
  }
}

/** True while process `pid` runs. */
export function processAlive(pid: number): boolean {
  return withProcess(pid, PROCESS_QUERY_LIMITED_INFORMATION, false, (handle) => {
    const code = new Uint32Array(1);
    return k32().GetExitCodeProcess(handle, code) !== 0 && code[0] === STILL_ACTIVE;
  });
}

/** Waits up to `timeoutMs` for `pid` to end; true when it has ended (or is not there). */
export function waitProcess(pid: number, timeoutMs: number): boolean {
  return withProcess(pid, SYNCHRONIZE, true, (handle) => k32().WaitForSingleObject(handle, timeoutMs) === WAIT_OBJECT_0);
}

/** Ends process `pid` with `exitCode`; true when the system accepted. */
export function terminateProcess(pid: number, exitCode: number = 1): boolean {
  return withProcess(pid, PROCESS_TERMINATE, false, (handle) => k32().TerminateProcess(handle, exitCode) !== 0);
}

/** The full path of process `pid`'s executable, "" when it cannot be read. */
export function processImagePath(pid: number): string {
  return withProcess(pid, PROCESS_QUERY_LIMITED_INFORMATION, "", (handle) => {
    const buf = wideBuffer(1024);
    const size = new Uint32Array([1024]);
    return k32().QueryFullProcessImageNameW(handle, 0, buf, size) === 0 ? "" : fromWide(buf, size[0]);
  });
}

/**
 * A job object whose processes all end when its last handle closes: when this process ends in
 * any way (killed outright included), the system closes the handle and ends them. Undefined when
 * the system refused (the programs are then ended by the exit hook only).
 */
export function createKillOnCloseJob(): Pointer | undefined {
  const raw = k32().CreateJobObjectW(null, null);
  if (raw === null || Number(raw) === 0) return undefined;
  const job = Number(raw) as Pointer;
  const info = new Uint8Array(EXTENDED_LIMIT_SIZE);
  new DataView(info.buffer).setUint32(LIMIT_FLAGS_OFFSET, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, true);
  if (k32().SetInformationJobObject(job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, info, EXTENDED_LIMIT_SIZE) === 0) {
    k32().CloseHandle(job);
    return undefined;
  }
  return job;
}

/** Puts process `pid` (and every process it starts from now on) into `job`; true when the system accepted. */
export function assignToJob(job: Pointer, pid: number): boolean {
  return withProcess(pid, PROCESS_SET_QUOTA | PROCESS_TERMINATE, false, (handle) => k32().AssignProcessToJobObject(job, handle) !== 0);
}
